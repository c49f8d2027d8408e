#pragma once
// Work beside a split pass (issue 30; docs/threads.md): a job that the last thread of an
// observation's split pass (core/fa/PassThreads.h) runs next to its share of the rows, so work
// that must stay serial (drawing the next observation, whose normals are one stream:
// core/fa/SampledFeed.h) overlaps the pass with no wake-up of its own. That thread then sums fewer
// of the pass's blocks, as many as balance the threads' times, measured pass by pass. Which thread
// sums a block never changes its numbers, so the fit is bitwise the same whatever the balance.
//
// The job reaches the pass through a scope on the calling thread rather than through the
// fitter's interface: OnlineFitter::observe stays as it is for every other caller.
#include <functional>

namespace fa::stream {

/// The job, and the balance kept from one pass to the next.
struct Beside {
    std::function<void()> job;
    bool ran = false;        ///< set by the split pass that ran the job
    long lastBlocks = -1;    ///< the blocks the job's thread sums beside it (-1: not yet measured)
    double jobSeconds = 0.0; ///< the job's time in the last pass that ran it
};

/// While it lives, the first split pass (two threads or more) that this thread starts runs
/// beside.job on its last thread and sets beside.ran. A pass that is not split leaves the job
/// to the caller (beside.ran stays false). Scopes do not nest.
class BesideScope {
  public:
    explicit BesideScope(Beside& beside);
    ~BesideScope();
    BesideScope(const BesideScope&) = delete;
    BesideScope& operator=(const BesideScope&) = delete;
};

/// For PassThreads: this thread's pending job, handed out once (null: none).
Beside* takeBeside();

} // namespace fa::stream
