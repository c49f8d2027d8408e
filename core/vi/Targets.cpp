#include "core/vi/Targets.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

double logSigmoid(double a) {
    return std::min(a, 0.0) - std::log1p(std::exp(-std::abs(a)));
}

LogisticLikelihood::LogisticLikelihood(Matrix X, Vector y) : m_X(std::move(X)), m_y(std::move(y)) {
    if (m_X.rows() != m_y.size() || m_X.rows() == 0)
        throw std::invalid_argument(
            "the design matrix and the labels must have the same, positive, row count");
    for (Eigen::Index n = 0; n < m_y.size(); ++n)
        if (m_y(n) != 0.0 && m_y(n) != 1.0)
            throw std::invalid_argument("logistic regression needs labels 0 or 1");
}

double LogisticLikelihood::meanNegLogLik(const ConstVectorRef& theta,
                                         std::span<const Eigen::Index> batch,
                                         Eigen::Ref<Vector> grad) const {
    grad.setZero();
    double total = 0.0;
    for (const Eigen::Index n : batch) {
        const double a = m_X.row(n).dot(theta), t = 2.0 * m_y(n) - 1.0;
        total -= logSigmoid(t * a);
        // d/dw of -log sigma(t a) = -(y - sigma(a)) x
        const double p = std::exp(logSigmoid(a));
        grad.noalias() -= (m_y(n) - p) * m_X.row(n).transpose();
    }
    const auto m = static_cast<double>(batch.size());
    grad /= m;
    return total / m;
}

BilinearLikelihood::BilinearLikelihood(Vector x, Vector y, double beta)
    : m_x(std::move(x)), m_y(std::move(y)), m_beta(beta) {
    if (m_x.size() != m_y.size() || m_x.size() == 0)
        throw std::invalid_argument("the inputs and targets must have the same, positive, count");
    checkNoisePrecision(beta);
}

double BilinearLikelihood::meanNegLogLik(const ConstVectorRef& theta,
                                         std::span<const Eigen::Index> batch,
                                         Eigen::Ref<Vector> grad) const {
    const double u = theta(0) * theta(1);
    double sq = 0.0, du = 0.0;
    for (const Eigen::Index n : batch) {
        const double r = u * m_x(n) - m_y(n);
        sq += r * r;
        du += r * m_x(n);
    }
    const auto m = static_cast<double>(batch.size());
    du *= m_beta / m;
    grad(0) = du * theta(1);
    grad(1) = du * theta(0);
    return 0.5 * m_beta * sq / m + 0.5 * std::log(2.0 * std::numbers::pi / m_beta);
}

std::unique_ptr<Likelihood> makeLikelihood(TargetKind kind, const Matrix& X, const Vector& y,
                                           double beta) {
    switch (kind) {
    case TargetKind::Logistic:
        return std::make_unique<LogisticLikelihood>(X, y);
    case TargetKind::Bilinear:
        if (X.cols() != 1)
            throw std::invalid_argument("the bilinear target takes one input column");
        return std::make_unique<BilinearLikelihood>(X.col(0), y, beta);
    case TargetKind::Linear:
        break;
    }
    return std::make_unique<LinearGaussianLikelihood>(X, y, beta);
}

double logPrior(const ConstVectorRef& w, PriorKind prior, double alpha) {
    const auto d = static_cast<double>(w.size());
    if (prior == PriorKind::Gaussian)
        return 0.5 * d * std::log(alpha / (2.0 * std::numbers::pi)) - 0.5 * alpha * w.squaredNorm();
    const double rate = laplaceRateForPrecision(alpha);
    return d * std::log(0.5 * rate) - rate * w.lpNorm<1>();
}

LogDensity2 logJoint2(TargetKind kind, const Matrix& X, const Vector& y, double beta,
                      PriorKind prior, double alpha) {
    const auto n = static_cast<double>(y.size());
    const double normal = 0.5 * n * std::log(beta / (2.0 * std::numbers::pi));
    const auto priorOf = [prior, alpha](const Eigen::Vector2d& w) {
        return logPrior(w, prior, alpha);
    };
    switch (kind) {
    case TargetKind::Linear: {
        if (X.cols() != 2)
            throw std::invalid_argument("the grid posterior needs exactly two parameters");
        // -beta/2 |y - X w|^2 = -beta/2 (y^T y - 2 w^T X^T y + w^T X^T X w)
        const Eigen::Matrix2d XtX = X.transpose() * X;
        const Eigen::Vector2d Xty = X.transpose() * y;
        const double yty = y.squaredNorm();
        return [=](const Eigen::Vector2d& w) {
            return normal - 0.5 * beta * (yty - 2.0 * w.dot(Xty) + w.dot(XtX * w)) + priorOf(w);
        };
    }
    case TargetKind::Bilinear: {
        if (X.cols() != 1)
            throw std::invalid_argument("the bilinear target takes one input column");
        const double xx = X.col(0).squaredNorm(), xy = X.col(0).dot(y), yy = y.squaredNorm();
        return [=](const Eigen::Vector2d& w) {
            const double u = w(0) * w(1);
            return normal - 0.5 * beta * (yy - 2.0 * u * xy + u * u * xx) + priorOf(w);
        };
    }
    case TargetKind::Logistic:
        if (X.cols() != 2)
            throw std::invalid_argument("the grid posterior needs exactly two parameters");
        return [X, y, priorOf](const Eigen::Vector2d& w) {
            double total = 0.0;
            for (Eigen::Index i = 0; i < y.size(); ++i)
                total += logSigmoid((2.0 * y(i) - 1.0) * X.row(i).dot(w));
            return total + priorOf(w);
        };
    }
    return {};
}

} // namespace fa
