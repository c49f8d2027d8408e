#pragma once
// Maximum a posteriori by mini-batch SGD over any Likelihood's parameters (a network's weights,
// issue 27): a Gaussian prior N(0, I / alpha) on theta, so each step descends the per-datum
// negative log posterior (1/M) sum_batch -log p(y_n | x_n, theta) + alpha / (2 N) |theta|^2,
// whose minimiser is the MAP (weight decay alpha / N: the L2 / prior correspondence of
// docs/maths/neural.md §7). The iterates after every step are what SWAG and the online FA
// fitters (SWA-FA) are fed.
#include "core/optim/SgdEpoch.h"
#include "core/vi/Likelihood.h"

#include <functional>
#include <vector>

namespace fa {

struct MapSgdOptions {
    double learningRate = 0.01;
    int batch = 32;
    double priorPrecision = 1.0; ///< alpha
    std::uint64_t seed = 0;      ///< the order of the mini-batches
};

class MapSgd : public SgdRun {
  public:
    /// Starts at `start` (the network's initial weights); throws std::invalid_argument for a
    /// start of the wrong length, a batch below 1, a rate not positive or a negative precision.
    MapSgd(const Likelihood& likelihood, Vector start, const MapSgdOptions& options);

    /// One shuffled pass in mini-batches of M (a last partial batch dropped); onIterate, if
    /// set, sees theta after every step. A step that leaves theta not finite ends the run
    /// (diverged()).
    void runEpoch(const std::function<void(const Vector&)>& onIterate = {});

  private:
    const Likelihood& m_likelihood;
    MapSgdOptions m_options;
};

} // namespace fa
