#pragma once
// A small multilayer perceptron for regression (ReLU hidden layers, one linear output) whose
// parameters are one flat vector theta, the vector VIFA puts its FA posterior on. As a
// Likelihood it gives the mini-batch Gaussian negative log-likelihood and its exact gradient by
// backpropagation. Sizes here are small (hundreds to a few thousand parameters), so plain Eigen
// is enough; no autodiff library is needed.
#include "core/vi/Likelihood.h"

#include <vector>

namespace fa {

/// Layer sizes: inputs, the hidden widths, then 1 output.
struct MlpShape {
    int inputs = 1;
    std::vector<int> hidden{50};
    /// theta = [W_1 (h_1 x inputs, column-major), b_1, W_2, b_2, ..., W_out (1 x h_L), b_out].
    Eigen::Index parameterCount() const;
    std::string name() const; ///< "50" or "50,50"
};

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

    /// A starting point for the network's weights: N(0, 1/fan_in) weights, zero biases (He-style
    /// scale for ReLU), drawn from seed.
    static Vector initialWeights(const MlpShape& shape, std::uint64_t seed);

  private:
    Matrix m_X;
    Vector m_y;
    MlpShape m_shape;
    double m_beta;
    // Work buffers, reused across calls (one likelihood per thread).
    mutable std::vector<Matrix> m_z, m_a;
    mutable Matrix m_in, m_delta, m_next, m_upstream, m_swap;
    mutable Eigen::RowVectorXd m_f;
};

} // namespace fa
