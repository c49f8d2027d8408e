#include "ui/common/BackgroundJob.h"

#include <new>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent) {}

BackgroundJob::~BackgroundJob() {
    m_cancel = true;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

bool BackgroundJob::start(Body body, QThread::Priority priority) {
    if (m_thread)
        return false;
    m_cancel = false;
    const bool low = priority == QThread::LowPriority || priority == QThread::LowestPriority ||
                     priority == QThread::IdlePriority;
    m_thread = QThread::create([this, low, body = std::move(body)] {
        // Linux ignores QThread priorities for ordinary threads; a nice value works, and the
        // threads this one starts (trials side by side) inherit it, so the window and the live
        // run keep the cores first.
        if (low)
            setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
        QString error;
        try {
            body(m_cancel);
        } catch (const std::bad_alloc&) {
            error = "not enough memory for this job";
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        deliver([this, error] {
            m_thread->wait(); // the body has returned; the thread is ending
            delete m_thread;
            m_thread = nullptr;
            emit finished(m_cancel.load(), error);
        });
    });
    m_thread->start(priority);
    return true;
}

void BackgroundJob::deliver(std::function<void()> f) {
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}
