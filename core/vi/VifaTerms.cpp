#include "core/vi/VifaTerms.h"

#include <cmath>
#include <numbers>

namespace fa {

void VifaGradients::resize(Eigen::Index dim, Eigen::Index latent) {
    c.resize(dim);
    F.resize(dim, latent);
    gamma.resize(dim);
    setZero();
}

void VifaGradients::setZero() {
    c.setZero();
    F.setZero();
    gamma.setZero();
}

double normalCdf(double x) {
    return 0.5 * std::erfc(-x / std::numbers::sqrt2);
}

double normalPdf(double x) {
    return std::exp(-0.5 * x * x) / std::sqrt(2.0 * std::numbers::pi);
}

double negEntropy(const ConstMatrixRef& F, const ConstVectorRef& psi) {
    // log det(Psi + F F^T) = sum log psi + log det(I + F^T Psi^-1 F).
    const Matrix A = psi.cwiseInverse().asDiagonal() * F;
    Matrix inner = F.transpose() * A;
    inner.diagonal().array() += 1.0;
    const Eigen::LLT<Matrix> llt(inner);
    const double logDetInner = 2.0 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    return -0.5 * (psi.array().log().sum() + logDetInner);
}

void addNegEntropyGradients(const ConstMatrixRef& F, const ConstVectorRef& psi, VifaGradients& g) {
    const Matrix A = psi.cwiseInverse().asDiagonal() * F;
    const Matrix B = F.transpose() * A;
    Matrix IB = B;
    IB.diagonal().array() += 1.0;
    // C = A (I + B)^-1, via the symmetric solve (I + B) C^T = A^T.
    const Matrix C = IB.llt().solve(A.transpose()).transpose();
    g.F += -A + C * B;
    g.gamma.array() += -0.5 + 0.5 * (C.cwiseProduct(A)).rowwise().sum().array() * psi.array();
}

double gaussianPriorTerm(const ConstVectorRef& c, const ConstMatrixRef& F,
                         const ConstVectorRef& psi, double alpha) {
    return 0.5 * alpha * (c.squaredNorm() + F.squaredNorm() + psi.sum());
}

void addGaussianPriorGradients(const ConstVectorRef& c, const ConstMatrixRef& F,
                               const ConstVectorRef& psi, double alpha, VifaGradients& g) {
    g.c += alpha * c;
    g.F += alpha * F;
    g.gamma += 0.5 * alpha * psi;
}

double expectedAbs(double mu, double var) {
    const double s = std::sqrt(var);
    return mu * (2.0 * normalCdf(mu / s) - 1.0) + 2.0 * s * normalPdf(mu / s);
}

double laplacePriorTerm(const ConstVectorRef& c, const ConstMatrixRef& F, const ConstVectorRef& psi,
                        double rate) {
    const Vector zz = psi + F.rowwise().squaredNorm();
    double total = 0.0;
    for (Eigen::Index d = 0; d < c.size(); ++d)
        total += expectedAbs(c(d), zz(d));
    return rate * total;
}

void addLaplacePriorGradients(const ConstVectorRef& c, const ConstMatrixRef& F,
                              const ConstVectorRef& psi, double rate, VifaGradients& g) {
    for (Eigen::Index d = 0; d < c.size(); ++d) {
        const double zz = psi(d) + F.row(d).squaredNorm();
        const double s = std::sqrt(zz);
        const double ww = normalPdf(c(d) / s) / s;
        g.c(d) += rate * (2.0 * normalCdf(c(d) / s) - 1.0);
        g.F.row(d) += 2.0 * rate * ww * F.row(d);
        g.gamma(d) += rate * ww * psi(d);
    }
}

} // namespace fa
