// Gaussian-process regression: the predictive, the log marginal likelihood and its gradient,
// and type-II maximum likelihood (docs/maths/gp.md §3 to §5). The kernels are in GpKernels.cpp.
#include "core/posterior/GaussianProcess.h"

#include "core/math/Rng.h"
#include "core/optim/Lbfgs.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {

/// The Cholesky factor of K + sigma_n^2 I; false when it does not exist.
bool factor(const GpHyper& h, const ConstMatrixRef& X, Eigen::LLT<Matrix>& chol) {
    Matrix Ky = gpKernelMatrix(h, X, X);
    Ky.diagonal().array() += gpNoiseVariance(h);
    if (!Ky.allFinite())
        return false;
    chol.compute(Ky);
    return chol.info() == Eigen::Success && (chol.matrixLLT().diagonal().array() > 0.0).all();
}

/// §4.1: -1/2 y' a - sum_i log L_ii - n/2 log 2 pi.
double logMarginalOf(const Eigen::LLT<Matrix>& chol, const ConstVectorRef& y, const Vector& a) {
    const double n = static_cast<double>(y.size());
    return -0.5 * y.dot(a) - chol.matrixLLT().diagonal().array().log().sum() - 0.5 * n * kLog2Pi;
}

} // namespace

GpEvidence gpLogMarginal(const GpHyper& h, const ConstMatrixRef& X, const ConstVectorRef& y,
                         bool withGradient) {
    checkGpHyper(h, X.cols());
    GpEvidence e;
    e.value = -std::numeric_limits<double>::infinity();
    Eigen::LLT<Matrix> chol;
    if (!factor(h, X, chol))
        return e;
    const Vector a = chol.solve(y);
    e.value = logMarginalOf(chol, y, a);
    e.ok = std::isfinite(e.value);
    if (!withGradient || !e.ok)
        return e;
    // §4.2: d log p / d t = 1/2 tr((a a' - Ky^-1) dKy/dt)
    Matrix W = -chol.solve(Matrix::Identity(y.size(), y.size()));
    W.noalias() += a * a.transpose();
    e.gradient.resize(h.logParams.size());
    e.gradient.head(h.logParams.size() - 1) = gpKernelGradient(h, X, W);
    const double noise = gpNoiseVariance(h);
    const double dNoise = h.kernel == GpKernel::Linear ? -noise : 2.0 * noise;
    e.gradient(h.logParams.size() - 1) = 0.5 * W.trace() * dNoise;
    return e;
}

GpRegression::GpRegression(const Matrix& X, const Vector& y, const GpHyper& h)
    : m_X(X), m_hyper(h) {
    checkGpHyper(h, X.cols());
    if (X.rows() != y.size() || X.rows() < 1)
        throw std::invalid_argument("a Gaussian process needs as many targets as input rows");
    m_logMarginal = -std::numeric_limits<double>::infinity();
    m_ok = factor(h, m_X, m_chol);
    if (!m_ok)
        return;
    m_alpha = m_chol.solve(y);
    m_logMarginal = logMarginalOf(m_chol, y, m_alpha);
    m_ok = std::isfinite(m_logMarginal);
}

GpPrediction GpRegression::predict(const ConstMatrixRef& Xs) const {
    if (!m_ok)
        throw std::logic_error("GpRegression::predict without a Cholesky factor");
    const Matrix Ks = gpKernelMatrix(m_hyper, m_X, Xs); // n x m: k_* per column
    GpPrediction p;
    p.mean = Ks.transpose() * m_alpha; // §3: m_* = k_*' a
    const Matrix V = m_chol.matrixL().solve(Ks);
    // var f_* = k(x_*, x_*) - v'v, v = L^-1 k_* (never below zero in floating point)
    p.varF = (gpKernelDiagonal(m_hyper, Xs) - V.colwise().squaredNorm().transpose()).cwiseMax(0.0);
    p.varY = p.varF.array() + gpNoiseVariance(m_hyper);
    return p;
}

GpTrained optimiseGp(const Matrix& X, const Vector& y, GpKernel kernel,
                     const GpOptimiseOptions& options, std::uint64_t seed) {
    if (options.restarts < 1 || options.iterations < 1)
        throw std::invalid_argument("the optimiser needs at least one start and one iteration");
    const double n = static_cast<double>(y.size());
    const GpHyper start = defaultGpHyper(kernel, X.cols());
    // §5: minimise -log p / n (so that the tolerances do not depend on n) inside the box.
    const Objective objective = [&](const Vector& t, Vector& grad) {
        if ((t.array().abs() > kGpLogBound).any())
            return std::numeric_limits<double>::infinity();
        const GpEvidence e = gpLogMarginal({kernel, t}, X, y, true);
        if (!e.ok)
            return std::numeric_limits<double>::infinity();
        grad = -e.gradient / n;
        return -e.value / n;
    };
    GpTrained best{start, -std::numeric_limits<double>::infinity(), 0, false};
    Rng rng(deriveSeed(seed, SeedStream::GpRestarts));
    for (int r = 0; r < options.restarts; ++r) {
        Vector t0 = start.logParams;
        if (r > 0) // later starts: each log parameter moved by N(0, 1)
            for (Eigen::Index i = 0; i < t0.size(); ++i)
                t0(i) += rng.normal();
        Vector probe(t0.size());
        if (!std::isfinite(objective(t0, probe)))
            continue;
        const LbfgsResult res = minimiseLbfgs(objective, t0, {.iterations = options.iterations});
        best.evaluations += res.evaluations;
        if (-res.value * n > best.logMarginal) {
            best.hyper = {kernel, res.x};
            best.logMarginal = -res.value * n;
            best.ok = true;
        }
    }
    return best;
}

} // namespace fa
