#pragma once
// An experiment's independent trials (or data splits) on several threads, or one slice of them
// for a cluster's job array. Rows come back in trial order, each trial seeded from its own
// number, so the output is the same for any number of threads, and the slices of a sharded run
// concatenate (faexplorer-cli merge) into the unsharded output. Qt-free.
#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace fa {

/// Slice `index` (0-based) of `count`: the trials [T index / count, T (index + 1) / count).
struct Shard {
    int index = 0, count = 1;
};

/// "i/n" with 1 <= i <= n <= 100000 (i counts from 1, as a job array's task id may); throws
/// std::invalid_argument with a message for the command line otherwise.
Shard parseShard(const std::string& text);

/// The trials of [0, trials) that the shard runs, ascending.
std::vector<int> shardTrials(int trials, const Shard& shard);

/// The threads to use: `requested`, or every core for 0; never more than there is work.
int resolveThreads(int requested, int work);

/// Runs trial(t) for each t of `trials` on up to `threads` threads and concatenates the rows in
/// the order of `trials`. Once cancel is raised no further trial starts (a running one decides
/// what it returns). An exception in a trial stops the others from starting and is rethrown here.
template <class Row>
std::vector<Row> runTrials(const std::vector<int>& trials, int threads,
                           const std::function<std::vector<Row>(int)>& trial,
                           const std::atomic<bool>* cancel = nullptr) {
    std::vector<std::vector<Row>> done(trials.size());
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex errorLock;
    auto worker = [&] {
        for (;;) {
            const std::size_t k = next.fetch_add(1);
            if (k >= trials.size() || (cancel && cancel->load()))
                return;
            try {
                done[k] = trial(trials[k]);
            } catch (...) {
                const std::lock_guard<std::mutex> lock(errorLock);
                if (!error)
                    error = std::current_exception();
                next = trials.size();
                return;
            }
        }
    };
    const int n = resolveThreads(threads, static_cast<int>(trials.size()));
    std::vector<std::thread> pool;
    try {
        for (int t = 1; t < n; ++t)
            pool.emplace_back(worker);
    } catch (const std::system_error&) {
        // No more threads to be had (a process limit): the ones started and this one share
        // the trials; a thread left unjoined would end the program.
    }
    worker();
    for (auto& t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
    std::vector<Row> rows;
    for (auto& d : done)
        rows.insert(rows.end(), std::make_move_iterator(d.begin()),
                    std::make_move_iterator(d.end()));
    return rows;
}

/// A callback that may be called from several threads at once, made safe by one lock.
template <class Arg>
std::function<void(const Arg&)> serialised(const std::function<void(const Arg&)>& f,
                                           std::mutex& lock) {
    if (!f)
        return {};
    return [&f, &lock](const Arg& a) {
        const std::lock_guard<std::mutex> guard(lock);
        f(a);
    };
}

/// The experiments' common run: the shard's trials of [0, trials) through runTrials, each as
/// trial(t, report), where report is `progress` made safe to call from the trials' threads.
template <class Row, class Progress, class Trial>
std::vector<Row> runShardTrials(int trials, const Shard& shard, int threads,
                                const std::function<void(const Progress&)>& progress, Trial&& trial,
                                const std::atomic<bool>* cancel) {
    std::mutex lock;
    const auto report = serialised(progress, lock);
    return runTrials<Row>(
        shardTrials(trials, shard), threads, [&](int t) { return trial(t, report); }, cancel);
}

} // namespace fa
