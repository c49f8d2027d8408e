#pragma once
// The neural lab's network (core/models/Mlp.h) as a regression Likelihood: the vector VIFA puts
// its FA posterior on.
#include "core/models/Mlp.h"
#include "core/vi/Likelihood.h"

namespace fa {

/// The neural lab's regression network (one output) as a Likelihood.
class MlpLikelihood final : public Likelihood {
  public:
    /// X is N x inputs; beta the noise precision of y | x, theta ~ N(f(x; theta), 1/beta).
    MlpLikelihood(Matrix X, Vector y, MlpShape shape, double beta);
    Eigen::Index dim() const override { return m_shape.parameterCount(); }
    Eigen::Index size() const override { return m_X.rows(); }
    double meanNegLogLik(const ConstVectorRef& theta, std::span<const Eigen::Index> batch,
                         Eigen::Ref<Vector> grad) const override;

    /// f(x; theta) for every row of X.
    Vector predict(const ConstVectorRef& theta, const ConstMatrixRef& X) const;
    const MlpShape& shape() const { return m_shape; }
    double beta() const { return m_beta; }

    /// A starting point for the network's weights (Mlp::initialWeights).
    static Vector initialWeights(const MlpShape& shape, std::uint64_t seed) {
        return Mlp::initialWeights(shape, seed);
    }

  private:
    Matrix m_X;
    Vector m_y;
    MlpShape m_shape;
    double m_beta;
    // Work buffers, reused across calls (one likelihood per thread).
    mutable Mlp m_net;
    mutable Matrix m_batch, m_delta;
};

} // namespace fa
