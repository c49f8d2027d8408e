#pragma once
// Independent dense references for the tests: textbook formulas with explicit D x D matrices,
// deliberately not sharing code paths with the engine's structured forms.
#include "core/fa/FAModel.h"

#include <cmath>
#include <numbers>
#include <vector>

namespace fa::test {

/// log N(x; mean, S) from the dense covariance by Cholesky.
inline double denseLogDensity(const Vector& x, const Vector& mean, const Matrix& S) {
    const Eigen::LLT<Matrix> llt(S);
    const Vector d = x - mean;
    const Matrix L = llt.matrixL();
    const double logDet = 2.0 * L.diagonal().array().log().sum();
    return -0.5 * (static_cast<double>(x.size()) * std::log(2.0 * std::numbers::pi) + logDet +
                   d.dot(llt.solve(d)));
}

/// Σ over the rows of the dense log N(x_O; mean_O, C_OO), O each row's non-NaN entries; a row
/// with nothing observed is left out (counted, if given, receives the rows summed).
inline double denseObservedLoglikSum(const Vector& mean, const Matrix& C, const Matrix& rows,
                                     int* counted = nullptr) {
    double total = 0.0;
    int used = 0;
    for (Eigen::Index n = 0; n < rows.rows(); ++n) {
        std::vector<Eigen::Index> obs;
        for (Eigen::Index d = 0; d < rows.cols(); ++d)
            if (!std::isnan(rows(n, d)))
                obs.push_back(d);
        const auto k = static_cast<Eigen::Index>(obs.size());
        if (k == 0)
            continue;
        Matrix Co(k, k);
        Vector x(k), mu(k);
        for (Eigen::Index i = 0; i < k; ++i) {
            x(i) = rows(n, obs[std::size_t(i)]);
            mu(i) = mean(obs[std::size_t(i)]);
            for (Eigen::Index j = 0; j < k; ++j)
                Co(i, j) = C(obs[std::size_t(i)], obs[std::size_t(j)]);
        }
        total += denseLogDensity(x, mu, Co);
        ++used;
    }
    if (counted)
        *counted = used;
    return total;
}

inline double denseLogDensity(const Vector& x, const FAModel& m) {
    Matrix S = m.F * m.F.transpose();
    S += m.psi.asDiagonal();
    return denseLogDensity(x, m.c, S);
}

/// W2 via eigenvalues of S1 S2 computed by a general (non-symmetric) eigen-solver: a
/// different route from the engine's symmetric S1^1/2 S2 S1^1/2 form.
inline double w2ViaProductEigenvalues(const Vector& m1, const Matrix& S1, const Vector& m2,
                                      const Matrix& S2) {
    const Eigen::EigenSolver<Matrix> es(S1 * S2, false);
    double cross = 0.0;
    for (Eigen::Index i = 0; i < es.eigenvalues().size(); ++i)
        cross += std::sqrt(std::max(es.eigenvalues()[i].real(), 0.0));
    return std::sqrt(
        std::max((m1 - m2).squaredNorm() + S1.trace() + S2.trace() - 2.0 * cross, 0.0));
}

inline double relDiff(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

} // namespace fa::test
