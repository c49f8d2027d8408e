#pragma once
// The gradient estimators of an expectation under a variational q (docs/maths/posterior.md §4.2,
// §4.4; the VAE's encoder, docs/maths/nonlinear.md §9): reparameterisation; score function
// (REINFORCE), E_q[f grad log q]; and the score function with a leave-one-out baseline,
// (1/(S-1)) sum_s (f_s - mean f) grad log q(w_s). Shared by the posterior and nonlinear-FA labs.
#include "core/lab/NameTable.h"

#include <optional>
#include <string>

namespace fa {

enum class GradientEstimator { Reparam, Score, ScoreBaseline };

inline constexpr Named<GradientEstimator> kEstimatorNames[] = {
    {GradientEstimator::Reparam, "reparam"},
    {GradientEstimator::Score, "score"},
    {GradientEstimator::ScoreBaseline, "score-baseline"}};

inline std::string estimatorName(GradientEstimator e) {
    return nameIn(kEstimatorNames, e);
}

inline std::optional<GradientEstimator> parseEstimator(const std::string& name) {
    return valueIn(kEstimatorNames, name);
}

} // namespace fa
