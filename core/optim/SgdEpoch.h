#pragma once
// One epoch of mini-batch SGD, the loop every SGD of the labs shares (core/vi/SgdTrainer's for
// linear regression, core/vi/MapSgd's over any likelihood): the rows shuffled, batches of M in
// that order (a last partial batch dropped), one step each, a step that leaves the parameters
// not finite ending the pass, every iterate handed on.
#include "core/math/Rng.h"
#include "core/math/Types.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <vector>

namespace fa {

/// Shuffles `order` with rng and walks it in batches of `batch` rows while !stop(); step(rows)
/// takes one step on those rows and returns the parameters after it. Returns true if a step
/// left them not finite (the pass ends there; onIterate does not see them).
template <class Step, class Stop>
bool sgdEpoch(std::vector<Eigen::Index>& order, Rng& rng, int batch, Step step, Stop stop,
              const std::function<void(const Vector&)>& onIterate) {
    const auto n = static_cast<Eigen::Index>(order.size());
    shuffle(order, rng);
    const Eigen::Index m = std::min<Eigen::Index>(batch, n);
    for (Eigen::Index start = 0; start + m <= n && !stop(); start += m) {
        const Vector& theta =
            step(std::span<const Eigen::Index>(order.data() + start, static_cast<std::size_t>(m)));
        if (!std::isfinite(theta.sum()))
            return true;
        if (onIterate)
            onIterate(theta);
    }
    return false;
}

} // namespace fa
