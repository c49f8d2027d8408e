#pragma once
// The mini-batch objectives the VAE and the linear VAE ascend, with their exact gradients, kept
// apart from the fitters so tests can check them against finite differences
// (docs/maths/nonlinear.md §4, §7).
#include "core/vae/NlfaModel.h"

namespace fa {

/// Σ_n L_n of the VAE for the columns of X: q(z | x_n) = N(μ(x_n), diag e^{ℓ(x_n)}) from
/// encoder(x; φ) = [μ; ℓ] (ℓ clamped), z_n = μ + e^{ℓ/2} ⊙ ε_n. With g, the gradients to θ, γ
/// (g->theta, g->gamma) and φ (gPhi), summed over the columns; where ℓ is clamped its gradient is
/// 0.
double vaeBatchElbo(Mlp& encoder, ElboPass& pass, const NlfaModel& model, const ConstVectorRef& phi,
                    const ConstMatrixRef& X, const ConstMatrixRef& eps, ElboGradient* g,
                    Vector* gPhi);

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
