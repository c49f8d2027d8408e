#include "core/vae/VaeObjectives.h"

#include "core/vae/VaeMetrics.h"

#include <cmath>
#include <stdexcept>

namespace fa {

namespace {

/// The score-function estimate (§9) of d E_q[log p(x | z)] / d(μ, ℓ) per row, plus the KL's exact
/// gradient: (1/S) Σ_s (f_ns − b_ns) ∇ log q(z_ns), with ∇_μ log q = ε e^{−ℓ/2} and
/// ∇_ℓ log q = ½ (ε² − 1); b = 0, or the mean of the row's other S − 1 values of f.
void scoreGradient(const Eigen::RowVectorXd& f, const ConstMatrixRef& eps, const Matrix& M,
                   const Matrix& L, bool baseline, Matrix& dM, Matrix& dL) {
    const Eigen::Index b = M.cols(), draws = eps.cols() / b;
    const Matrix invSd = (-0.5 * L.array()).exp().matrix();
    dM.setZero(M.rows(), b);
    dL.setZero(M.rows(), b);
    for (Eigen::Index n = 0; n < b; ++n) {
        double total = 0.0;
        for (Eigen::Index s = 0; s < draws; ++s)
            total += f(s * b + n);
        for (Eigen::Index s = 0; s < draws; ++s) {
            const Eigen::Index c = s * b + n;
            const double w = baseline ? f(c) - (total - f(c)) / double(draws - 1) : f(c);
            dM.col(n) += w * eps.col(c).cwiseProduct(invSd.col(n));
            dL.col(n) += (0.5 * w) * (eps.col(c).array().square() - 1.0).matrix();
        }
    }
    const double inv = 1.0 / double(draws);
    dM = dM * inv - M;
    dL = dL * inv - 0.5 * (L.array().exp() - 1.0).matrix();
}

} // namespace

double vaeBatchElbo(Mlp& encoder, ElboPass& pass, const NlfaModel& model, const ConstVectorRef& phi,
                    const ConstMatrixRef& X, const ConstMatrixRef& eps, ElboGradient* g,
                    Vector* gPhi, GradientEstimator estimator) {
    const Eigen::Index k = model.latent(), b = X.cols();
    if (b < 1 || eps.rows() != k || eps.cols() < b || eps.cols() % b != 0)
        throw std::invalid_argument("the VAE's draws must be K x (S times the rows)");
    const Eigen::Index draws = eps.cols() / b;
    if (estimator == GradientEstimator::ScoreBaseline && draws < 2)
        throw std::invalid_argument("the leave-one-out baseline needs two draws per row or more");
    const Matrix& h = encoder.forward(phi, X);
    const Matrix M = h.topRows(k);
    const Matrix raw = h.bottomRows(k);
    const Matrix L = raw.cwiseMax(kEncoderLogVarMin).cwiseMin(kQLogVarMax);
    Eigen::RowVectorXd values(b * draws);
    if (draws == 1)
        pass.run(model, X, M, L, eps, values, g);
    else
        pass.run(model, X.replicate(1, draws), M.replicate(1, draws), L.replicate(1, draws), eps,
                 values, g);
    if (draws > 1 && g) { // the means over each row's draws
        g->theta /= double(draws);
        g->gamma /= double(draws);
    }
    if (g && gPhi) {
        if (estimator != GradientEstimator::Reparam) {
            Matrix dM, dL;
            scoreGradient(pass.lastLogLik(), eps, M, L,
                          estimator == GradientEstimator::ScoreBaseline, dM, dL);
            g->mean = std::move(dM);
            g->logVar = std::move(dL);
        } else if (draws > 1) {
            Matrix dM = g->mean.leftCols(b), dL = g->logVar.leftCols(b);
            for (Eigen::Index s = 1; s < draws; ++s) {
                dM += g->mean.middleCols(s * b, b);
                dL += g->logVar.middleCols(s * b, b);
            }
            g->mean = dM / double(draws);
            g->logVar = dL / double(draws);
        }
        Matrix dh(2 * k, b);
        dh.topRows(k) = g->mean;
        dh.bottomRows(k) = g->logVar.cwiseProduct(
            ((raw.array() > kEncoderLogVarMin) && (raw.array() < kQLogVarMax))
                .cast<double>()
                .matrix());
        gPhi->resize(phi.size());
        encoder.backward(phi, dh, *gPhi);
    }
    return draws == 1 ? values.sum() : values.sum() / double(draws);
}

GradientSpread encoderGradientSpread(const NlfaModel& model, const NetworkEncoder& encoder,
                                     const ConstMatrixRef& X, GradientEstimator estimator,
                                     int samples, int draws, Rng& rng) {
    if (samples < 1 || draws < 2)
        throw std::invalid_argument("the spread needs one sample per row and two draws or more");
    Mlp net(encoder.shape);
    ElboPass pass(model.shape);
    ElboGradient g;
    Vector gPhi, mean = Vector::Zero(encoder.phi.size()), m2 = Vector::Zero(encoder.phi.size());
    Matrix eps(model.latent(), X.cols() * samples);
    for (int t = 1; t <= draws; ++t) { // Welford's running mean and sum of squared deviations
        rng.fillNormal(Eigen::Map<Vector>(eps.data(), eps.size()));
        vaeBatchElbo(net, pass, model, encoder.phi, X, eps, &g, &gPhi, estimator);
        gPhi /= double(X.cols()); // the per-row mean ELBO's gradient
        const Vector delta = gPhi - mean;
        mean += delta / double(t);
        m2 += delta.cwiseProduct(gPhi - mean);
    }
    return {mean.norm(), m2.sum() / double(draws - 1)};
}

// Per row, with m = V x + a, r = x − W m − b, s = e^ℓ, c_k = Σ_d W_dk² / ψ_d:
//   L = log N(x; W m + b, Ψ) − ½ Σ_k s_k c_k − KL(N(m, diag s) ‖ N(0, I));
//   R̃ = Ψ⁻¹ r, G = Wᵀ R̃ − m = dL/dm, dL/dW = R̃ mᵀ − Ψ⁻¹ W diag(s), dL/db = R̃,
//   dL/dV = G xᵀ, dL/da = G, dL/dℓ_k = −½ s_k c_k − ½ (s_k − 1),
//   dL/dγ_d = −½ + ½ (r_d² + Σ_k s_k W_dk²) / ψ_d.
double linearVaeBatchElbo(const NlfaModel& model, const LinearEncoder& encoder,
                          const ConstMatrixRef& X, LinearVaeGradient* g) {
    const Eigen::Index k = model.latent(), d = model.dim(), b = X.cols();
    const Matrix M = (encoder.V * X).colwise() + encoder.a;
    const Matrix logVar = encoder.logVar.replicate(1, b);
    const double value = linearElbo(model, X, M, logVar).sum();
    if (!g)
        return value;
    const auto W = model.W();
    Vector invPsi(d);
    for (Eigen::Index i = 0; i < d; ++i)
        invPsi(i) = std::exp(-model.logPsi(i));
    const Vector s = encoder.logVar.array().exp();
    const Matrix R = (X - W * M).colwise() - model.b();
    const Matrix Rt = invPsi.asDiagonal() * R;
    const Matrix G = W.transpose() * Rt - M;
    g->theta.resize(model.theta.size());
    Eigen::Map<Matrix>(g->theta.data(), d, k) =
        Rt * M.transpose() - double(b) * invPsi.asDiagonal() * W * s.asDiagonal();
    g->theta.tail(d) = Rt.rowwise().sum();
    g->V = G * X.transpose();
    g->a = G.rowwise().sum();
    const Vector c = W.cwiseAbs2().transpose() * invPsi;
    g->logVar = double(b) * (-0.5 * s.cwiseProduct(c) - 0.5 * (s.array() - 1.0).matrix());
    g->gamma.setZero(model.gamma.size());
    if (model.noise != NoiseKind::Fixed) {
        const Vector spread = W.cwiseAbs2() * s; // Σ_k s_k W_dk²
        for (Eigen::Index i = 0; i < d; ++i)
            g->gamma(g->gamma.size() == 1 ? 0 : i) +=
                -0.5 * double(b) +
                0.5 * (R.row(i).squaredNorm() + double(b) * spread(i)) * invPsi(i);
    }
    return value;
}

} // namespace fa
