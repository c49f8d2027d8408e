#pragma once
// The exact posterior of Bayesian linear regression (docs/maths/posterior.md §1):
// prior N(0, alpha^-1 I), noise precision beta, A = alpha I + beta X^T X, b = beta X^T y,
// posterior N(A^-1 b, A^-1). Three ways to choose alpha and beta.
#include "core/math/Types.h"

#include <optional>
#include <string>

namespace fa {

struct Hyperparameters {
    double alpha = 1.0; ///< prior precision
    double beta = 1.0;  ///< noise precision
};

/// Thesis §6: beta = 1 / var(y) (population variance), alpha = 0.01 mean(diag(beta X^T X)).
Hyperparameters thesisHyperparameters(const ConstMatrixRef& X, const ConstVectorRef& y);

/// Type-II maximum likelihood by MacKay's fixed point, as scikit-learn's BayesianRidge does
/// (its lambda_ is our alpha, its alpha_ our beta), with the same Gamma(1e-6, 1e-6) hyperpriors,
/// start (beta = 1 / var y, alpha = 1) and stopping rule (change of the mean below 1e-3 in sum
/// of absolute values, at most 300 iterations). Unlike BayesianRidge, no intercept is fitted
/// apart: a bias column, if wanted, is part of X and gets the same prior.
struct EvidenceResult {
    Hyperparameters hyper;
    int iterations = 0;
    bool converged = false;
};
EvidenceResult evidenceHyperparameters(const ConstMatrixRef& X, const ConstVectorRef& y);

struct GaussianPosterior {
    Vector mean;
    Matrix cov;
};

/// Cholesky of A; throws std::invalid_argument for alpha <= 0 or beta <= 0.
GaussianPosterior exactPosterior(const ConstMatrixRef& X, const ConstVectorRef& y,
                                 const Hyperparameters& h);

/// log p(y | alpha, beta) of Bayesian linear regression (Bishop 2006 eq. 3.86):
/// N/2 log beta + D/2 log alpha - beta/2 |y - X mu|^2 - alpha/2 |mu|^2 - 1/2 log|A| - N/2 log 2 pi.
double logEvidence(const ConstMatrixRef& X, const ConstVectorRef& y, const Hyperparameters& h);

/// The ELBO of q = N(m, S) for the same model, in closed form (docs/maths/posterior.md §4.6):
/// N/2 log(beta / 2 pi) - beta/2 (|y - X m|^2 + tr(X^T X S)) + D/2 log(alpha / 2 pi)
/// - alpha/2 (|m|^2 + tr S) + D/2 (1 + log 2 pi) + 1/2 log|S|. Never above logEvidence: the gap
/// is KL(q || posterior).
double gaussianElbo(const ConstMatrixRef& X, const ConstVectorRef& y, const Hyperparameters& h,
                    const ConstVectorRef& m, const ConstMatrixRef& S);

enum class HyperMode { Thesis, Evidence, Manual };
std::string hyperModeName(HyperMode mode); ///< thesis, evidence, manual
std::optional<HyperMode> parseHyperMode(const std::string& name);

} // namespace fa
