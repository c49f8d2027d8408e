#pragma once
// Work split over the cores by claiming: fn(i, slot) for every i in [0, count), each i taken in
// turn by one of up to maxThreads threads (at most one per core), so a thread on a core shared
// with another process does fewer of them instead of holding the others up (an equal share each
// took as long as the slowed thread's share: docs/benchmarks.md). For work whose parts write
// disjoint outputs, so the result does not depend on the cores or on which thread did a part.
// slot (0 .. maxThreads - 1) names the thread, for scratch of its own. An exception in any part
// stops the claiming and is raised here after every thread has ended (the first slot's first);
// with no thread to be had (a process limit), fewer threads claim. Header only: the engine's
// library lists its sources in core/CMakeLists.txt.
#include "core/math/Types.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace fa {

template <class Fn> void claimInTurn(Eigen::Index count, unsigned maxThreads, Fn&& fn) {
    const unsigned threads =
        std::clamp(std::thread::hardware_concurrency(), 1u, std::max(maxThreads, 1u));
    std::atomic<Eigen::Index> next{0};
    std::vector<std::exception_ptr> failed(threads);
    auto claim = [&](unsigned slot) {
        try {
            for (Eigen::Index i = next++; i < count; i = next++)
                fn(i, slot);
        } catch (...) {
            failed[slot] = std::current_exception();
            next = count; // the others stop at their next claim
        }
    };
    {
        std::vector<std::jthread> pool;
        pool.reserve(threads); // so that only making a thread can throw below
        try {
            for (unsigned t = 1; t < threads && t < count; ++t)
                pool.emplace_back(claim, t);
        } catch (const std::system_error&) {
        }
        claim(0);
    } // joined
    for (const std::exception_ptr& e : failed)
        if (e)
            std::rethrow_exception(e);
}

} // namespace fa
