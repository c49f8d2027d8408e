#include "core/math/SmallSpd.h"

#include <cmath>
#include <utility>

namespace fa {
namespace {

/// The inverse for n = N (N = 0: any n) by Gauss-Jordan elimination in place, without
/// pivoting: for a symmetric matrix every pivot is positive exactly when it is positive
/// definite (the pivots are ratios of leading principal minors), so a pivot that is not > 0
/// (or NaN) refuses it. Each step is a rank-one update of independent columns, so the n^3
/// multiply-adds vectorise; with N fixed the loops unroll. For K ~ 10 this is about three times
/// faster than inverting through the Cholesky factor, whose substitutions are latency-bound.
template <int N> bool invertN(const Matrix& A, Matrix& out) {
    const Eigen::Index n = N > 0 ? N : A.rows();
    out = A;
    double* a = out.data(); // column-major: a[j * n + i] = (i, j)
    for (Eigen::Index k = 0; k < n; ++k) {
        double* colK = a + k * n;
        const double pivot = colK[k];
        if (!(pivot > 0.0)) // also false for NaN
            return false;
        const double inv = 1.0 / pivot;
        for (Eigen::Index j = 0; j < n; ++j) {
            if (j == k)
                continue;
            double* colJ = a + j * n;
            const double r = colJ[k] * inv;
            for (Eigen::Index i = 0; i < n; ++i)
                colJ[i] -= colK[i] * r;
            colJ[k] = r;
        }
        for (Eigen::Index i = 0; i < n; ++i)
            colK[i] *= -inv;
        colK[k] = inv;
    }
    return true;
}

/// out = T^T Y T for n x n matrices as column axpys (N = 0: any n); tmp holds Y T and T^T.
template <int N> void congruenceN(const Matrix& T, const Matrix& Y, Matrix& out, Matrix& tmp) {
    const Eigen::Index n = N > 0 ? N : T.rows();
    tmp.resize(n, 2 * n);
    out.resize(n, n);
    const double *t = T.data(), *y = Y.data();
    double *w = tmp.data(), *tt = tmp.data() + n * n, *o = out.data();
    for (Eigen::Index j = 0; j < n; ++j) {
        double* wj = w + j * n; // (Y T)(:, j) = sum_k Y(:, k) T(k, j)
        for (Eigen::Index i = 0; i < n; ++i)
            wj[i] = y[i] * t[j * n];
        for (Eigen::Index k = 1; k < n; ++k)
            for (Eigen::Index i = 0; i < n; ++i)
                wj[i] += y[k * n + i] * t[j * n + k];
        for (Eigen::Index i = 0; i < n; ++i)
            tt[i * n + j] = t[j * n + i];
    }
    for (Eigen::Index j = 0; j < n; ++j) {
        double* oj = o + j * n; // (T^T Y T)(:, j) = sum_k T^T(:, k) (Y T)(k, j)
        for (Eigen::Index i = 0; i < n; ++i)
            oj[i] = tt[i] * w[j * n];
        for (Eigen::Index k = 1; k < n; ++k)
            for (Eigen::Index i = 0; i < n; ++i)
                oj[i] += tt[k * n + i] * w[j * n + k];
    }
}

constexpr int kFixedN = 16;
template <int... Ns>
void congruenceDispatch(const Matrix& T, const Matrix& Y, Matrix& out, Matrix& tmp,
                        std::integer_sequence<int, Ns...>) {
    static constexpr void (*fns[])(const Matrix&, const Matrix&, Matrix&,
                                   Matrix&) = {&congruenceN<Ns>...};
    const Eigen::Index n = T.rows();
    fns[n >= 1 && n <= kFixedN ? n : 0](T, Y, out, tmp);
}
template <int... Ns>
bool dispatch(const Matrix& A, Matrix& out, std::integer_sequence<int, Ns...>) {
    static constexpr bool (*fns[])(const Matrix&, Matrix&) = {&invertN<Ns>...};
    const Eigen::Index n = A.rows();
    return fns[n >= 1 && n <= kFixedN ? n : 0](A, out);
}
} // namespace

bool invertSpd(const Matrix& A, Matrix& out) {
    return dispatch(A, out, std::make_integer_sequence<int, kFixedN + 1>{});
}

void congruence(const Matrix& T, const Matrix& Y, Matrix& out, Matrix& tmp) {
    congruenceDispatch(T, Y, out, tmp, std::make_integer_sequence<int, kFixedN + 1>{});
}

} // namespace fa
