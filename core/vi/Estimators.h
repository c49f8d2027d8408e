#pragma once
// The gradient estimators of the variational fits' likelihood term (docs/maths/posterior.md §4.2,
// §4.4): reparameterisation; score function (REINFORCE), E_q[f grad log q]; and the score
// function with a leave-one-out baseline, (1/(S-1)) sum_s (f_s - mean f) grad log q(w_s).
#include <optional>
#include <string>

namespace fa {

enum class GradientEstimator { Reparam, Score, ScoreBaseline };

inline std::string estimatorName(GradientEstimator e) { ///< reparam, score, score-baseline
    switch (e) {
    case GradientEstimator::Reparam:
        return "reparam";
    case GradientEstimator::Score:
        return "score";
    case GradientEstimator::ScoreBaseline:
        return "score-baseline";
    }
    return "?";
}

inline std::optional<GradientEstimator> parseEstimator(const std::string& name) {
    for (const auto e :
         {GradientEstimator::Reparam, GradientEstimator::Score, GradientEstimator::ScoreBaseline})
        if (name == estimatorName(e))
            return e;
    return std::nullopt;
}

} // namespace fa
