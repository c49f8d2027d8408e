#pragma once
// Mini-batch SGD on the L2-regularised squared loss of linear regression (thesis eq. 6.4),
// sum_n (y_n - theta^T x_n)^2 + lambda |theta|^2 with lambda = alpha / beta, whose minimiser is
// the posterior mean. Each mini-batch step uses the unbiased estimate of that loss divided by N:
// (2/M) sum_batch x (theta^T x - y) + (2 lambda / N) theta. Its iterates feed the online FA
// fitters and SWAG.
#include "core/fa/GaussianFit.h"
#include "core/math/Abandon.h"
#include "core/math/Rng.h"
#include "core/math/Types.h"
#include "core/optim/SgdEpoch.h"

#include <functional>
#include <vector>

namespace fa {

struct SgdOptions {
    double learningRate = 0.01;
    int batch = 32;
    double lambda = 0.0; ///< L2 strength alpha / beta
    std::uint64_t seed = 0;
};

class SgdTrainer : public SgdRun {
  public:
    /// theta starts at N(0, 0.01 I) drawn from seed (a different start per trial).
    SgdTrainer(const Matrix& X, const Vector& y, const SgdOptions& options);

    /// One shuffled pass in mini-batches of M (last partial batch dropped); onIterate sees theta
    /// after every step.
    void runEpoch(const std::function<void(const Vector&)>& onIterate);

    /// Live changes (the window's sliders); they act from the next step.
    void setLearningRate(double eta);
    void setLambda(double lambda);
    const SgdOptions& options() const { return m_options; }

  private:
    const Matrix& m_X;
    const Vector& m_y;
    SgdOptions m_options;
};

/// SWAG (Maddox et al. 2019) as an FA-shaped Gaussian: running mean, running diagonal second
/// moment and the last K deviations D_hat (theta_t - running mean). Its covariance
/// 1/2 diag(var) + 1/2 D_hat D_hat^T / max(K - 1, 1) is FA with psi = var / 2 and
/// F = D_hat / sqrt(2 max(K - 1, 1)). Collected at every iterate (not once per epoch), to
/// compare like with like with the online fitters.
class SwagEstimator final : public StreamFit {
  public:
    SwagEstimator(Eigen::Index dim, int rank);
    void observe(const ConstVectorRef& theta) override;
    long count() const { return m_count; }
    /// WarmUp until the first iterate, then Running (the SGD run that feeds it reports
    /// divergence).
    FitStatus status() const override {
        return m_count == 0 ? FitStatus::WarmUp : FitStatus::Running;
    }
    FAModel model() const override { return {mean(), loadings(), psi()}; }
    Vector mean() const { return m_mean; }
    /// Before K iterates the missing deviation columns are zero.
    Matrix loadings() const;
    Vector psi() const; ///< floored at 1e-12 so the Gaussian stays proper

  private:
    int m_rank;
    long m_count = 0;
    Vector m_mean, m_sq;
    Matrix m_dev; // ring buffer of the last K deviations
};

} // namespace fa
