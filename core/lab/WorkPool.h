#pragma once
// The one owned, joinable pool for the work beside a run (issue 26 item 6): a batch refit at
// D = 1000 (seconds in single matrix products that cannot be cut without changing their
// numbers), the window's trials and splits tables. A task gets a stop flag to poll between its
// pieces; dropping its handle raises the flag and does not wait, so a cancel, a reset or a page
// closing never waits for a product. The work must therefore own what it reads (copies,
// shared_ptr) and act only through its result. The pool grows a thread whenever every thread is
// busy (a refit never queues behind a trials table) and joins them all when it is destroyed,
// after raising every stop flag: no thread outlives it. The process's own pool (shared()) is
// never destroyed, so that quitting never waits for a product of seconds. Low-priority work
// has threads of its own (its submitter may lower their priority; they never run normal work).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fa {

/// The handle of work handed to a WorkPool: its result (or exception) once ready. Destroying or
/// cancelling it raises the work's stop flag; neither waits.
template <class R> class PoolTask {
  public:
    PoolTask(std::shared_ptr<std::atomic<bool>> stop, std::future<R> result)
        : m_stop(std::move(stop)), m_result(std::move(result)) {}
    PoolTask(PoolTask&&) noexcept = default;
    PoolTask& operator=(PoolTask&&) noexcept = default;
    PoolTask(const PoolTask&) = delete;
    PoolTask& operator=(const PoolTask&) = delete;
    ~PoolTask() { cancel(); }

    void cancel() {
        if (m_stop)
            m_stop->store(true);
    }
    bool ready() const {
        return m_result.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    }
    /// Waits for the result, looking at cancel (optional) every few milliseconds; false if
    /// cancel was raised first (the work is then left to stop on its own).
    bool wait(const std::atomic<bool>* cancel = nullptr) const {
        while (m_result.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready)
            if (cancel && cancel->load())
                return false;
        return true;
    }
    /// The result once ready(); rethrows what the work threw (std::future_error if the pool
    /// closed before the work started).
    R get() { return m_result.get(); }

  private:
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::future<R> m_result;
};

class WorkPool {
  public:
    enum class Lane { Normal, Low };
    WorkPool() = default;
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;
    /// Raises every stop flag, drops the work not yet started and joins every thread.
    ~WorkPool();

    /// The process's pool (refits, the window's background tables). It lives as long as the
    /// process: work is cancelled and dropped by its owners (a page, a run, a command), and the
    /// process's exit does not wait for a piece of work it cannot cut.
    static WorkPool& shared();

    template <class R>
    PoolTask<R> submit(std::function<R(const std::atomic<bool>& stop)> work,
                       Lane lane = Lane::Normal) {
        auto stop = std::make_shared<std::atomic<bool>>(false);
        auto task = std::make_shared<std::packaged_task<R()>>(
            [work = std::move(work), stop] { return work(*stop); });
        std::future<R> result = task->get_future();
        post({[task] { (*task)(); }, stop}, lane);
        return PoolTask<R>(std::move(stop), std::move(result));
    }

    /// Threads made so far (each lane's busy and idle ones).
    int threads() const;

  private:
    struct Job {
        std::function<void()> run;
        std::shared_ptr<std::atomic<bool>> stop;
    };
    void post(Job job, Lane lane);
    void loop(int lane);

    mutable std::mutex m_lock;
    std::condition_variable m_wake[2];
    std::deque<Job> m_queue[2];
    int m_idle[2] = {0, 0}, m_made[2] = {0, 0};                ///< per lane: waiting for work, made
    std::vector<std::shared_ptr<std::atomic<bool>>> m_running; ///< stop flags of started work
    std::vector<std::thread> m_threads;
    bool m_closing = false;
};

} // namespace fa
