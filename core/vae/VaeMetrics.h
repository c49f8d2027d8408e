#pragma once
// What the nonlinear-FA lab measures of a decoder on a set of rows (docs/maths/nonlinear.md §5–§6):
// Monte Carlo ELBOs of given diagonal Gaussian q's, the importance-weighted log-likelihood
// (Burda et al. 2016) with its effective sample size, the per-point optimum q* (Adam on each
// row's mean and log-variance with the decoder held), and — for linear decoders, where every one
// of these has a closed form — the exact ELBO, log-likelihood, optimal diagonal q and
// approximation gap. Examples are columns (D x n, K x n).
#include "core/lab/ScoringPoll.h"
#include "core/math/Rng.h"
#include "core/models/Ppca.h"
#include "core/vae/NlfaModel.h"

namespace fa {

// The long loops below (a draw or an Adam step over every column each time) look at their
// ScoringPoll (core/lab/ScoringPoll.h) before each pass.

/// Per column: the mean of `samples` one-sample ELBO estimates.
Eigen::RowVectorXd elboEstimate(ElboPass& pass, const NlfaModel& model, const ConstMatrixRef& X,
                                const ConstMatrixRef& M, const ConstMatrixRef& logVar, int samples,
                                Rng& rng, const ScoringPoll& poll = {});

struct IwEstimate {
    Eigen::RowVectorXd logp; ///< log p̂_S(x) = logsumexp_s log w_s − log S, per column
    Eigen::RowVectorXd ess;  ///< (Σ w)² / Σ w², per column
};
/// The importance-weighted log-likelihood with proposal N(M, diag e^logVar), S = samples.
IwEstimate iwLoglik(ElboPass& pass, const NlfaModel& model, const ConstMatrixRef& X,
                    const ConstMatrixRef& M, const ConstMatrixRef& logVar, int samples, Rng& rng,
                    const ScoringPoll& poll = {});

/// q* for every column: `steps` Adam steps on (m, ℓ) from the given values (in place), one
/// reparameterised sample per step, the step size falling linearly from lr to lr / 10.
void optimiseQ(ElboPass& pass, const NlfaModel& model, const ConstMatrixRef& X, Matrix& M,
               Matrix& logVar, int steps, double lr, Rng& rng, const ScoringPoll& poll = {});

/// PPCA as a linear decoder: f(z) = W z + μ, noise σ²I.
NlfaModel decoderFromPpca(const PpcaModel& ppca);

// Linear decoders (model.linear()): f(z) = W z + b. Exact.
/// E_q[log N(x; W z + b, Ψ)] − KL(q ‖ N(0, I)) per column.
Eigen::RowVectorXd linearElbo(const NlfaModel& model, const ConstMatrixRef& X,
                              const ConstMatrixRef& M, const ConstMatrixRef& logVar);
/// log N(x; b, W Wᵀ + Ψ) per column, in O(D K²) (Λ = I + Wᵀ Ψ⁻¹ W).
Eigen::RowVectorXd linearLogLik(const NlfaModel& model, const ConstMatrixRef& X);
/// The best diagonal q: the exact posterior's mean Λ⁻¹ Wᵀ Ψ⁻¹ (x − b), variances 1 / Λ_kk.
void linearOptimalQ(const NlfaModel& model, const ConstMatrixRef& X, Matrix& M, Matrix& logVar);
/// log p(x) − ELBO(q*) = ½ [Σ_k log Λ_kk − log |Λ|], the same for every row.
double linearApproximationGap(const NlfaModel& model);

} // namespace fa
