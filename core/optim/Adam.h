#pragma once
// The optimiser every variational fit shares (VIFA, Gaussian VI, the nonlinear-FA lab's fits):
// a plain gradient step or Adam (Kingma and Ba 2015), on one block of parameters at a time.
#include "core/math/Types.h"

namespace fa {

enum class OptimiserKind { Sgd, Adam };

/// Adam's state for one block of parameters: the running moments, as views into storage the
/// fit owns (a vector, a segment of one, or a matrix mapped flat), updated in place by a step.
/// The step count (for the bias correction) is the fit's and is passed to each step.
struct AdamMoments {
    Eigen::Ref<Vector> m; ///< the gradient's running mean (β₁ = 0.9)
    Eigen::Ref<Vector> v; ///< the running mean of its square (β₂ = 0.999)
};

/// One step of -lr grad (SGD; the moments are not touched) or of Adam (beta1 0.9, beta2 0.999,
/// eps 1e-8) with step count t >= 1 for the bias correction.
void optimiserStep(OptimiserKind kind, Eigen::Ref<Vector> param, const ConstVectorRef& grad,
                   AdamMoments moments, double lr, long t);

} // namespace fa
