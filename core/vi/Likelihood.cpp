#include "core/vi/Likelihood.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

void checkNoisePrecision(double beta) {
    if (!(beta > 0.0))
        throw std::invalid_argument("the noise precision beta must be positive");
}

LinearGaussianLikelihood::LinearGaussianLikelihood(Matrix X, Vector y, double beta)
    : m_X(std::move(X)), m_y(std::move(y)), m_beta(beta) {
    if (m_X.rows() != m_y.size() || m_X.rows() == 0)
        throw std::invalid_argument(
            "the design matrix and the targets must have the same, positive, row count");
    checkNoisePrecision(beta);
}

double LinearGaussianLikelihood::meanNegLogLik(const ConstVectorRef& theta,
                                               std::span<const Eigen::Index> batch,
                                               Eigen::Ref<Vector> grad) const {
    const auto m = static_cast<double>(batch.size());
    grad.setZero();
    double sq = 0.0;
    for (const Eigen::Index n : batch) {
        const double r = m_X.row(n).dot(theta) - m_y(n);
        sq += r * r;
        grad.noalias() += r * m_X.row(n).transpose();
    }
    grad *= m_beta / m;
    return 0.5 * m_beta * sq / m + 0.5 * std::log(2.0 * std::numbers::pi / m_beta);
}

double LinearGaussianLikelihood::expectedMeanNegLogLik(const ConstVectorRef& c,
                                                       const ConstMatrixRef& S,
                                                       std::span<const Eigen::Index> batch) const {
    double total = 0.0;
    for (const Eigen::Index n : batch) {
        const Vector x = m_X.row(n).transpose();
        const double r = m_y(n) - x.dot(c);
        total += 0.5 * m_beta * (r * r + x.dot(S * x));
    }
    return total / static_cast<double>(batch.size()) +
           0.5 * std::log(2.0 * std::numbers::pi / m_beta);
}

} // namespace fa
