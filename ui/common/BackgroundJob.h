#pragma once
// One helper for the window's long background jobs (the explorer's trials, the neural lab's
// splits table): runs a function on the process's work pool (core/lab/WorkPool.h) with a cancel
// flag it should poll between small pieces of work, hands results back to the window's thread,
// and never blocks the window: cancel() only raises the flag; the destructor raises it and
// waits for the current piece.
#include "core/lab/WorkPool.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <optional>

class BackgroundJob : public QObject {
    Q_OBJECT
  public:
    /// The job's body: poll cancel between pieces of work; throw to report an error.
    using Body = std::function<void(const std::atomic<bool>& cancel)>;
    enum class Priority { Normal, Low };
    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override; ///< cancels and waits

    /// Starts body on the pool; false (and nothing started) while a job is still running.
    /// Low runs it on the pool's low-priority threads (a nice value of 10 on Linux, which the
    /// threads it starts, trials side by side, inherit), so the live run and the window come
    /// first.
    bool start(Body body, Priority priority = Priority::Normal);
    void cancel();
    bool running() const { return m_task.has_value(); }
    /// From the job's thread: runs f on the window's thread (queued), e.g. to show a row.
    void deliver(std::function<void()> f);

  signals:
    /// The job ended: cancelled if cancel() was called, error non-empty if the body threw.
    void finished(bool cancelled, QString error);

  private:
    std::optional<fa::PoolTask<QString>> m_task; ///< the body's error, empty if none
    bool m_cancelled = false;
};
