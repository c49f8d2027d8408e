#pragma once
// What VIFA needs from a model: the gradient of the mini-batch negative log-likelihood with
// respect to the flat parameter vector theta. Linear-Gaussian regression is here; a small
// neural network implements the same interface.
#include "core/math/Types.h"

#include <span>

namespace fa {

class Likelihood {
  public:
    virtual ~Likelihood() = default;
    /// Length of theta.
    virtual Eigen::Index dim() const = 0;
    /// Number of training examples N.
    virtual Eigen::Index size() const = 0;
    /// grad = d/dtheta of -(1/M) sum_{n in batch} log p(y_n | x_n, theta); returns that value.
    /// batch holds row indices into the training set (M = batch.size()).
    virtual double meanNegLogLik(const ConstVectorRef& theta, std::span<const Eigen::Index> batch,
                                 Eigen::Ref<Vector> grad) const = 0;
};

/// The Gaussian likelihoods' (linear, bilinear, a network's) check of their noise precision:
/// throws std::invalid_argument unless beta > 0.
void checkNoisePrecision(double beta);

/// y = theta^T x + eps, eps ~ N(0, 1/beta).
class LinearGaussianLikelihood final : public Likelihood {
  public:
    LinearGaussianLikelihood(Matrix X, Vector y, double beta);
    Eigen::Index dim() const override { return m_X.cols(); }
    Eigen::Index size() const override { return m_X.rows(); }
    double meanNegLogLik(const ConstVectorRef& theta, std::span<const Eigen::Index> batch,
                         Eigen::Ref<Vector> grad) const override;
    /// E_{theta ~ N(c, S)} of -(1/M) sum log p over the batch, in closed form:
    /// beta/2 ((y - x^T c)^2 + x^T S x) + 1/2 log(2 pi / beta), averaged. For tests.
    double expectedMeanNegLogLik(const ConstVectorRef& c, const ConstMatrixRef& S,
                                 std::span<const Eigen::Index> batch) const;
    double beta() const { return m_beta; }
    const Matrix& X() const { return m_X; }
    const Vector& y() const { return m_y; }

  private:
    Matrix m_X;
    Vector m_y;
    double m_beta;
};

} // namespace fa
