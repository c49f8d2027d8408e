#include "core/vi/ExactPosterior.h"

#include "core/lab/NameTable.h"
#include "core/math/SymmetricEigen.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

Hyperparameters thesisHyperparameters(const ConstMatrixRef& X, const ConstVectorRef& y) {
    const double var = (y.array() - y.mean()).square().mean();
    if (!(var > 0.0))
        throw std::invalid_argument("the target is constant: beta = 1/var(y) is undefined");
    Hyperparameters h;
    h.beta = 1.0 / var;
    h.alpha = 0.01 * h.beta * X.colwise().squaredNorm().mean();
    return h;
}

EvidenceResult evidenceHyperparameters(const ConstMatrixRef& X, const ConstVectorRef& y) {
    constexpr double a1 = 1e-6, a2 = 1e-6, l1 = 1e-6, l2 = 1e-6; // BayesianRidge defaults
    const double n = static_cast<double>(X.rows());
    // X^T X = V diag(s) V^T once; every iteration is then O(D^2).
    const SymmetricEigen eig = symmetricEigen(X.transpose() * X);
    const Vector s = eig.values.cwiseMax(0.0);
    const Matrix& V = eig.vectors;
    const Vector Vxy = V.transpose() * (X.transpose() * y);
    const double var = (y.array() - y.mean()).square().mean();
    EvidenceResult r;
    double beta = 1.0 / (var + 1e-300), alpha = 1.0;
    Vector mean = Vector::Zero(X.cols());
    for (r.iterations = 1; r.iterations <= 300; ++r.iterations) {
        // m = (alpha/beta I + X^T X)^-1 X^T y in the eigenbasis.
        const Vector coef = V * (Vxy.array() / (s.array() + alpha / beta)).matrix();
        const double gamma = (beta * s.array() / (alpha + beta * s.array())).sum();
        const double rss = (y - X * coef).squaredNorm();
        alpha = (gamma + 2.0 * l1) / (coef.squaredNorm() + 2.0 * l2);
        beta = (n - gamma + 2.0 * a1) / (rss + 2.0 * a2);
        const double change = (coef - mean).cwiseAbs().sum();
        mean = coef;
        if (r.iterations > 1 && change < 1e-3) {
            r.converged = true;
            break;
        }
    }
    r.hyper = {alpha, beta};
    return r;
}

GaussianPosterior exactPosterior(const ConstMatrixRef& X, const ConstVectorRef& y,
                                 const Hyperparameters& h) {
    if (!(h.alpha > 0.0) || !(h.beta > 0.0))
        throw std::invalid_argument(
            "the prior precision alpha and noise precision beta must be positive");
    Matrix A = h.beta * (X.transpose() * X);
    A.diagonal().array() += h.alpha;
    const Eigen::LLT<Matrix> llt(A);
    if (llt.info() != Eigen::Success)
        throw std::invalid_argument("the posterior precision is not positive definite");
    GaussianPosterior p;
    p.mean = llt.solve(h.beta * (X.transpose() * y));
    p.cov = llt.solve(Matrix::Identity(A.rows(), A.cols()));
    p.cov = 0.5 * (p.cov + p.cov.transpose()).eval();
    return p;
}

double logEvidence(const ConstMatrixRef& X, const ConstVectorRef& y, const Hyperparameters& h) {
    const GaussianPosterior p = exactPosterior(X, y, h);
    Matrix A = h.beta * (X.transpose() * X);
    A.diagonal().array() += h.alpha;
    const Eigen::LLT<Matrix> llt(A);
    const double logDetA = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    const auto n = static_cast<double>(X.rows()), d = static_cast<double>(X.cols());
    return 0.5 * n * std::log(h.beta) + 0.5 * d * std::log(h.alpha) -
           0.5 * h.beta * (y - X * p.mean).squaredNorm() - 0.5 * h.alpha * p.mean.squaredNorm() -
           0.5 * logDetA - 0.5 * n * kLog2Pi;
}

double gaussianElbo(const ConstMatrixRef& X, const ConstVectorRef& y, const Hyperparameters& h,
                    const ConstVectorRef& m, const ConstMatrixRef& S) {
    const Eigen::LLT<Matrix> llt(S);
    if (llt.info() != Eigen::Success)
        return -INFINITY;
    const double logDetS = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    const auto n = static_cast<double>(X.rows()), d = static_cast<double>(X.cols());
    const double twoPi = 2.0 * std::numbers::pi;
    const double trXSX = (X * S).cwiseProduct(X).sum(); // tr(X^T X S)
    return 0.5 * n * std::log(h.beta / twoPi) - 0.5 * h.beta * ((y - X * m).squaredNorm() + trXSX) +
           0.5 * d * std::log(h.alpha / twoPi) - 0.5 * h.alpha * (m.squaredNorm() + S.trace()) +
           0.5 * d * (1.0 + std::log(twoPi)) + 0.5 * logDetS;
}

namespace {
constexpr Named<HyperMode> kHyperNames[] = {{HyperMode::Thesis, "thesis"},
                                            {HyperMode::Evidence, "evidence"},
                                            {HyperMode::Manual, "manual"}};
} // namespace

std::string hyperModeName(HyperMode mode) {
    return nameIn(kHyperNames, mode);
}

std::optional<HyperMode> parseHyperMode(const std::string& name) {
    return valueIn(kHyperNames, name);
}

} // namespace fa
