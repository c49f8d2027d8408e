#pragma once
// Independent dense references for the tests: textbook formulas with explicit D x D matrices,
// deliberately not sharing code paths with the engine's structured forms.
#include "core/fa/FAModel.h"

#include <algorithm>
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

/// The observed and missing (NaN) coordinates of row n.
inline void splitObserved(const Matrix& rows, Eigen::Index n, std::vector<Eigen::Index>& obs,
                          std::vector<Eigen::Index>& mis) {
    obs.clear(), mis.clear();
    for (Eigen::Index d = 0; d < rows.cols(); ++d)
        (std::isnan(rows(n, d)) ? mis : obs).push_back(d);
}

/// The entries of C in rows r and columns c.
inline Matrix submatrix(const Matrix& C, const std::vector<Eigen::Index>& r,
                        const std::vector<Eigen::Index>& c) {
    Matrix out(static_cast<Eigen::Index>(r.size()), static_cast<Eigen::Index>(c.size()));
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = 0; j < c.size(); ++j)
            out(Eigen::Index(i), Eigen::Index(j)) = C(r[i], c[j]);
    return out;
}

/// Every row with each missing (NaN) entry replaced by its dense conditional mean under
/// N(mean, C), μ_M + C_MO C_OO⁻¹ (x_O − μ_O); observed entries are copied.
inline Matrix denseConditionalMean(const Vector& mean, const Matrix& C, const Matrix& rows) {
    Matrix out = rows;
    std::vector<Eigen::Index> obs, mis;
    for (Eigen::Index n = 0; n < rows.rows(); ++n) {
        splitObserved(rows, n, obs, mis);
        if (mis.empty())
            continue;
        Vector xo(Eigen::Index(obs.size())), mo(Eigen::Index(obs.size()));
        for (std::size_t i = 0; i < obs.size(); ++i)
            xo(Eigen::Index(i)) = rows(n, obs[i]), mo(Eigen::Index(i)) = mean(obs[i]);
        Vector filled = Vector::Zero(Eigen::Index(mis.size()));
        if (!obs.empty())
            filled = submatrix(C, mis, obs) * submatrix(C, obs, obs).ldlt().solve(xo - mo);
        for (std::size_t i = 0; i < mis.size(); ++i)
            out(n, mis[i]) = mean(mis[i]) + filled(Eigen::Index(i));
    }
    return out;
}
inline double relDiff(double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1e-300);
}

} // namespace fa::test
