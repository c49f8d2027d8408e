#pragma once
// Hyperparameters through the bound (docs/maths/posterior.md §4.6; the notes' "also fit model
// hyperparameters ... jointly"): for Bayesian linear regression, maximise the ELBO over a
// Gaussian q and (alpha, beta) together by coordinate ascent, each step exact: q given (alpha,
// beta) is the posterior (full covariance) or m = mu, sigma_i^2 = 1 / Lambda_ii (mean field);
// (alpha, beta) given q is alpha = D / E_q|w|^2, beta = N / E_q|y - X w|^2. The bound never
// passes the log evidence log p(y | alpha, beta); the gap is KL(q || posterior). Full covariance
// climbs to the evidence maximum (this is EM for the evidence); mean field stops KL_min below it,
// with biased alpha and beta.
#include "core/vi/ExactPosterior.h"
#include "core/vi/GaussianVi.h"

#include <vector>

namespace fa {

struct BoundStep {
    int iteration = 0;
    Hyperparameters hyper;    ///< after this iteration's update of alpha and beta
    double elbo = 0.0;        ///< of q (fitted to the previous alpha, beta) at these alpha, beta
    double logEvidence = 0.0; ///< log p(y | alpha, beta) at the same alpha, beta
};

/// Runs `iterations` coordinate-ascent sweeps from `start`; returns one step per sweep (plus
/// iteration 0, the start with q fitted to it). Throws std::invalid_argument for bad input.
std::vector<BoundStep> fitHyperByBound(const ConstMatrixRef& X, const ConstVectorRef& y,
                                       ViFamily family, Hyperparameters start, int iterations);

} // namespace fa
