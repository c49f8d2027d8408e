#pragma once
// Gaussian variational inference beside VIFA (docs/maths/posterior.md §4): q = N(m, L L^T) with L
// lower-triangular and a log-parameterised diagonal (the notes' "Trick #1"), or mean-field
// q = N(m, diag(e^{2s})). The same objective, mini-batches, optimiser and clipping as VIFA:
// -ELBO = E_q[-log p(D|w)] + E_q[-log p(w)] - H[q], the likelihood term sampled (L draws, one
// mini-batch each, scaled by N), the prior and entropy terms exact. The likelihood term's
// gradient is estimated by reparameterisation, by the score function (REINFORCE), or by the
// score function with a leave-one-out baseline; all three are unbiased.
#include "core/fa/GaussianFit.h"
#include "core/math/Rng.h"
#include "core/vi/Likelihood.h"
#include "core/vi/MiniBatchFit.h"
#include "core/vi/Vifa.h"

#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class ViFamily { Full, MeanField };

struct GaussianViOptions {
    ViFamily family = ViFamily::Full;
    GradientEstimator estimator = GradientEstimator::Reparam;
    PriorKind prior = PriorKind::Gaussian;
    double precision = 1.0; ///< alpha; the Laplace rate is laplaceRateForPrecision(alpha)
    int batch = 100;        ///< M; a data set smaller than M is used whole
    int samples = 10;       ///< L draws per update (one mini-batch each); >= 2 with a baseline
    OptimiserKind optimiser = OptimiserKind::Sgd;
    /// Step sizes as VIFA's: m takes lrC, the strictly lower part of L lrF (VIFA's loadings),
    /// the log diagonal (log L_ii or s) lrGamma.
    double lrC = 0.01, lrF = 1e-4, lrGamma = 0.01;
    double maxGradNorm = 10.0; ///< clip each group's averaged gradient; 0 = off
    std::uint64_t seed = 0;
};

/// Throws std::invalid_argument naming the first bad option.
void validate(const GaussianViOptions& options);

/// Gradients of -ELBO in the parameters' blocks: `mean` (m) and `scale` (mean-field: s;
/// full: the strictly lower L row by row, then log L_ii).
struct ViGradient {
    Vector mean, scale;
};

class GaussianVi : public MiniBatchFit {
  public:
    /// Starts at m = 0, L = I (sigma = 1), as VIFA starts at c = 0, psi = 1.
    GaussianVi(const Likelihood& likelihood, const GaussianViOptions& options);

    // runEpoch (MiniBatchFit): an update after every L mini-batches of M, exactly as VIFA.
    /// q as an FA model with the same covariance: mean-field (m, 0, sigma^2); full-covariance
    /// psi = lambda_min(L L^T) / 2 and F the Cholesky factor of L L^T - psi I, exact.
    FAModel model() const override;
    const Vector& mean() const { return m_m; }
    Matrix covariance() const; ///< L L^T or diag(sigma^2), dense (D is a regression's size)
    const Matrix& factor() const { return m_L; } ///< L; mean-field: diag(sigma)
    const GaussianViOptions& options() const { return m_options; }
    double priorRate() const; ///< alpha (Gaussian) or sqrt(2 alpha) (Laplace)

    /// Puts q at (m, L) (mean-field: the diagonal of L is sigma, the rest ignored); L's diagonal
    /// must be positive. Adam's moments restart.
    void setState(const Vector& m, const Matrix& L);
    void setEstimator(GradientEstimator estimator);
    void setLearningRates(double lrC, double lrF, double lrGamma);

    /// One estimate of the gradient of -ELBO at the current q from `samples` fresh draws, each
    /// with the batch given (the whole data set for the estimator-variance study), by the
    /// given estimator, without clipping; the state does not move. Draws from rng.
    ViGradient estimate(GradientEstimator estimator, int samples,
                        std::span<const Eigen::Index> batch, Rng& rng);
    /// The exact part alone (entropy + prior).
    ViGradient exactGradient() const;
    /// Number of entries of the scale block.
    Eigen::Index scaleSize() const;

  private:
    /// One update's draws: eps, the likelihood gradient at w = m + L eps and f = N mnll(w).
    struct Draws {
        Matrix eps, grad;
        Vector f;
        void resize(Eigen::Index dim, int samples);
    };
    void draw(Rng& rng, std::span<const Eigen::Index> batch, Draws& d, int s);
    Eigen::Index batchSize() const override { return m_options.batch; }
    void onBatch(std::span<const Eigen::Index> rows) override; // one draw; an update after L
    ViGradient combine(GradientEstimator estimator, const Draws& d, int samples) const;
    void update();
    void step(Eigen::Ref<Vector> param, const ConstVectorRef& grad, Eigen::Ref<Vector> m,
              Eigen::Ref<Vector> v, double lr) const;
    void scatterScale(const ConstVectorRef& scale);
    Vector gatherScale() const;

    const Likelihood& m_lik;
    GaussianViOptions m_options;
    Eigen::Index m_dim;
    Vector m_m;
    Matrix m_L; // full: lower triangular; mean-field: diagonal sigma
    Draws m_draws;
    Vector m_w, m_g;
    int m_pending = 0;
    Vector m_mm, m_vm, m_ms, m_vs; // Adam moments (m and the flat scale block)
    long m_adamSteps = 0;
};

} // namespace fa
