#pragma once
// Shared by the nonlinear-FA suites: central differences, small models, PPCA rows and the
// closed-form PPCA as a linear decoder.
#include "core/math/Rng.h"
#include "core/models/Ppca.h"
#include "core/vae/NlfaModel.h"
#include "tests/support/TestModels.h"

#include <cmath>
#include <functional>

namespace fa::test {

/// Central differences of f at x (every entry).
inline Vector numericGradient(const std::function<double(const Vector&)>& f, Vector x,
                              double h = 1e-6) {
    Vector g(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double keep = x(i);
        x(i) = keep + h;
        const double up = f(x);
        x(i) = keep - h;
        const double down = f(x);
        x(i) = keep;
        g(i) = (up - down) / (2.0 * h);
    }
    return g;
}

inline double relErr(const Vector& a, const Vector& b) {
    return (a - b).norm() / b.norm();
}

inline Vector flat(const Matrix& m) {
    return Eigen::Map<const Vector>(m.data(), m.size());
}
inline Matrix shaped(const Vector& v, Eigen::Index rows) {
    return Eigen::Map<const Matrix>(v.data(), rows, v.size() / rows);
}

/// A small nonlinear model with random weights (D = 5, K = 2, one tanh layer of 6).
inline NlfaModel smallModel(NoiseKind noise, std::uint64_t seed) {
    Rng rng(seed);
    const Matrix rows = rng.normalMatrix(5, 40);
    NlfaModel m = initialNlfaModel(2, {6}, Activation::Tanh, noise, 0.3, rows, seed);
    for (Eigen::Index i = 0; i < m.gamma.size(); ++i)
        m.gamma(i) += 0.3 * rng.normal();
    return m;
}

/// PPCA rows (N x D) from the explorer's generator with Ψ made isotropic.
inline Matrix ppcaRows(int dim, int latent, int n, std::uint64_t seed) {
    FAModel truth = test::makeModel(dim, latent, seed);
    truth.psi.setConstant(truth.psi.mean());
    return test::drawRows(truth, n, seed + 1);
}

/// The closed-form PPCA as a linear decoder (σ²I).
inline NlfaModel decoderOf(const PpcaModel& p) {
    NlfaModel m;
    m.shape.inputs = static_cast<int>(p.W.cols());
    m.shape.hidden = {};
    m.shape.outputs = static_cast<int>(p.W.rows());
    m.theta.resize(p.W.size() + p.mu.size());
    m.theta << flat(p.W), p.mu;
    m.noise = NoiseKind::Isotropic;
    m.gamma = Vector::Constant(1, std::log(p.sigma2));
    m.gammaFloor = Vector::Constant(1, -50.0);
    return m;
}

} // namespace fa::test
