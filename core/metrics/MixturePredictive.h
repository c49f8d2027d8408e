#pragma once
// Scores of a predictive distribution that is, at each test point, an equal-weight mixture of
// Gaussians (docs/maths/neural.md §5): one Gaussian for a MAP network, S draws of a Gaussian
// posterior over the weights, M x S for an ensemble of posteriors. NMLL by log-sum-exp, RMSE of
// the mixture mean, the share of targets inside the central 95 % interval and the probability
// integral transform (PIT) histogram, whose flatness says the predictive is calibrated.
#include "core/math/Types.h"

#include <array>

namespace fa {

/// One test point's mixture: component means and standard deviations (equal length J >= 1).
/// Its CDF at t, (1/J) sum_j Phi((t - mu_j) / s_j).
double mixtureCdf(const ConstVectorRef& mu, const ConstVectorRef& sd, double t);
/// The quantile of level alpha in (0, 1), by bisection on [min(mu - 12 s), max(mu + 12 s)] to a
/// width of 1e-12 max(1, |t|).
double mixtureQuantile(const ConstVectorRef& mu, const ConstVectorRef& sd, double alpha);

inline constexpr int kPitBins = 10;

/// Counts one target's PIT value u = F(y): inside the central 95 % interval (0.025 <= u <=
/// 0.975) and its bin of ten on [0, 1].
inline void countPit(double u, long& inside, std::array<int, kPitBins>& pit) {
    inside += u >= 0.025 && u <= 0.975;
    const int bin = static_cast<int>(u * kPitBins);
    ++pit[static_cast<std::size_t>(bin < 0 ? 0 : bin > kPitBins - 1 ? kPitBins - 1 : bin)];
}

struct MixtureScores {
    double nmll = 0.0;               ///< -(1/N) sum_i log p(y_i)
    double rmse = 0.0;               ///< of the mixture mean
    double coverage95 = 0.0;         ///< share of y_i with 0.025 <= F_i(y_i) <= 0.975
    std::array<int, kPitBins> pit{}; ///< counts of F_i(y_i) in ten equal bins of [0, 1]
    Vector mean, sd;                 ///< per test point: the mixture's mean and standard deviation
};

/// Row i of mu and sd is test point i's mixture (N x J each); y the N targets, in the same units.
/// Throws std::invalid_argument for mismatched sizes, no component, or a non-positive sd.
MixtureScores scoreMixture(const ConstMatrixRef& mu, const ConstMatrixRef& sd,
                           const ConstVectorRef& y);

} // namespace fa
