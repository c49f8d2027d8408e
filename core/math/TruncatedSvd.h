#pragma once
// Top-k singular values and left singular vectors of a matrix whose columns are samples.
#include "core/math/Rng.h"
#include "core/math/Types.h"

#include <atomic>

namespace fa {

struct TruncatedSvd {
    Vector s; ///< k largest singular values, descending
    Matrix U; ///< rows x k, left singular vectors
};

/// Halko-Martinsson-Tropp randomized SVD as scikit-learn's randomized_svd runs it
/// (oversampling, power iterations; QR re-orthonormalisation where it uses LU, which spans the
/// same subspace more stably). cancel (optional) is polled between the passes over X (each a
/// product with a rows x (k + oversamples) block, a fraction of a second at D = 1000,
/// N = 1e5); once raised, the result is empty (no columns) and must not be used.
TruncatedSvd randomizedSvd(const ConstMatrixRef& X, int k, int powerIterations, int oversamples,
                           Rng& rng, const std::atomic<bool>* cancel = nullptr);

/// Exact truncated SVD by Eigen's divide-and-conquer SVD (scikit-learn's svd_method='lapack').
TruncatedSvd exactSvd(const ConstMatrixRef& X, int k);

/// The k largest singular values of X (rows are samples) and its right singular vectors: the
/// principal axes of the rows.
struct PrincipalAxes {
    Vector s; ///< min(k, rows, cols) largest singular values, descending
    Matrix V; ///< cols x s.size(), orthonormal columns; each column's largest entry positive
};

/// Through the eigen-decomposition of the smaller Gram matrix, XᵀX (cols x cols) when there are
/// at least as many rows as columns, else XXᵀ (v = Xᵀu / s): one product of N min(N, D)² / 2
/// multiply-adds and an eigen-solve of min(N, D)³, where a thin SVD of all of X costs several
/// times that (docs/maths/images.md §4). Singular values below √ε of the largest lose relative
/// accuracy (their squares are what is solved for); the fits use the leading ones.
PrincipalAxes principalAxes(const ConstMatrixRef& X, int k);

} // namespace fa
