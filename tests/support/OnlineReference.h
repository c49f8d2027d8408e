#pragma once
// Dense transcriptions of thesis Algorithms 1 (online SGA) and 2 (online EM): explicit D x D
// matrices and inverses, no code shared with the engine's streaming pass (core/fa/StreamPass.h).
// test_online holds the fitters to them; test_online_split the fitters with their pass split
// over threads (core/fa/PassThreads.h).
#include "core/math/Types.h"
#include "tests/support/TestModels.h"

#include <cmath>

namespace fa::test {

/// Feeds the same n samples of truth to every observer (fitters and dense references).
template <class... Observers>
void feed(const FAModel& truth, int n, std::uint64_t seed, Observers&... observers) {
    const Matrix X = test::drawSamples(truth, n, seed);
    for (int j = 0; j < n; ++j)
        (observers.observe(X.col(j)), ...);
}

/// Algorithm 2 written out with explicit inverses and dense diag(...) formulas (eq. 4.34).
struct ReferenceEM {
    Matrix F, A, B;
    Vector psi, mean, d2;
    long t = 0, warmup;
    double floor = 0.0;
    long clamps = 0;
    ReferenceEM(const Matrix& F0, long warm)
        : F(F0), A(Matrix::Zero(F0.rows(), F0.cols())), B(Matrix::Zero(F0.cols(), F0.cols())),
          psi(Vector::Ones(F0.rows())), mean(Vector::Zero(F0.rows())), d2(Vector::Zero(F0.rows())),
          warmup(warm) {}
    void observe(const Vector& x) {
        ++t;
        mean += (x - mean) / t;
        const Vector d = x - mean;
        const Matrix Psi = psi.asDiagonal();
        const Matrix C = F.transpose() * Psi.inverse();
        const Matrix Sigma = (Matrix::Identity(F.cols(), F.cols()) + C * F).inverse();
        const Vector m = Sigma * C * d;
        B += (m * m.transpose() - B) / t;
        A += (d * m.transpose() - A) / t;
        d2 += (d.cwiseProduct(d) - d2) / t;
        if (t <= warmup)
            return;
        const Matrix H = Sigma + B;
        F = A * H.inverse();
        const Matrix full =
            Matrix(d2.asDiagonal()) - 2.0 * F * A.transpose() + F * H * F.transpose();
        psi = full.diagonal();
        for (Eigen::Index i = 0; i < psi.size(); ++i)
            if (psi[i] < floor) {
                psi[i] = floor;
                ++clamps;
            }
    }
};

/// Algorithm 1 with the textbook gradient of log N(x; mean, S) for dense S:
/// dL/dS = 1/2 (S^-1 d d^T S^-1 - S^-1); dL/dF = 2 dL/dS F; dL/dpsi = diag(dL/dS).
struct ReferenceSGA {
    Matrix F;
    Vector beta, mean;
    double eta;
    long t = 0, warmup;
    double floor = 0.0;
    long clamps = 0;
    ReferenceSGA(const Matrix& F0, double lr, long warm)
        : F(F0), beta(Vector::Zero(F0.rows())), mean(Vector::Zero(F0.rows())), eta(lr),
          warmup(warm) {}
    void observe(const Vector& x) {
        ++t;
        mean += (x - mean) / t;
        if (t <= warmup)
            return;
        const Vector d = x - mean;
        const Vector psi = beta.array().exp();
        Matrix S = F * F.transpose();
        S += psi.asDiagonal();
        const Matrix Si = S.inverse();
        const Matrix G = 0.5 * (Si * d * d.transpose() * Si - Si);
        const Matrix gF = 2.0 * G * F;
        const Vector gBeta = G.diagonal().cwiseProduct(psi);
        F += eta * gF;
        beta += eta * gBeta;
        for (Eigen::Index i = 0; i < beta.size(); ++i)
            if (std::exp(beta[i]) < floor) {
                beta[i] = std::log(floor);
                ++clamps;
            }
    }
};

} // namespace fa::test
