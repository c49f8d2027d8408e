#pragma once
// The shuffled mini-batch pass every mini-batch fit shares (the rows shuffled, batches of M in
// that order, a last partial batch dropped: VIFA, Gaussian VI and SGD) and one epoch of
// mini-batch SGD, the loop every SGD of the labs shares (core/vi/SgdTrainer's for linear
// regression, core/vi/MapSgd's over any likelihood): one step a batch, a step that leaves the
// parameters not finite ending the pass, every iterate handed on; SgdRun, the state they keep.
#include "core/math/Abandon.h"
#include "core/math/Rng.h"
#include "core/math/Types.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <span>
#include <vector>

namespace fa {

/// Shuffles `order` with rng and hands it on in batches of `batch` rows (a last partial batch
/// dropped), each(rows) for each while !stop(): the pass of every mini-batch fit (SGD below,
/// VIFA, Gaussian VI).
template <class Each, class Stop>
void shuffledBatches(std::vector<Eigen::Index>& order, Rng& rng, Eigen::Index batch, Stop stop,
                     Each each) {
    const auto n = static_cast<Eigen::Index>(order.size());
    shuffle(order, rng);
    const Eigen::Index m = std::min<Eigen::Index>(batch, n);
    for (Eigen::Index start = 0; start + m <= n && !stop(); start += m)
        each(std::span<const Eigen::Index>(order.data() + start, static_cast<std::size_t>(m)));
}

/// One shuffled pass (shuffledBatches) in which step(rows) takes one step on those rows and
/// returns the parameters after it. Returns true if a step left them not finite (the pass ends
/// there; onIterate does not see them).
template <class Step, class Stop>
bool sgdEpoch(std::vector<Eigen::Index>& order, Rng& rng, int batch, Step step, Stop stop,
              const std::function<void(const Vector&)>& onIterate) {
    bool diverged = false;
    shuffledBatches(
        order, rng, batch, [&] { return diverged || stop(); },
        [&](std::span<const Eigen::Index> rows) {
            const Vector& theta = step(rows);
            if (!std::isfinite(theta.sum()))
                diverged = true;
            else if (onIterate)
                onIterate(theta);
        });
    return diverged;
}

/// What every mini-batch SGD of the labs keeps (core/vi/SgdTrainer, core/vi/MapSgd): theta and
/// its gradient, the rows' order and the stream that shuffles it, the epochs run and whether a
/// step diverged; runSgdEpoch is one epoch of sgdEpoch on them.
class SgdRun : public Abandonable {
  public:
    const Vector& theta() const { return m_theta; }
    long epoch() const { return m_epoch; }
    bool diverged() const { return m_diverged; }

  protected:
    /// The rows 0 … rows - 1 in order, the stream seeded with seed, theta at start.
    SgdRun(Eigen::Index rows, std::uint64_t seed, Vector start = {})
        : m_rng(seed), m_theta(std::move(start)), m_order(static_cast<std::size_t>(rows)) {
        std::iota(m_order.begin(), m_order.end(), Eigen::Index{0});
    }
    /// One epoch (none once diverged): step(rows) moves m_theta and returns it.
    template <class Step>
    void runSgdEpoch(int batch, Step step, const std::function<void(const Vector&)>& onIterate) {
        if (m_diverged)
            return;
        m_diverged = sgdEpoch(
            m_order, m_rng, batch, step, [this] { return abandoned(); }, onIterate);
        ++m_epoch;
    }
    /// The number of rows.
    Eigen::Index rowCount() const { return static_cast<Eigen::Index>(m_order.size()); }

    Rng m_rng;
    Vector m_theta, m_grad;

  private:
    std::vector<Eigen::Index> m_order;
    long m_epoch = 0;
    bool m_diverged = false;
};

} // namespace fa
