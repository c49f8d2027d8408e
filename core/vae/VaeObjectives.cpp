#include "core/vae/VaeObjectives.h"

#include "core/vae/VaeMetrics.h"

#include <cmath>

namespace fa {

double vaeBatchElbo(Mlp& encoder, ElboPass& pass, const NlfaModel& model, const ConstVectorRef& phi,
                    const ConstMatrixRef& X, const ConstMatrixRef& eps, ElboGradient* g,
                    Vector* gPhi) {
    const Eigen::Index k = model.latent(), b = X.cols();
    const Matrix& h = encoder.forward(phi, X);
    const Matrix M = h.topRows(k);
    const Matrix raw = h.bottomRows(k);
    const Matrix L = raw.cwiseMax(kEncoderLogVarMin).cwiseMin(kQLogVarMax);
    Eigen::RowVectorXd values(b);
    pass.run(model, X, M, L, eps, values, g);
    if (g && gPhi) {
        Matrix dh(2 * k, b);
        dh.topRows(k) = g->mean;
        dh.bottomRows(k) = g->logVar.cwiseProduct(
            ((raw.array() > kEncoderLogVarMin) && (raw.array() < kQLogVarMax))
                .cast<double>()
                .matrix());
        gPhi->resize(phi.size());
        encoder.backward(phi, dh, *gPhi);
    }
    return values.sum();
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
