#include "core/vi/SgdTrainer.h"

#include "core/optim/SgdEpoch.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fa {

SgdTrainer::SgdTrainer(const Matrix& X, const Vector& y, const SgdOptions& options)
    : SgdRun(X.rows(), options.seed), m_X(X), m_y(y), m_options(options) {
    if (X.rows() != y.size() || X.rows() == 0)
        throw std::invalid_argument(
            "SGD: the design matrix and targets must have the same, positive, row count");
    if (options.batch < 1)
        throw std::invalid_argument("SGD: the batch size must be at least 1");
    setLearningRate(options.learningRate);
    setLambda(options.lambda);
    m_theta.resize(X.cols());
    m_rng.fillNormal(m_theta);
    m_theta *= 0.1;
    m_grad.resize(X.cols());
}

void SgdTrainer::setLearningRate(double eta) {
    if (!(eta > 0.0) || !std::isfinite(eta))
        throw std::invalid_argument("SGD: the learning rate must be positive");
    m_options.learningRate = eta;
}

void SgdTrainer::setLambda(double lambda) {
    if (!(lambda >= 0.0) || !std::isfinite(lambda))
        throw std::invalid_argument("SGD: the L2 strength lambda must not be negative");
    m_options.lambda = lambda;
}

void SgdTrainer::runEpoch(const std::function<void(const Vector&)>& onIterate) {
    const auto n = static_cast<double>(rowCount());
    runSgdEpoch(
        m_options.batch,
        [&](std::span<const Eigen::Index> rows) -> const Vector& {
            const auto m = static_cast<double>(rows.size());
            m_grad = (2.0 * m_options.lambda / n) * m_theta;
            for (const Eigen::Index row : rows) {
                const double r = m_X.row(row).dot(m_theta) - m_y(row);
                m_grad.noalias() += (2.0 * r / m) * m_X.row(row).transpose();
            }
            m_theta -= m_options.learningRate * m_grad;
            return m_theta;
        },
        onIterate);
}

SwagEstimator::SwagEstimator(Eigen::Index dim, int rank)
    : m_rank(rank), m_mean(Vector::Zero(dim)), m_sq(Vector::Zero(dim)),
      m_dev(Matrix::Zero(dim, rank)) {
    if (rank < 1)
        throw std::invalid_argument("SWAG: the rank K must be at least 1");
}

void SwagEstimator::observe(const ConstVectorRef& theta) {
    ++m_count;
    const double w = 1.0 / static_cast<double>(m_count);
    m_mean += w * (theta - m_mean);
    m_sq += w * (theta.cwiseAbs2() - m_sq);
    m_dev.col((m_count - 1) % m_rank) = theta - m_mean;
}

Matrix SwagEstimator::loadings() const {
    return m_dev / std::sqrt(2.0 * std::max(m_rank - 1, 1));
}

Vector SwagEstimator::psi() const {
    return (0.5 * (m_sq - m_mean.cwiseAbs2())).cwiseMax(1e-12);
}

} // namespace fa
