#pragma once
// What a long scoring loop looks at before each of its passes (a draw or an optimiser step over
// every held-out row each time): the nonlinear-FA lab's q*, ELBO and IW estimates, the neural
// lab's predictive draws. Such loops can outlast the fit they score, so they report that they are
// still under way and stop on a cancel, as the fit's own loop does between epochs.
#include <atomic>
#include <functional>

namespace fa {

/// `tick`, if set, is called (a progress report: the scoring is still under way), then a raised
/// `cancel` (a relaxed load) ends the loop there, leaving a partial result for the caller to
/// drop. Left empty, nothing changes: the same draws, the same numbers.
struct ScoringPoll {
    const std::atomic<bool>* cancel = nullptr;
    std::function<void()> tick;
    /// Calls tick; true when cancel is raised.
    bool stop() const {
        if (tick)
            tick();
        return cancelled();
    }
    /// True when cancel is raised (no tick).
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

} // namespace fa
