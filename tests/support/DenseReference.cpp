#include "tests/support/DenseReference.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace fa::test {

double denseLogDensity(const Vector& x, const Vector& mean, const Matrix& S) {
    const Eigen::LLT<Matrix> llt(S);
    const Vector d = x - mean;
    const Matrix L = llt.matrixL();
    const double logDet = 2.0 * L.diagonal().array().log().sum();
    return -0.5 * (static_cast<double>(x.size()) * std::log(2.0 * std::numbers::pi) + logDet +
                   d.dot(llt.solve(d)));
}

double denseObservedLoglikSum(const Vector& mean, const Matrix& C, const Matrix& rows,
                              int* counted) {
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

double denseLogDensity(const Vector& x, const FAModel& m) {
    Matrix S = m.F * m.F.transpose();
    S += m.psi.asDiagonal();
    return denseLogDensity(x, m.c, S);
}

double w2ViaProductEigenvalues(const Vector& m1, const Matrix& S1, const Vector& m2,
                               const Matrix& S2) {
    const Eigen::EigenSolver<Matrix> es(S1 * S2, false);
    double cross = 0.0;
    for (Eigen::Index i = 0; i < es.eigenvalues().size(); ++i)
        cross += std::sqrt(std::max(es.eigenvalues()[i].real(), 0.0));
    return std::sqrt(
        std::max((m1 - m2).squaredNorm() + S1.trace() + S2.trace() - 2.0 * cross, 0.0));
}

void splitObserved(const Matrix& rows, Eigen::Index n, std::vector<Eigen::Index>& obs,
                   std::vector<Eigen::Index>& mis) {
    obs.clear(), mis.clear();
    for (Eigen::Index d = 0; d < rows.cols(); ++d)
        (std::isnan(rows(n, d)) ? mis : obs).push_back(d);
}

Matrix submatrix(const Matrix& C, const std::vector<Eigen::Index>& r,
                 const std::vector<Eigen::Index>& c) {
    Matrix out(static_cast<Eigen::Index>(r.size()), static_cast<Eigen::Index>(c.size()));
    for (std::size_t i = 0; i < r.size(); ++i)
        for (std::size_t j = 0; j < c.size(); ++j)
            out(Eigen::Index(i), Eigen::Index(j)) = C(r[i], c[j]);
    return out;
}

Matrix denseConditionalMean(const Vector& mean, const Matrix& C, const Matrix& rows) {
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

} // namespace fa::test
