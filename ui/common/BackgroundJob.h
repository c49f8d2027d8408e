#pragma once
// One helper for the window's long background jobs (the explorer's trials, the neural lab's
// splits table): runs a function on its own thread with a cancel flag it should poll between
// small pieces of work, hands results back to the window's thread, and never blocks the window:
// cancel() only raises the flag; the destructor raises it and waits for the current piece.
#include <QObject>
#include <QThread>
#include <atomic>
#include <functional>

class BackgroundJob : public QObject {
    Q_OBJECT
  public:
    /// The job's body: poll cancel between pieces of work; throw to report an error.
    using Body = std::function<void(const std::atomic<bool>& cancel)>;
    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override; ///< cancels and waits

    /// Starts body on a new thread; false (and nothing started) while a job is still running.
    /// A low priority lets the live run and the window come first.
    bool start(Body body, QThread::Priority priority = QThread::InheritPriority);
    void cancel() { m_cancel = true; }
    bool running() const { return m_thread != nullptr; }
    /// From the job's thread: runs f on the window's thread (queued), e.g. to show a row.
    void deliver(std::function<void()> f);

  signals:
    /// The job ended: cancelled if cancel() was called, error non-empty if the body threw.
    void finished(bool cancelled, QString error);

  private:
    QThread* m_thread = nullptr;
    std::atomic<bool> m_cancel{false};
};
