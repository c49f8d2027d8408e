#include "core/metrics/DenseMetrics.h"

#include "core/math/SymmetricEigen.h"

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
    const SymmetricEigen eig = symmetricEigen(S);
    const Vector root = eig.values.cwiseMax(0.0).cwiseSqrt();
    return eig.vectors * root.asDiagonal() * eig.vectors.transpose();
}

DenseW2::DenseW2(const ConstVectorRef& mean, const ConstMatrixRef& cov)
    : m_mean(mean), m_sqrtCov(symmetricSqrt(cov)), m_trace(cov.trace()) {}

double DenseW2::distance(const ConstVectorRef& mean, const ConstMatrixRef& cov) const {
    const Matrix inner = m_sqrtCov * cov.selfadjointView<Eigen::Lower>() * m_sqrtCov;
    const SymmetricEigen eig = symmetricEigen(inner, false);
    const double crossTrace = eig.values.cwiseMax(0.0).cwiseSqrt().sum();
    const double w2sq = (mean - m_mean).squaredNorm() + m_trace + cov.trace() - 2.0 * crossTrace;
    return std::sqrt(std::max(w2sq, 0.0));
}

double denseW2(const ConstVectorRef& mean1, const ConstMatrixRef& cov1, const ConstVectorRef& mean2,
               const ConstMatrixRef& cov2) {
    return DenseW2(mean1, cov1).distance(mean2, cov2);
}

} // namespace fa
