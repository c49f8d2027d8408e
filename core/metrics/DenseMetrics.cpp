#include "core/metrics/DenseMetrics.h"

#include <algorithm>
#include <cmath>

namespace fa {

double relativeMeanDistance(const ConstVectorRef& estimate, const ConstVectorRef& truth) {
    return (estimate - truth).norm() / truth.norm();
}

double relativeCovarianceDistance(const ConstMatrixRef& estimate, const ConstMatrixRef& truth) {
    return (estimate - truth).norm() / truth.norm();
}

Matrix symmetricSqrt(const ConstMatrixRef& S) {
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(S);
    const Vector root = eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
    return eig.eigenvectors() * root.asDiagonal() * eig.eigenvectors().transpose();
}

DenseW2::DenseW2(const ConstVectorRef& mean, const ConstMatrixRef& cov)
    : m_mean(mean), m_sqrtCov(symmetricSqrt(cov)), m_trace(cov.trace()) {}

double DenseW2::distance(const ConstVectorRef& mean, const ConstMatrixRef& cov) const {
    const Matrix inner = m_sqrtCov * cov.selfadjointView<Eigen::Lower>() * m_sqrtCov;
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(inner, Eigen::EigenvaluesOnly);
    const double crossTrace = eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
    const double w2sq = (mean - m_mean).squaredNorm() + m_trace + cov.trace() - 2.0 * crossTrace;
    return std::sqrt(std::max(w2sq, 0.0));
}

double denseW2(const ConstVectorRef& mean1, const ConstMatrixRef& cov1, const ConstVectorRef& mean2,
               const ConstMatrixRef& cov2) {
    return DenseW2(mean1, cov1).distance(mean2, cov2);
}

} // namespace fa
