#pragma once
// The Monte Carlo predictive of a posterior over a network's weights (docs/maths/neural.md §2 and
// §8.5): one Gaussian (VIFA, VIPPCA, SWAG, SWA-FA) or an equal-weight mixture of M of them (an
// ensemble, MultiSWAG, multi-SWA-FA), each member a Gaussian or a point mass (a MAP network).
#include "core/fa/FAModel.h"
#include "core/lab/ScoringPoll.h"
#include "core/metrics/MixturePredictive.h"
#include "core/neural/MlpLikelihood.h"

#include <array>
#include <limits>
#include <span>

namespace fa {

struct Predictive {
    double nmll = 0.0, rmse = 0.0; ///< on the original target scale
    Vector mean, sd; ///< predictive mean and standard deviation per point, original scale
    /// Share of targets inside the central 95 % predictive interval, and the PIT histogram
    /// (docs/maths/neural.md §5).
    double coverage95 = std::numeric_limits<double>::quiet_NaN();
    std::array<int, kPitBins> pit{};
};

/// A point mass at theta as an FAModel: no loadings (D x 0) and psi = 0. It is not a proper
/// Gaussian (FAModel::validate refuses it, logDensity is not defined), but it samples (every
/// draw is theta) and the predictive takes it as one network.
FAModel pointMass(const Vector& theta);
/// True when every psi is 0 and the loadings are absent or zero.
bool isPointMass(const FAModel& q);

/// Monte Carlo predictive of q over the weights: S draws theta_s, each giving
/// N(y; f(x; theta_s) yScale + yMean, yScale^2 / beta); NMLL = -mean_n log (1/S sum_s ...),
/// by log-sum-exp; RMSE of the sample-averaged mean. yOriginal on the original scale. The poll is
/// looked at before each draw: once its cancel is raised the result is NaN (mean and sd empty),
/// for the caller to drop. The one-member case of the mixture below.
Predictive predictive(const MlpLikelihood& net, const FAModel& q, const ConstMatrixRef& X,
                      const ConstVectorRef& yOriginal, double yMean, double yScale, int samples,
                      std::uint64_t seed, const ScoringPoll& poll = {});

/// The predictive of the equal-weight mixture of the M members of `posterior`: S draws in all,
/// split evenly, ceil(S / M) from each member in turn from one random stream (so S when M divides
/// it); a point-mass member is one forward pass, repeated (it uses no random numbers). The
/// scores are those of the equal-weight mixture of the M ceil(S / M) Gaussians. M = 1 gives the
/// one-Gaussian predictive above exactly. Throws std::invalid_argument for no member or S < 1.
Predictive predictive(const MlpLikelihood& net, std::span<const FAModel> posterior,
                      const ConstMatrixRef& X, const ConstVectorRef& yOriginal, double yMean,
                      double yScale, int samples, std::uint64_t seed, const ScoringPoll& poll = {});

} // namespace fa
