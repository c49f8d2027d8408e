#pragma once
// The mini-batch objectives the VAE and the linear VAE ascend, with their exact gradients, kept
// apart from the fitters so tests can check them against finite differences
// (docs/maths/nonlinear.md §4, §7), and the VAE's encoder gradient by the score function with and
// without a baseline, and the spread of its estimates (§9).
#include "core/lab/Estimators.h"
#include "core/math/Rng.h"
#include "core/vae/NlfaModel.h"

namespace fa {

/// Σ_n L_n of the VAE for the columns of X (b of them): q(z | x_n) = N(μ(x_n), diag e^{ℓ(x_n)})
/// from encoder(x; φ) = [μ; ℓ] (ℓ clamped), z = μ + e^{ℓ/2} ⊙ ε. eps holds S ≥ 1 draws per row,
/// K x (S b), draw s of row n in column s b + n; L_n is the mean over its S draws. With g, the
/// gradients to θ, γ (g->theta, g->gamma; pathwise) and φ (gPhi), summed over the rows; g->mean
/// and g->logVar then hold the per-row dL_n/dμ and dL_n/dℓ sent to the encoder. φ's gradient of
/// E_q[log p(x | z)] is estimated by `estimator` (§9: pathwise, the score function, or the score
/// function with the leave-one-out baseline, which needs S ≥ 2), the KL's is exact; where ℓ is
/// clamped its gradient is 0. Throws std::invalid_argument for eps of the wrong size.
double vaeBatchElbo(Mlp& encoder, ElboPass& pass, const NlfaModel& model, const ConstVectorRef& phi,
                    const ConstMatrixRef& X, const ConstMatrixRef& eps, ElboGradient* g,
                    Vector* gPhi, GradientEstimator estimator = GradientEstimator::Reparam);

/// The VAE's encoder network: its shape and weights φ.
struct NetworkEncoder {
    MlpShape shape;
    Vector phi;
};

/// How an estimator's draws spread at fixed parameters (§9.3).
struct GradientSpread {
    double meanNorm = 0.0; ///< ‖mean of the estimates‖
    double variance = 0.0; ///< the trace of their covariance (ddof 1)
};
/// At fixed θ and φ: `draws` (≥ 2) independent estimates of φ's gradient of the per-row mean ELBO
/// of the rows X (columns), each from `samples` draws per row by `estimator`.
GradientSpread encoderGradientSpread(const NlfaModel& model, const NetworkEncoder& encoder,
                                     const ConstMatrixRef& X, GradientEstimator estimator,
                                     int samples, int draws, Rng& rng);

/// The linear VAE's encoder q(z | x) = N(V x + a, diag e^ℓ), ℓ free of x.
struct LinearEncoder {
    Matrix V; ///< K x D
    Vector a, logVar;
};
struct LinearVaeGradient {
    Vector theta, gamma; ///< the decoder's [W, b] and γ
    Matrix V;
    Vector a, logVar;
};
/// Σ_n of the closed-form per-row ELBO of a linear decoder (model.linear()) under the linear
/// encoder, and (with g) its exact gradients; γ's gradient is zero for NoiseKind::Fixed.
double linearVaeBatchElbo(const NlfaModel& model, const LinearEncoder& encoder,
                          const ConstMatrixRef& X, LinearVaeGradient* g);

} // namespace fa
