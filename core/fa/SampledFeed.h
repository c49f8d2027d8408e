#pragma once
// Observations drawn from a model and fed to an online fitter (issue 30; docs/threads.md):
//     for (long i = 0; i < n; ++i) { sampler.draw(rng, x); fitter.observe(x); }
// with the same draws in the same order, so the fit, and rng's state after, are bitwise the
// loop's. When the fitter's pass is split over threads (OnlineFitter::passParts() > 1), the
// pass of each observation draws the next one beside its rows, on its last thread
// (core/fa/PassBeside.h): the normals, one stream that stays serial, and x = c + F h + sqrt(psi)
// eps then cost no wake-up of their own, and that thread sums fewer rows of the pass.
#include "core/fa/FAModel.h"
#include "core/fa/OnlineFitter.h"
#include "core/fa/PassBeside.h"

namespace fa {

class SampledFeed {
  public:
    explicit SampledFeed(const FAModel& truth); ///< truth must outlive the feed
    SampledFeed(const SampledFeed&) = delete;
    SampledFeed& operator=(const SampledFeed&) = delete;
    /// n observations of the truth, drawn with rng, into fitter.
    void feed(OnlineFitter& fitter, Rng& rng, long n);
    /// The blocks the drawing thread summed beside the last draw (-1 before any split pass).
    long besideBlocks() const { return m_beside.lastBlocks; }
    /// The seconds of the last draw made beside a pass (0 before any).
    double besideSeconds() const { return m_beside.jobSeconds; }

  private:
    FASampler m_sampler;
    Vector m_x[2];
    int m_next = 1;       // the buffer the job draws into
    Rng* m_rng = nullptr; // the rng of the feed under way
    stream::Beside m_beside;
};

} // namespace fa
