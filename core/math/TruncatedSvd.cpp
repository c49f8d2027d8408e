#include "core/math/TruncatedSvd.h"

#include "core/math/SymmetricEigen.h"

#include <algorithm>
#include <cmath>

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

PrincipalAxes principalAxes(const ConstMatrixRef& X, int k) {
    const Eigen::Index n = X.rows(), d = X.cols();
    const Eigen::Index kk = std::min<Eigen::Index>({static_cast<Eigen::Index>(k), n, d});
    const bool tall = d <= n;
    const Eigen::Index g = tall ? d : n;
    Matrix gram = Matrix::Zero(g, g);
    if (tall)
        gram.selfadjointView<Eigen::Lower>().rankUpdate(X.transpose());
    else
        gram.selfadjointView<Eigen::Lower>().rankUpdate(X);
    const SymmetricEigen eig = symmetricEigen(gram); // reads the lower triangle; ascending
    PrincipalAxes out{Vector(kk), Matrix(d, kk)};
    for (Eigen::Index j = 0; j < kk; ++j) {
        const Eigen::Index from = g - 1 - j;
        const double s = std::sqrt(std::max(0.0, eig.values(from)));
        out.s(j) = s;
        if (tall)
            out.V.col(j) = eig.vectors.col(from);
        else if (s > 0.0)
            out.V.col(j) = X.transpose() * eig.vectors.col(from) / s;
        else
            out.V.col(j).setZero();
        Eigen::Index at = 0;
        out.V.col(j).cwiseAbs().maxCoeff(&at);
        if (out.V(at, j) < 0.0)
            out.V.col(j) = -out.V.col(j);
    }
    return out;
}

} // namespace fa
