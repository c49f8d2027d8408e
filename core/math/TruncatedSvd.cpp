#include "core/math/TruncatedSvd.h"

#include <algorithm>

namespace fa {
namespace {
Matrix orthonormalBasis(const Matrix& Y) {
    const Eigen::HouseholderQR<Matrix> qr(Y);
    return qr.householderQ() * Matrix::Identity(Y.rows(), Y.cols());
}
} // namespace

TruncatedSvd randomizedSvd(const ConstMatrixRef& X, int k, int powerIterations, int oversamples,
                           Rng& rng, const std::atomic<bool>* cancel) {
    const auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    const Eigen::Index size =
        std::min<Eigen::Index>({static_cast<Eigen::Index>(k) + oversamples, X.rows(), X.cols()});
    Matrix Q = X * rng.normalMatrix(X.cols(), size); // range finder on the column space
    for (int i = 0; i < powerIterations; ++i) {
        if (cancelled())
            return {};
        Q = orthonormalBasis(Q);
        Q = orthonormalBasis(X.transpose() * Q);
        if (cancelled())
            return {};
        Q = X * Q;
    }
    if (cancelled())
        return {};
    Q = orthonormalBasis(Q);
    // X ~ Q Q^T X; the SVD of the small size x size Gram of Q^T X gives U = Q U_b.
    const Matrix B = Q.transpose() * X;
    const Eigen::JacobiSVD<Matrix> svd(B * B.transpose(), Eigen::ComputeThinU);
    const Eigen::Index kk = std::min<Eigen::Index>(k, svd.singularValues().size());
    return {svd.singularValues().head(kk).cwiseSqrt(), Q * svd.matrixU().leftCols(kk)};
}

TruncatedSvd exactSvd(const ConstMatrixRef& X, int k) {
    const Eigen::BDCSVD<Matrix> svd(X, Eigen::ComputeThinU);
    const Eigen::Index kk = std::min<Eigen::Index>(k, svd.singularValues().size());
    return {svd.singularValues().head(kk), svd.matrixU().leftCols(kk)};
}

} // namespace fa
