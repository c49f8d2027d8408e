#include "core/math/SmallSpd.h"

#include <cmath>

namespace fa {

bool invertSpd(const Matrix& A, Matrix& out, std::vector<double>& work) {
    const Eigen::Index n = A.rows();
    work.resize(static_cast<std::size_t>(2 * n * n));
    // Column-major n x n buffers; every inner loop below is an axpy over a contiguous column,
    // so its lanes are independent (dot-product forms are latency-bound at this size).
    Eigen::Map<Matrix> L(work.data(), n, n), X(work.data() + n * n, n, n);
    L = A;
    for (Eigen::Index j = 0; j < n; ++j) { // right-looking Cholesky, lower triangle
        const double diag = L(j, j);
        if (!(diag > 0.0)) // also false for NaN
            return false;
        const double root = std::sqrt(diag), inv = 1.0 / root;
        L(j, j) = root;
        double* colJ = &L(0, j);
        for (Eigen::Index i = j + 1; i < n; ++i)
            colJ[i] *= inv;
        for (Eigen::Index k = j + 1; k < n; ++k) {
            double* colK = &L(0, k);
            const double f = colJ[k];
            for (Eigen::Index i = k; i < n; ++i)
                colK[i] -= f * colJ[i];
        }
    }
    // Reciprocal diagonal once: the substitution below would otherwise chain n^2 / 2 divisions.
    for (Eigen::Index k = 0; k < n; ++k)
        L(k, k) = 1.0 / L(k, k); // L's diagonal now holds 1 / L_kk
    X.setIdentity();
    for (Eigen::Index c = 0; c < n; ++c) { // X = L^-1 by forward substitution, column c
        double* x = &X(0, c);
        for (Eigen::Index k = c; k < n; ++k) {
            x[k] *= L(k, k);
            const double xk = x[k];
            const double* colK = &L(0, k);
            for (Eigen::Index i = k + 1; i < n; ++i)
                x[i] -= xk * colK[i];
        }
    }
    // A^-1 = X^T X with X = L^-1 lower triangular: (A^-1)_ij = sum_{k >= max(i,j)} X_ki X_kj.
    out.resize(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
        for (Eigen::Index i = j; i < n; ++i) {
            const double* xi = &X(0, i);
            const double* xj = &X(0, j);
            double v = 0.0;
            for (Eigen::Index k = i; k < n; ++k)
                v += xi[k] * xj[k];
            out(i, j) = out(j, i) = v;
        }
    return true;
}

} // namespace fa
