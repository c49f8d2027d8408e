#include "core/neural/MlpLikelihood.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

MlpLikelihood::MlpLikelihood(Matrix X, Vector y, MlpShape shape, double beta)
    : m_X(std::move(X)), m_y(std::move(y)), m_shape(std::move(shape)), m_beta(beta),
      m_net(m_shape) {
    if (m_X.rows() != m_y.size() || m_X.rows() == 0)
        throw std::invalid_argument(
            "the inputs and targets must have the same, positive, row count");
    if (m_X.cols() != m_shape.inputs)
        throw std::invalid_argument("the network's input count does not match the data");
    if (m_shape.outputs != 1)
        throw std::invalid_argument("a regression network has one output");
    checkNoisePrecision(beta);
}

double MlpLikelihood::meanNegLogLik(const ConstVectorRef& theta,
                                    std::span<const Eigen::Index> batch,
                                    Eigen::Ref<Vector> grad) const {
    const auto m = static_cast<Eigen::Index>(batch.size());
    m_batch.resize(m_shape.inputs, m); // one column per example
    for (Eigen::Index k = 0; k < m; ++k)
        m_batch.col(k) = m_X.row(batch[static_cast<std::size_t>(k)]).transpose();
    const Matrix& f = m_net.forward(theta, m_batch);
    double sq = 0.0;
    m_delta.resize(1, m); // d(mean NLL) / d f
    for (Eigen::Index k = 0; k < m; ++k) {
        const double r = f(0, k) - m_y(batch[static_cast<std::size_t>(k)]);
        sq += r * r;
        m_delta(0, k) = m_beta * r / static_cast<double>(m);
    }
    m_net.backward(theta, m_delta, grad);
    return 0.5 * m_beta * sq / static_cast<double>(m) +
           0.5 * std::log(2.0 * std::numbers::pi / m_beta);
}

Vector MlpLikelihood::predict(const ConstVectorRef& theta, const ConstMatrixRef& X) const {
    Mlp net(m_shape);
    return net.forward(theta, X.transpose()).row(0).transpose();
}

} // namespace fa
