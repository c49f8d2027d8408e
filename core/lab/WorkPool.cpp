#include "core/lab/WorkPool.h"

#include <algorithm>

namespace fa {

WorkPool::~WorkPool() {
    {
        const std::lock_guard<std::mutex> lock(m_lock);
        m_closing = true;
        for (auto& queue : m_queue) {
            for (Job& job : queue)
                job.stop->store(true);
            queue.clear(); // their futures report a broken promise
        }
        for (const auto& stop : m_running)
            stop->store(true);
    }
    for (auto& wake : m_wake)
        wake.notify_all();
    for (std::thread& t : m_threads)
        t.join();
}

WorkPool& WorkPool::shared() {
    // Never destroyed: the process ends without waiting for a refit inside a product it cannot
    // cut (seconds at D = 2000), and its threads, told to stop, never outlive the pool they use.
    static WorkPool* const pool = new WorkPool;
    return *pool;
}

int WorkPool::threads() const {
    const std::lock_guard<std::mutex> lock(m_lock);
    return static_cast<int>(m_threads.size());
}

void WorkPool::post(Job job, Lane lane) {
    const int k = lane == Lane::Low ? 1 : 0;
    std::unique_lock<std::mutex> lock(m_lock);
    if (m_closing) { // the process is ending: the work never starts
        job.stop->store(true);
        return;
    }
    m_queue[k].push_back(std::move(job));
    if (m_idle[k] < static_cast<int>(m_queue[k].size())) {
        try {
            m_threads.emplace_back([this, k] { loop(k); });
            ++m_made[k];
        } catch (const std::system_error&) {
            // No thread to be had (a process limit): the work waits for a busy thread of its
            // lane; with none at all it could never run, so the caller hears it now.
            if (m_made[k] == 0) {
                m_queue[k].pop_back();
                throw;
            }
        }
    }
    lock.unlock();
    m_wake[k].notify_one();
}

void WorkPool::loop(int k) {
    std::unique_lock<std::mutex> lock(m_lock);
    for (;;) {
        ++m_idle[k];
        m_wake[k].wait(lock, [&] { return m_closing || !m_queue[k].empty(); });
        --m_idle[k];
        if (m_closing)
            return;
        Job job = std::move(m_queue[k].front());
        m_queue[k].pop_front();
        m_running.push_back(job.stop);
        lock.unlock();
        job.run(); // a packaged_task: what the work throws goes to its future
        lock.lock();
        m_running.erase(std::find(m_running.begin(), m_running.end(), job.stop));
    }
}

} // namespace fa
