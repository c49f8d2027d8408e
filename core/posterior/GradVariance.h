#pragma once
// The estimator-variance study (docs/maths/posterior.md §4.5), shared by `faexplorer-cli
// grad-variance` and the window: at one fixed q, T independent gradient estimates of -ELBO
// (each from S fresh draws over the whole training set, so only the estimator's own noise
// counts), per block the norm of their mean and their total variance (the trace of their
// covariance, ddof 1). The variance scales as 1/S.
#include "core/posterior/PosteriorLab.h"

#include <functional>
#include <string>
#include <vector>

namespace fa {

struct GradVarianceConfig {
    PosteriorSetup setup;
    PosteriorRunOptions run; ///< the VI options (batch, steps, optimiser) of the fit that moves q
    PosteriorMethod method = PosteriorMethod::ViFull; ///< a variational method
    std::vector<GradientEstimator> estimators = {
        GradientEstimator::Reparam, GradientEstimator::Score, GradientEstimator::ScoreBaseline};
    std::vector<int> samples = {1, 10, 100};
    /// Where q is: Start (m = 0, L = I; VIFA c = 0, a random frame, psi = 1); Epoch (after
    /// `epoch` epochs of the reparameterised fit); Optimum (closed form for vi-full and
    /// vi-meanfield on linear regression: the posterior, or m = mu, sigma_i^2 = 1 / Lambda_ii;
    /// elsewhere after `epoch` epochs).
    enum class At { Optimum, Start, Epoch } at = At::Optimum;
    long epoch = 5000;
    int trials = 1000; ///< T estimates per (estimator, S)
    std::uint64_t seed = 0;
};

struct GradVarianceRow {
    std::string dataset, method, estimator;
    int samples = 0;
    std::string block; ///< mean or scale
    double meanNorm = 0.0, variance = 0.0, seconds = 0.0;
};

/// What a study's rows are named by and drawn from.
struct GradVarianceCells {
    std::string dataset, method;
    std::vector<GradientEstimator> estimators;
    std::vector<int> samples;
    int trials = 1000;
    std::uint64_t seed = 0;
};
/// One estimate from S draws, split into the study's blocks.
using BlockEstimate = std::function<std::vector<Vector>(GradientEstimator, int, Rng&)>;
/// For every (estimator e, sample count s) but the baseline at S = 1, `trials` estimates from
/// the cell's own stream GradVarianceCellBase + 64 e + s; per block the norm of their mean and
/// their total variance (ddof 1). Throws std::invalid_argument if no cell gives a row.
std::vector<GradVarianceRow> studyCells(const GradVarianceCells& cells,
                                        const std::vector<std::string>& blocks,
                                        const BlockEstimate& estimate);

/// The study on the families beyond the Gaussian (core/vi/ScalarFamilies.h,
/// docs/maths/posterior.md §4.7): `poisson-synthetic` with `vi-gamma` or `vi-exponential`,
/// `bernoulli-latent` with `vi-bernoulli` (score and score-baseline only).
struct ScalarGradVarianceConfig {
    std::string dataset = "poisson-synthetic", method = "vi-gamma";
    std::vector<GradientEstimator> estimators = {
        GradientEstimator::Reparam, GradientEstimator::Score, GradientEstimator::ScoreBaseline};
    std::vector<int> samples = {1, 10, 100};
    bool atOptimum = true; ///< else the start: shape 1 and rate 1, or logits 0
    int trials = 1000;
    std::uint64_t seed = 0;
};
/// The data sets the study takes.
bool isScalarFamilySet(const std::string& dataset);
/// Rows as runGradVariance's, one block per parameter group (log-shape, log-rate; logits).
/// Throws std::invalid_argument for a method the data set does not take, or reparam on
/// bernoulli-latent.
std::vector<GradVarianceRow> runScalarGradVariance(const ScalarGradVarianceConfig& config);

/// Throws std::invalid_argument for an SGD-fed method or S < 1. The
/// baseline at S = 1 (no other draw to leave out) gives no rows.
std::vector<GradVarianceRow> runGradVariance(const GradVarianceConfig& config);

} // namespace fa
