#pragma once
// What VIFA and Gaussian VI share as fits that pass over their rows in shuffled mini-batches
// (core/optim/SgdEpoch.h's shuffledBatches): the rows' order and the random stream that shuffles
// it (and draws the fits' samples), the epochs and updates made, and whether an update diverged.
#include "core/fa/GaussianFit.h"
#include "core/math/Rng.h"
#include "core/optim/SgdEpoch.h"

#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace fa {

class MiniBatchFit : public EpochFit {
  public:
    /// One shuffled pass in mini-batches of batchSize() rows (the last partial one dropped),
    /// onBatch(rows) for each until an update diverges or the fit is abandoned; the count of
    /// mini-batches per update runs on across epochs. A diverged fit does not move.
    void runEpoch() final {
        if (m_diverged)
            return;
        shuffledBatches(
            m_order, m_rng, batchSize(), [this] { return m_diverged || abandoned(); },
            [this](std::span<const Eigen::Index> rows) { onBatch(rows); });
        ++m_epoch;
    }
    long epoch() const { return m_epoch; }
    long updates() const { return m_updates; }
    /// Running, or Diverged once an update met NaN or Inf.
    FitStatus status() const override {
        return m_diverged ? FitStatus::Diverged : FitStatus::Running;
    }

  protected:
    /// The rows 0 … rows - 1 in order; the stream seeded with seed.
    MiniBatchFit(Eigen::Index rows, std::uint64_t seed)
        : m_rng(seed), m_order(static_cast<std::size_t>(rows)) {
        std::iota(m_order.begin(), m_order.end(), Eigen::Index{0});
    }
    virtual Eigen::Index batchSize() const = 0; ///< M
    /// One mini-batch: its draws, and an update when it completes one.
    virtual void onBatch(std::span<const Eigen::Index> rows) = 0;

    Rng m_rng;
    long m_epoch = 0, m_updates = 0;
    bool m_diverged = false;

  private:
    std::vector<Eigen::Index> m_order;
};

} // namespace fa
