#pragma once
// Long work that must never hold up a cancel or a quit: a batch refit at D = 1000 spends
// seconds in single matrix products that cannot be interrupted without changing their
// numbers. DetachedTask runs the work on a thread of its own that nobody joins. The work gets a
// stop flag, raised when the task is abandoned, to poll between its pieces; it must own what it
// reads (copies, shared_ptr) and act only through its return value, so it may finish after its
// owner is gone. Waiting on it stops as soon as the owner's cancel flag is raised.
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <thread>

namespace fa {

template <class R> class DetachedTask {
  public:
    using Work = std::function<R(const std::atomic<bool>& stop)>;

    explicit DetachedTask(Work work) : m_stop(std::make_shared<std::atomic<bool>>(false)) {
        std::packaged_task<R()> task(
            [work = std::move(work), stop = m_stop] { return work(*stop); });
        m_result = task.get_future();
        std::thread(std::move(task)).detach();
    }
    DetachedTask(const DetachedTask&) = delete;
    DetachedTask& operator=(const DetachedTask&) = delete;
    /// Abandons the work if it is still running: raises its stop flag, does not wait.
    ~DetachedTask() { *m_stop = true; }

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
    /// The result once ready(); rethrows what the work threw.
    R get() { return m_result.get(); }

  private:
    std::shared_ptr<std::atomic<bool>> m_stop;
    std::future<R> m_result; // from a packaged_task: never blocks when destroyed
};

} // namespace fa
