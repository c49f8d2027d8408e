#pragma once
// Distances between Gaussians from dense D x D covariances: the reference forms, for checks
// and for D up to about a thousand.
#include "core/math/Types.h"

namespace fa {

/// ||a - b||_2 / ||b||_2 (b is the reference).
double relativeMeanDistance(const ConstVectorRef& estimate, const ConstVectorRef& truth);
/// ||S_est - S_true||_F / ||S_true||_F.
double relativeCovarianceDistance(const ConstMatrixRef& estimate, const ConstMatrixRef& truth);

/// W2 between N(mean, cov) and other Gaussians, caching cov^1/2 of this reference:
/// W2^2 = ||mu1 - mu2||^2 + tr S1 + tr S2 - 2 tr (S1^1/2 S2 S1^1/2)^1/2.
class DenseW2 {
  public:
    DenseW2(const ConstVectorRef& mean, const ConstMatrixRef& cov);
    double distance(const ConstVectorRef& mean, const ConstMatrixRef& cov) const;

  private:
    Vector m_mean;
    Matrix m_sqrtCov;
    double m_trace;
};

double denseW2(const ConstVectorRef& mean1, const ConstMatrixRef& cov1, const ConstVectorRef& mean2,
               const ConstMatrixRef& cov2);

/// Symmetric PSD square root by eigendecomposition, negative eigenvalues clipped to 0.
Matrix symmetricSqrt(const ConstMatrixRef& S);

} // namespace fa
