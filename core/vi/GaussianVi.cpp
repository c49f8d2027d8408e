#include "core/vi/GaussianVi.h"

#include "core/fa/ModelGenerator.h"
#include "core/math/SymmetricEigen.h"
#include "core/optim/Clip.h"
#include "core/vi/VifaTerms.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace fa {
namespace {

Eigen::Index strictLowerSize(Eigen::Index dim) {
    return dim * (dim - 1) / 2;
}

} // namespace

void validate(const GaussianViOptions& o) {
    if (!(o.precision > 0.0))
        throw std::invalid_argument("Gaussian VI: the prior precision must be positive");
    if (o.batch < 1 || o.samples < 1)
        throw std::invalid_argument(
            "Gaussian VI: the batch size M and the sample count L must be at least 1");
    if (o.estimator == GradientEstimator::ScoreBaseline && o.samples < 2)
        throw std::invalid_argument("the score-function estimator with a leave-one-out baseline "
                                    "needs at least 2 samples per update (L >= 2)");
    if (!(o.lrC > 0.0) || !(o.lrF > 0.0) || !(o.lrGamma > 0.0))
        throw std::invalid_argument("Gaussian VI: the learning rates must be positive");
    if (!(o.maxGradNorm >= 0.0))
        throw std::invalid_argument(
            "Gaussian VI: the gradient-norm limit must be 0 (off) or positive");
}

void GaussianVi::Draws::resize(Eigen::Index dim, int samples) {
    eps.resize(dim, samples);
    grad.resize(dim, samples);
    f.resize(samples);
}

GaussianVi::GaussianVi(const Likelihood& likelihood, const GaussianViOptions& options)
    : MiniBatchFit(likelihood.size(), options.seed), m_lik(likelihood), m_options(options),
      m_dim(likelihood.dim()) {
    validate(options);
    m_m = Vector::Zero(m_dim);
    m_L = Matrix::Identity(m_dim, m_dim);
    m_draws.resize(m_dim, options.samples);
    m_w.resize(m_dim);
    m_g.resize(m_dim);
    m_mm = m_vm = Vector::Zero(m_dim);
    m_ms = m_vs = Vector::Zero(scaleSize());
}

Eigen::Index GaussianVi::scaleSize() const {
    return m_options.family == ViFamily::Full ? strictLowerSize(m_dim) + m_dim : m_dim;
}

double GaussianVi::priorRate() const {
    return m_options.prior == PriorKind::Gaussian ? m_options.precision
                                                  : laplaceRateForPrecision(m_options.precision);
}

Matrix GaussianVi::covariance() const {
    if (m_options.family == ViFamily::MeanField)
        return m_L.diagonal().cwiseAbs2().asDiagonal();
    return m_L * m_L.transpose(); // m_L is kept lower-triangular
}

FAModel GaussianVi::model() const {
    FAModel q;
    q.c = m_m;
    if (m_options.family == ViFamily::MeanField) {
        q.F = Matrix::Zero(m_dim, 1);
        q.psi = m_L.diagonal().cwiseAbs2();
        return q;
    }
    const Matrix S = covariance();
    const double lowest = symmetricEigen(S, false).values.minCoeff();
    const double psi = 0.5 * lowest;
    Eigen::LLT<Matrix> llt(S - psi * Matrix::Identity(m_dim, m_dim));
    if (!(psi > 0.0) || llt.info() != Eigen::Success) { // a diverged q: report it as it is
        q.F = m_L;
        q.psi = Vector::Constant(m_dim, std::numeric_limits<double>::quiet_NaN());
        return q;
    }
    q.F = llt.matrixL();
    q.psi = Vector::Constant(m_dim, psi);
    return q;
}

void GaussianVi::setState(const Vector& m, const Matrix& L) {
    if (m.size() != m_dim || L.rows() != m_dim || L.cols() != m_dim)
        throw std::invalid_argument("Gaussian VI: the state has the wrong shape");
    if (!(L.diagonal().minCoeff() > 0.0) || !std::isfinite(m.sum() + L.sum()))
        throw std::invalid_argument("Gaussian VI: L needs a positive diagonal and finite entries");
    m_m = m;
    if (m_options.family == ViFamily::MeanField)
        m_L = L.diagonal().asDiagonal();
    else
        m_L = L.triangularView<Eigen::Lower>();
    m_pending = 0;
    m_mm.setZero(), m_vm.setZero(), m_ms.setZero(), m_vs.setZero();
    m_adamSteps = 0; // the bias correction restarts with the moments
    m_diverged = false;
}

void GaussianVi::setEstimator(GradientEstimator estimator) {
    GaussianViOptions o = m_options;
    o.estimator = estimator;
    validate(o);
    m_options = o;
    m_pending = 0;
}

void GaussianVi::setLearningRates(double lrC, double lrF, double lrGamma) {
    if (!(lrC > 0.0) || !(lrF > 0.0) || !(lrGamma > 0.0))
        throw std::invalid_argument("Gaussian VI: the learning rates must be positive");
    m_options.lrC = lrC, m_options.lrF = lrF, m_options.lrGamma = lrGamma;
}

// The flat scale block: the strictly lower L row by row, then the log diagonal.
Vector GaussianVi::gatherScale() const {
    Vector out(scaleSize());
    Eigen::Index k = 0;
    if (m_options.family == ViFamily::Full)
        for (Eigen::Index i = 1; i < m_dim; ++i)
            for (Eigen::Index j = 0; j < i; ++j)
                out(k++) = m_L(i, j);
    out.tail(m_dim) = m_L.diagonal().array().log();
    return out;
}

void GaussianVi::scatterScale(const ConstVectorRef& scale) {
    Eigen::Index k = 0;
    if (m_options.family == ViFamily::Full)
        for (Eigen::Index i = 1; i < m_dim; ++i)
            for (Eigen::Index j = 0; j < i; ++j)
                m_L(i, j) = scale(k++);
    m_L.diagonal() = scale.tail(m_dim).array().exp();
}

ViGradient GaussianVi::exactGradient() const {
    ViGradient g{Vector::Zero(m_dim), Vector::Zero(scaleSize())};
    auto diag = g.scale.tail(m_dim);
    diag.setConstant(-1.0); // -H = -sum log L_ii + const
    // dPrior/dv_d for the marginal variance v_d = sum_j L_dj^2 (the prior term depends on L only
    // through v); the mean's gradient directly.
    Vector dv(m_dim);
    const double rate = priorRate();
    const Vector v = m_L.rowwise().squaredNorm();
    if (m_options.prior == PriorKind::Gaussian) { // alpha/2 (|m|^2 + sum v)
        g.mean = rate * m_m;
        dv.setConstant(0.5 * rate);
    } else { // rate sum E|w_d|, w_d ~ N(m_d, v_d)
        for (Eigen::Index d = 0; d < m_dim; ++d) {
            const double s = std::sqrt(v(d)), z = m_m(d) / s;
            g.mean(d) = rate * (2.0 * normalCdf(z) - 1.0);
            dv(d) = rate * normalPdf(z) / s;
        }
    }
    Eigen::Index k = 0;
    if (m_options.family == ViFamily::Full)
        for (Eigen::Index i = 1; i < m_dim; ++i)
            for (Eigen::Index j = 0; j < i; ++j)
                g.scale(k++) = 2.0 * dv(i) * m_L(i, j);
    diag.array() += 2.0 * dv.array() * m_L.diagonal().array().square();
    return g;
}

void GaussianVi::draw(Rng& rng, std::span<const Eigen::Index> batch, Draws& d, int s) {
    auto eps = d.eps.col(s);
    rng.fillNormal(eps);
    m_w = m_m;
    if (m_options.family == ViFamily::Full)
        m_w.noalias() += m_L.triangularView<Eigen::Lower>() * eps;
    else
        m_w.array() += m_L.diagonal().array() * eps.array();
    const double n = static_cast<double>(m_lik.size());
    d.f(s) = n * m_lik.meanNegLogLik(m_w, batch, m_g);
    d.grad.col(s) = n * m_g;
}

ViGradient GaussianVi::combine(GradientEstimator estimator, const Draws& d, int samples) const {
    ViGradient g{Vector::Zero(m_dim), Vector::Zero(scaleSize())};
    const bool full = m_options.family == ViFamily::Full;
    const auto sigma = m_L.diagonal().array();
    auto diag = g.scale.tail(m_dim);
    const double S = samples;
    if (estimator == GradientEstimator::Reparam) {
        // w = m + L eps: dw/dm = I, dw/dL_ij = eps_j e_i, dw/dlog L_ii = L_ii eps_i e_i.
        const auto eps = d.eps.leftCols(samples);
        const auto grad = d.grad.leftCols(samples);
        g.mean = grad.rowwise().sum() / S;
        if (full) {
            const Matrix G = grad * eps.transpose() / S;
            Eigen::Index k = 0;
            for (Eigen::Index i = 1; i < m_dim; ++i)
                for (Eigen::Index j = 0; j < i; ++j)
                    g.scale(k++) = G(i, j);
            diag = G.diagonal().array() * sigma;
        } else {
            diag = (grad.array() * eps.array()).rowwise().sum() / S * sigma;
        }
        return g;
    }
    // Score function: sum_s a_s f_s-weighted grad log q(w_s), a_s = f_s / S or, with the
    // leave-one-out baseline, (f_s - mean f) / (S - 1).
    Vector a = d.f.head(samples) / S;
    if (estimator == GradientEstimator::ScoreBaseline)
        a = (d.f.head(samples).array() - d.f.head(samples).mean()) / (S - 1.0);
    const double total = a.sum();
    if (full) {
        // grad_m log q = L^-T eps; grad_L log q = tril(L^-T (eps eps^T - I)).
        const Matrix U =
            m_L.triangularView<Eigen::Lower>().transpose().solve(d.eps.leftCols(samples));
        g.mean = U * a;
        const Matrix G = U * a.asDiagonal() * d.eps.leftCols(samples).transpose();
        Eigen::Index k = 0;
        for (Eigen::Index i = 1; i < m_dim; ++i)
            for (Eigen::Index j = 0; j < i; ++j)
                g.scale(k++) = G(i, j);
        diag = G.diagonal().array() * sigma - total;
    } else {
        // grad_m log q = eps / sigma; grad_s log q = eps^2 - 1.
        g.mean = (d.eps.leftCols(samples) * a).array() / sigma;
        diag = d.eps.leftCols(samples).array().square().matrix() * a;
        diag.array() -= total;
    }
    return g;
}

ViGradient GaussianVi::estimate(GradientEstimator estimator, int samples,
                                std::span<const Eigen::Index> batch, Rng& rng) {
    if (samples < 1 || (estimator == GradientEstimator::ScoreBaseline && samples < 2))
        throw std::invalid_argument("too few samples for this estimator");
    Draws d;
    d.resize(m_dim, samples);
    for (int s = 0; s < samples; ++s)
        draw(rng, batch, d, s);
    ViGradient g = combine(estimator, d, samples);
    const ViGradient exact = exactGradient();
    g.mean += exact.mean;
    g.scale += exact.scale;
    return g;
}

void GaussianVi::step(Eigen::Ref<Vector> param, const ConstVectorRef& grad, Eigen::Ref<Vector> m,
                      Eigen::Ref<Vector> v, double lr) const {
    optimiserStep(m_options.optimiser, param, grad, {m, v}, lr, m_adamSteps);
}

void GaussianVi::update() {
    const int samples = m_pending;
    m_pending = 0;
    ++m_updates;
    ++m_adamSteps;
    ViGradient g = combine(m_options.estimator, m_draws, samples);
    const ViGradient exact = exactGradient();
    g.mean += exact.mean;
    g.scale += exact.scale;
    const Eigen::Index nl = scaleSize() - m_dim;
    clipNorm(g.mean.head(m_dim), m_options.maxGradNorm);
    clipNorm(g.scale.head(nl), m_options.maxGradNorm);
    clipNorm(g.scale.tail(m_dim), m_options.maxGradNorm);
    step(m_m, g.mean, m_mm, m_vm, m_options.lrC);
    // Each group's Adam moments live in the matching segment of the flat moment vectors.
    Vector scale = gatherScale();
    step(scale.head(nl), g.scale.head(nl), m_ms.head(nl), m_vs.head(nl), m_options.lrF);
    step(scale.tail(m_dim), g.scale.tail(m_dim), m_ms.tail(m_dim), m_vs.tail(m_dim),
         m_options.lrGamma);
    scatterScale(scale);
    if (!std::isfinite(m_m.sum() + m_L.sum()) || !(m_L.diagonal().minCoeff() > 0.0))
        m_diverged = true;
}

void GaussianVi::onBatch(std::span<const Eigen::Index> rows) {
    draw(m_rng, rows, m_draws, m_pending);
    if (++m_pending == m_options.samples)
        update();
}

} // namespace fa
