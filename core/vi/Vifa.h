#pragma once
// VIFA (report Algorithm 1): variational inference with q(theta) = N(c, F F^T + Psi), for any
// Likelihood. Gaussian or Laplace prior; VIPPCA keeps Psi = sigma I fixed. The likelihood term
// is reparameterised (theta = F h + c + sqrt(psi) .* z) and averaged over L mini-batches; the
// entropy and prior terms are exact. Plain SGD (as in the report) or Adam (core/optim), with
// separate learning rates for c, F and gamma = log psi, and optional clipping of each averaged
// gradient's norm (the report's published code clips at 10).
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/lab/Estimators.h"
#include "core/math/Rng.h"
#include "core/optim/Adam.h"
#include "core/vi/Likelihood.h"
#include "core/vi/MiniBatchFit.h"
#include "core/vi/VifaTerms.h"

#include <string>
#include <vector>

namespace fa {

enum class PriorKind { Gaussian, Laplace };
std::string priorName(PriorKind prior);
/// The rate lambda = 1/b of the Laplace prior with the variance of a Gaussian prior of precision
/// alpha: 2 / lambda^2 = 1 / alpha, so lambda = sqrt(2 alpha). The report's §3.1 text says
/// "sqrt(2) x precision", but its own search range ([0.141, 4.472] for precisions [0.01, 10]) is
/// sqrt(2 alpha) (docs/maths/posterior.md §2.2).
double laplaceRateForPrecision(double alpha);

struct VifaOptions {
    int latent = 1;
    PriorKind prior = PriorKind::Gaussian;
    /// Precision of the Gaussian prior. The Laplace prior gets the same variance: its rate
    /// 1/b = sqrt(2 x precision) (laplaceRateForPrecision).
    double precision = 1.0;
    bool ppca = false;   ///< VIPPCA: Psi = sigma I, fixed
    double sigma = 0.01; ///< VIPPCA's variance sigma
    int batch = 100;     ///< M; a data set smaller than M is used whole
    int samples = 10;    ///< L: gradients averaged per update (one mini-batch each)
    OptimiserKind optimiser = OptimiserKind::Sgd;
    double lrC = 0.01, lrF = 1e-4, lrGamma = 0.01;
    double maxGradNorm = 10.0; ///< clip each averaged gradient (c, F, gamma) to this norm; 0 = off
    /// How the likelihood term's gradient is estimated; the score-function estimators use
    /// grad log q of q = N(c, F F^T + Psi) by the Woodbury identity, O(D K^2) per draw.
    GradientEstimator estimator = GradientEstimator::Reparam;
    std::uint64_t seed = 0;
};

/// Throws std::invalid_argument naming the first bad option.
void validate(const VifaOptions& options);

class Vifa : public MiniBatchFit {
  public:
    /// Initial state: c = 0, F a random orthonormal frame (as the online fitters), psi = 1
    /// (VIPPCA: sigma).
    Vifa(const Likelihood& likelihood, const VifaOptions& options);

    // runEpoch (MiniBatchFit): an update after every L mini-batches of M.
    FAModel model() const override { return {m_c, m_F, m_psi}; }
    const Vector& mean() const { return m_c; }
    const Matrix& loadings() const { return m_F; }
    const Vector& psi() const { return m_psi; }
    double priorRate() const; ///< alpha (Gaussian) or sqrt(2 alpha) (Laplace)

    void setLearningRates(double lrC, double lrF, double lrGamma);
    /// Puts q at the given state (VIPPCA keeps its psi = sigma); Adam's moments restart.
    void setState(const FAModel& model);
    const VifaOptions& options() const { return m_options; }

    /// Gradient of -ELBO at the current state from one given draw (h, z) and batch, exactly as
    /// an update uses it before averaging and clipping; for tests.
    VifaGradients singleSampleGradients(const ConstVectorRef& h, const ConstVectorRef& z,
                                        std::span<const Eigen::Index> batch) const;
    /// The exact part alone (entropy + prior), for tests.
    VifaGradients exactGradients() const;
    /// One estimate of the gradient of -ELBO at the current state from `samples` fresh draws,
    /// each with the batch given, by the given estimator, without clipping; the state does not
    /// move. For tests and the estimator-variance study.
    VifaGradients estimate(GradientEstimator estimator, int samples,
                           std::span<const Eigen::Index> batch, Rng& rng) const;
    void setEstimator(GradientEstimator estimator);

  private:
    /// The score-function part from draws (columns of H and Z) and f = N mnll at each.
    VifaGradients scoreGradients(const Matrix& H, const Matrix& Z, const Vector& f, int samples,
                                 bool baseline) const;
    Eigen::Index batchSize() const override { return m_options.batch; }
    void onBatch(std::span<const Eigen::Index> rows) override; // L draws' gradients, summed
    void update();
    void step(Eigen::Ref<Vector> param, const ConstVectorRef& grad, Eigen::Ref<Vector> m,
              Eigen::Ref<Vector> v, double lr) const;

    const Likelihood& m_lik;
    VifaOptions m_options;
    Vector m_c, m_gamma, m_psi;
    Matrix m_F;
    VifaGradients m_sum; // sum over the L sampled likelihood gradients
    Vector m_h, m_z, m_theta, m_g, m_sqrtPsiZ;
    Matrix m_drawH, m_drawZ; // the score-function estimators' draws of one update
    Vector m_drawF;
    // Adam moments, flattened per parameter group.
    Vector m_mc, m_vc, m_mF, m_vF, m_mg, m_vg;
    long m_pending = 0, m_adamSteps = 0;
};

} // namespace fa
