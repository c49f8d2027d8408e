#pragma once
// Independent dense references for the tests: textbook formulas with explicit D x D matrices,
// deliberately not sharing code paths with the engine's structured forms. The bodies are in
// DenseReference.cpp, compiled once into fa_test_support: Eigen's general eigen-solver alone
// costs about ten seconds of compiler time in each file that instantiates it.
#include "core/fa/FAModel.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace fa::test {

/// log N(x; mean, S) from the dense covariance by Cholesky.
double denseLogDensity(const Vector& x, const Vector& mean, const Matrix& S);

/// Σ over the rows of the dense log N(x_O; mean_O, C_OO), O each row's non-NaN entries; a row
/// with nothing observed is left out (counted, if given, receives the rows summed).
double denseObservedLoglikSum(const Vector& mean, const Matrix& C, const Matrix& rows,
                              int* counted = nullptr);

double denseLogDensity(const Vector& x, const FAModel& m);

/// W2 via eigenvalues of S1 S2 computed by a general (non-symmetric) eigen-solver: a
/// different route from the engine's symmetric S1^1/2 S2 S1^1/2 form.
double w2ViaProductEigenvalues(const Vector& m1, const Matrix& S1, const Vector& m2,
                               const Matrix& S2);

/// The observed and missing (NaN) coordinates of row n.
void splitObserved(const Matrix& rows, Eigen::Index n, std::vector<Eigen::Index>& obs,
                   std::vector<Eigen::Index>& mis);

/// The entries of C in rows r and columns c.
Matrix submatrix(const Matrix& C, const std::vector<Eigen::Index>& r,
                 const std::vector<Eigen::Index>& c);

/// Every row with each missing (NaN) entry replaced by its dense conditional mean under
/// N(mean, C), μ_M + C_MO C_OO⁻¹ (x_O − μ_O); observed entries are copied.
Matrix denseConditionalMean(const Vector& mean, const Matrix& C, const Matrix& rows);

/// |a − b| / |b|.
inline double relDiff(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

} // namespace fa::test
