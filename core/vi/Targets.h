#pragma once
// The posterior lab's targets beyond linear regression (docs/maths/posterior.md §5.1): logistic
// regression and the bimodal "bad case" y = w1 w2 x + noise, as Likelihoods every fitter can
// use, and every target's fully normalised 2-D log joint log p(y | w) + log p(w) for the grid
// (O(1) per cell by sufficient statistics for the linear and bilinear cases).
#include "core/vi/GridPosterior.h"
#include "core/vi/Likelihood.h"
#include "core/vi/Vifa.h"

#include <memory>

namespace fa {

enum class TargetKind { Linear, Logistic, Bilinear };

/// y_n in {0, 1}, p(y = 1 | x, w) = sigma(w^T x).
class LogisticLikelihood final : public Likelihood {
  public:
    LogisticLikelihood(Matrix X, Vector y); ///< throws unless every y is 0 or 1
    Eigen::Index dim() const override { return m_X.cols(); }
    Eigen::Index size() const override { return m_X.rows(); }
    double meanNegLogLik(const ConstVectorRef& theta, std::span<const Eigen::Index> batch,
                         Eigen::Ref<Vector> grad) const override;

  private:
    Matrix m_X;
    Vector m_y;
};

/// y_n = w1 w2 x_n + eps, eps ~ N(0, 1/beta): two parameters, X one column. Symmetric under
/// w -> -w, so its posterior has two modes.
class BilinearLikelihood final : public Likelihood {
  public:
    BilinearLikelihood(Vector x, Vector y, double beta);
    Eigen::Index dim() const override { return 2; }
    Eigen::Index size() const override { return m_x.size(); }
    double meanNegLogLik(const ConstVectorRef& theta, std::span<const Eigen::Index> batch,
                         Eigen::Ref<Vector> grad) const override;

  private:
    Vector m_x, m_y;
    double m_beta;
};

/// log sigma(a) without overflow: min(a, 0) - log1p(exp(-|a|)).
double logSigmoid(double a);

std::unique_ptr<Likelihood> makeLikelihood(TargetKind kind, const Matrix& X, const Vector& y,
                                           double beta);

/// log p(w), normalised: N(0, alpha^-1 I), or Laplace with rate laplaceRateForPrecision(alpha).
double logPrior(const ConstVectorRef& w, PriorKind prior, double alpha);

/// The 2-D log joint for the grid; throws std::invalid_argument unless the target has two
/// parameters.
LogDensity2 logJoint2(TargetKind kind, const Matrix& X, const Vector& y, double beta,
                      PriorKind prior, double alpha);

} // namespace fa
