#pragma once
// Gradients beyond the Gaussian (docs/maths/posterior.md §4.7): variational families the
// Gaussian reparameterisation does not cover, each on a target whose ELBO has a closed form, so
// an estimator's mean can be held to the exact gradient.
//  - A positive rate λ: counts y_i ~ Poisson(λ), prior λ ~ Gamma(a₀, b₀); q(λ) a gamma
//    (parameters log shape, log rate) or an exponential (log rate). The gamma's reparameterised
//    estimator is implicit reparameterisation (Figurnov et al. 2018): exact draws, and
//    dλ/dα = −(∂F/∂α) / q(λ) from the gamma CDF F.
//  - A discrete latent: rows x_n of a two-component Gaussian mixture, z_n ∈ {0, 1} the
//    component, q(z_n = 1) = σ(φ_n). A draw of z is not a differentiable function of φ and
//    noise, so only the score function (with or without a baseline) applies.
// Every estimator estimates the gradient of E_q[log p(data, latent)]; the entropy's gradient is
// exact, as in the Gaussian fits (core/lab/Estimators.h).
#include "core/lab/Estimators.h"
#include "core/math/Rng.h"
#include "core/math/Types.h"

#include <vector>

namespace fa {

/// ψ(x), the digamma function, for x > 0.
double digamma(double x);
/// P(a, x) = γ(a, x) / Γ(a), the gamma CDF of shape a at x (rate 1), for a > 0, x >= 0.
double gammaCdf(double a, double x);

struct PoissonGammaTarget {
    std::vector<int> counts;
    double priorShape = 1.0, priorRate = 0.1; ///< a₀, b₀
    /// `n` counts drawn from Poisson(rate).
    static PoissonGammaTarget synthetic(std::uint64_t seed, int n = 30, double rate = 4.0);
    double posteriorShape() const; ///< A = a₀ + Σ y
    double posteriorRate() const;  ///< B = b₀ + n
    double logJoint(double lambda) const;
};

enum class PositiveFamily { Gamma, Exponential };

/// q(λ) = Gamma(shape, rate); the exponential is shape 1 (not a parameter).
struct PositiveQ {
    PositiveFamily family = PositiveFamily::Gamma;
    double logShape = 0.0, logRate = 0.0;
    Eigen::Index size() const { return family == PositiveFamily::Gamma ? 2 : 1; }
};

/// The ELBO in closed form.
double positiveElbo(const PoissonGammaTarget& target, const PositiveQ& q);
/// The ELBO's maximiser in the family: the exact posterior for the gamma, rate B / A for the
/// exponential.
PositiveQ positiveOptimum(const PoissonGammaTarget& target, PositiveFamily family);
/// One estimate from S draws of the ELBO's gradient in (log shape, log rate) (the exponential:
/// log rate alone). ScoreBaseline needs S >= 2.
Vector positiveGradient(const PoissonGammaTarget& target, const PositiveQ& q,
                        GradientEstimator estimator, int samples, Rng& rng);

struct MixtureLatentTarget {
    Vector x;
    double weight = 0.5; ///< p(z = 1)
    double mean0 = -1.0, mean1 = 1.5, sd = 1.0;
    static MixtureLatentTarget synthetic(std::uint64_t seed, int n = 20);
    double logJoint(Eigen::Index n, int z) const; ///< log p(x_n, z_n = z)
};

/// The ELBO in closed form at logits φ (q(z_n = 1) = σ(φ_n)).
double bernoulliElbo(const MixtureLatentTarget& target, const Vector& logits);
/// The exact posterior's logits, log p(x_n, 1) − log p(x_n, 0): the ELBO's maximiser.
Vector bernoulliOptimum(const MixtureLatentTarget& target);
/// One estimate from S draws of the ELBO's gradient in φ: Score or ScoreBaseline (S >= 2);
/// Reparam throws std::invalid_argument (no reparameterisation of a discrete z).
Vector bernoulliGradient(const MixtureLatentTarget& target, const Vector& logits,
                         GradientEstimator estimator, int samples, Rng& rng);

} // namespace fa
