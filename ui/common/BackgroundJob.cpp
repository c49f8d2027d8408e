#include "ui/common/BackgroundJob.h"

#include <new>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob() {
    if (m_task) {
        m_task->cancel();
        m_task->wait(); // the current piece; its deliveries to this object are dropped
    }
}

void BackgroundJob::cancel() {
    m_cancelled = true;
    if (m_task)
        m_task->cancel();
}

bool BackgroundJob::start(Body body, Priority priority) {
    if (m_task)
        return false;
    m_cancelled = false;
    const bool low = priority == Priority::Low;
    m_task = fa::WorkPool::shared().submit<QString>(
        [this, low, body = std::move(body)](const std::atomic<bool>& stop) {
            // Linux ignores thread priorities for ordinary threads; a nice value works, and the
            // threads this one starts inherit it. The pool's low lane runs low work only.
            if (low)
                setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
            QString error;
            try {
                body(stop);
            } catch (const std::bad_alloc&) {
                error = "not enough memory for this job";
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
            deliver([this, error] {
                m_task.reset(); // the body has returned
                emit finished(m_cancelled, error);
            });
            return error;
        },
        low ? fa::WorkPool::Lane::Low : fa::WorkPool::Lane::Normal);
    return true;
}

void BackgroundJob::deliver(std::function<void()> f) {
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}
