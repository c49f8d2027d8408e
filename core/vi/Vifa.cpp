#include "core/vi/Vifa.h"

#include "core/fa/ModelGenerator.h"
#include "core/optim/Clip.h"

#include <cmath>
#include <numbers>
#include <numeric>
#include <stdexcept>

namespace fa {

std::string priorName(PriorKind prior) {
    return prior == PriorKind::Gaussian ? "gaussian" : "laplace";
}

double laplaceRateForPrecision(double alpha) {
    return std::sqrt(2.0 * alpha);
}

void validate(const VifaOptions& o) {
    if (o.latent < 1)
        throw std::invalid_argument("VIFA: the latent dimension K must be at least 1");
    if (!(o.precision > 0.0))
        throw std::invalid_argument("VIFA: the prior precision must be positive");
    if (o.ppca && !(o.sigma > 0.0))
        throw std::invalid_argument("VIPPCA: sigma must be positive");
    if (o.batch < 1 || o.samples < 1)
        throw std::invalid_argument(
            "VIFA: the batch size M and the sample count L must be at least 1");
    if (!(o.lrC > 0.0) || !(o.lrF > 0.0) || !(o.lrGamma > 0.0))
        throw std::invalid_argument("VIFA: the learning rates must be positive");
    if (!(o.maxGradNorm >= 0.0))
        throw std::invalid_argument("VIFA: the gradient-norm limit must be 0 (off) or positive");
    if (o.estimator == GradientEstimator::ScoreBaseline && o.samples < 2)
        throw std::invalid_argument("the score-function estimator with a leave-one-out baseline "
                                    "needs at least 2 samples per update (L >= 2)");
}

Vifa::Vifa(const Likelihood& likelihood, const VifaOptions& options)
    : MiniBatchFit(likelihood.size(), options.seed), m_lik(likelihood), m_options(options) {
    validate(options);
    const Eigen::Index dim = likelihood.dim();
    if (options.latent >= dim && !options.ppca)
        throw std::invalid_argument(
            "VIFA: the latent dimension K must be below the parameter count D");
    m_c = Vector::Zero(dim);
    Rng initRng(deriveSeed(options.seed, SeedStream::VifaStartFrame));
    m_F = randomOrthonormalFrame(dim, std::min<Eigen::Index>(options.latent, dim), initRng);
    m_psi = Vector::Constant(dim, options.ppca ? options.sigma : 1.0);
    m_gamma = m_psi.array().log();
    m_sum.resize(dim, m_F.cols());
    m_h.resize(m_F.cols());
    m_z.resize(dim);
    m_theta.resize(dim);
    m_g.resize(dim);
    m_sqrtPsiZ.resize(dim);
    m_mc = m_vc = m_mg = m_vg = Vector::Zero(dim);
    m_mF = m_vF = Vector::Zero(m_F.size());
    m_drawH.resize(m_F.cols(), options.samples);
    m_drawZ.resize(dim, options.samples);
    m_drawF.resize(options.samples);
}

void Vifa::setEstimator(GradientEstimator estimator) {
    VifaOptions o = m_options;
    o.estimator = estimator;
    validate(o);
    m_options = o;
    m_sum.setZero();
    m_pending = 0;
}

VifaGradients Vifa::scoreGradients(const Matrix& H, const Matrix& Z, const Vector& f, int samples,
                                   bool baseline) const {
    // q = N(c, S), S = F F^T + Psi; at theta = c + r: grad_c log q = u = S^-1 r,
    // grad_F log q = (u u^T - S^-1) F, grad_gamma log q = 1/2 psi .* (u^2 - diag S^-1), with
    // S^-1 = Psi^-1 - C A^T, A = Psi^-1 F, C = A (I + F^T A)^-1 = S^-1 F (Woodbury).
    const Eigen::Index K = m_F.cols();
    const Matrix A = m_psi.cwiseInverse().asDiagonal() * m_F;
    Matrix inner = m_F.transpose() * A;
    inner.diagonal().array() += 1.0;
    const Matrix C = A * inner.llt().solve(Matrix::Identity(K, K));
    const Vector diagInv = m_psi.cwiseInverse() - C.cwiseProduct(A).rowwise().sum();
    const double S = samples;
    Vector a = f.head(samples) / S;
    if (baseline)
        a = (f.head(samples).array() - f.head(samples).mean()) / (S - 1.0);
    VifaGradients g;
    g.resize(m_c.size(), K);
    for (int s = 0; s < samples; ++s) {
        const Vector r = m_F * H.col(s) + m_psi.cwiseSqrt().cwiseProduct(Z.col(s));
        const Vector u = m_psi.cwiseInverse().cwiseProduct(r) - C * (A.transpose() * r);
        g.c += a(s) * u;
        g.F += a(s) * u * (m_F.transpose() * u).transpose();
        g.gamma += a(s) * 0.5 * m_psi.cwiseProduct(u.cwiseAbs2());
    }
    const double total = a.sum();
    g.F -= total * C;
    g.gamma -= total * 0.5 * m_psi.cwiseProduct(diagInv);
    return g;
}

VifaGradients Vifa::estimate(GradientEstimator estimator, int samples,
                             std::span<const Eigen::Index> batch, Rng& rng) const {
    if (samples < 1 || (estimator == GradientEstimator::ScoreBaseline && samples < 2))
        throw std::invalid_argument("too few samples for this estimator");
    Matrix H(m_F.cols(), samples), Z(m_c.size(), samples);
    Vector f(samples), grad(m_c.size());
    VifaGradients g = exactGradients();
    const double n = static_cast<double>(m_lik.size());
    for (int s = 0; s < samples; ++s) {
        rng.fillNormal(H.col(s));
        rng.fillNormal(Z.col(s));
        const Vector sqrtPsiZ = m_psi.cwiseSqrt().cwiseProduct(Z.col(s));
        const Vector theta = m_F * H.col(s) + m_c + sqrtPsiZ;
        f(s) = n * m_lik.meanNegLogLik(theta, batch, grad);
        if (estimator == GradientEstimator::Reparam) {
            g.c += n * grad / samples;
            g.F += n * grad * H.col(s).transpose() / samples;
            g.gamma += 0.5 * n * grad.cwiseProduct(sqrtPsiZ) / samples;
        }
    }
    if (estimator != GradientEstimator::Reparam) {
        const VifaGradients sg =
            scoreGradients(H, Z, f, samples, estimator == GradientEstimator::ScoreBaseline);
        g.c += sg.c, g.F += sg.F, g.gamma += sg.gamma;
    }
    return g;
}

double Vifa::priorRate() const {
    return m_options.prior == PriorKind::Gaussian ? m_options.precision
                                                  : laplaceRateForPrecision(m_options.precision);
}

void Vifa::setLearningRates(double lrC, double lrF, double lrGamma) {
    if (!(lrC > 0.0) || !(lrF > 0.0) || !(lrGamma > 0.0))
        throw std::invalid_argument("VIFA: the learning rates must be positive");
    m_options.lrC = lrC;
    m_options.lrF = lrF;
    m_options.lrGamma = lrGamma;
}

void Vifa::setState(const FAModel& model) {
    model.validate();
    if (model.dim() != m_c.size() || model.latent() != m_F.cols())
        throw std::invalid_argument("VIFA: the state has the wrong shape");
    m_c = model.c;
    m_F = model.F;
    if (!m_options.ppca) {
        m_psi = model.psi;
        m_gamma = m_psi.array().log();
    }
    m_sum.setZero();
    m_pending = 0;
    m_mc.setZero(), m_vc.setZero(), m_mF.setZero(), m_vF.setZero(), m_mg.setZero(), m_vg.setZero();
    m_adamSteps = 0; // the bias correction restarts with the moments
}

VifaGradients Vifa::exactGradients() const {
    VifaGradients g;
    g.resize(m_c.size(), m_F.cols());
    addNegEntropyGradients(m_F, m_psi, g);
    if (m_options.prior == PriorKind::Gaussian)
        addGaussianPriorGradients(m_c, m_F, m_psi, priorRate(), g);
    else
        addLaplacePriorGradients(m_c, m_F, m_psi, priorRate(), g);
    return g;
}

VifaGradients Vifa::singleSampleGradients(const ConstVectorRef& h, const ConstVectorRef& z,
                                          std::span<const Eigen::Index> batch) const {
    VifaGradients g = exactGradients();
    const Vector sqrtPsiZ = m_psi.cwiseSqrt().cwiseProduct(z);
    const Vector theta = m_F * h + m_c + sqrtPsiZ;
    Vector grad(m_c.size());
    m_lik.meanNegLogLik(theta, batch, grad);
    const double n = static_cast<double>(m_lik.size());
    g.c += n * grad;
    g.F += n * grad * h.transpose();
    g.gamma += 0.5 * n * grad.cwiseProduct(sqrtPsiZ);
    return g;
}

void Vifa::onBatch(std::span<const Eigen::Index> batch) {
    m_rng.fillNormal(m_h);
    m_rng.fillNormal(m_z);
    m_sqrtPsiZ = m_psi.cwiseSqrt().cwiseProduct(m_z);
    m_theta.noalias() = m_F * m_h;
    m_theta += m_c + m_sqrtPsiZ;
    const double value = m_lik.meanNegLogLik(m_theta, batch, m_g);
    const double n = static_cast<double>(m_lik.size());
    if (m_options.estimator != GradientEstimator::Reparam) { // kept for the update
        m_drawH.col(m_pending) = m_h;
        m_drawZ.col(m_pending) = m_z;
        m_drawF(m_pending) = n * value;
        if (++m_pending == m_options.samples)
            update();
        return;
    }
    m_sum.c += n * m_g;
    m_sum.F.noalias() += n * m_g * m_h.transpose();
    m_sum.gamma += 0.5 * n * m_g.cwiseProduct(m_sqrtPsiZ);
    if (++m_pending == m_options.samples)
        update();
}

void Vifa::step(Eigen::Ref<Vector> param, const ConstVectorRef& grad, Eigen::Ref<Vector> m,
                Eigen::Ref<Vector> v, double lr) const {
    optimiserStep(m_options.optimiser, param, grad, {m, v}, lr, m_adamSteps);
}

void Vifa::update() {
    const auto drawn = static_cast<int>(m_pending);
    const double invL = 1.0 / drawn;
    m_pending = 0;
    ++m_updates;
    ++m_adamSteps;
    VifaGradients g = exactGradients();
    if (m_options.estimator == GradientEstimator::Reparam) {
        g.c += invL * m_sum.c;
        g.F += invL * m_sum.F;
        g.gamma += invL * m_sum.gamma;
    } else {
        const VifaGradients sg =
            scoreGradients(m_drawH, m_drawZ, m_drawF, drawn,
                           m_options.estimator == GradientEstimator::ScoreBaseline);
        g.c += sg.c, g.F += sg.F, g.gamma += sg.gamma;
    }
    m_sum.setZero();
    clipNorm(g.c, m_options.maxGradNorm);
    clipNorm(g.F, m_options.maxGradNorm);
    clipNorm(g.gamma, m_options.maxGradNorm);
    step(m_c, g.c, m_mc, m_vc, m_options.lrC);
    Eigen::Map<Vector> flatF(m_F.data(), m_F.size());
    const Eigen::Map<const Vector> flatGF(g.F.data(), g.F.size());
    step(flatF, flatGF, m_mF, m_vF, m_options.lrF);
    if (!m_options.ppca) {
        step(m_gamma, g.gamma, m_mg, m_vg, m_options.lrGamma);
        m_psi = m_gamma.array().exp();
    }
    if (!std::isfinite(m_c.sum() + m_F.sum() + m_psi.sum()) || m_psi.minCoeff() <= 0.0)
        m_diverged = true;
}

} // namespace fa
