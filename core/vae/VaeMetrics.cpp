#include "core/vae/VaeMetrics.h"

#include "core/optim/Adam.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fa {
namespace {

Matrix normalMatrix(Eigen::Index rows, Eigen::Index cols, Rng& rng) {
    Matrix eps(rows, cols);
    rng.fillNormal(Eigen::Map<Vector>(eps.data(), eps.size()));
    return eps;
}

Vector inversePsi(const NlfaModel& model) {
    Vector inv(model.dim());
    for (Eigen::Index d = 0; d < inv.size(); ++d)
        inv(d) = std::exp(-model.logPsi(d));
    return inv;
}

/// Λ = I + Wᵀ Ψ⁻¹ W.
Matrix precisionOf(const NlfaModel& model, const Vector& invPsi) {
    const auto W = model.W();
    return Matrix::Identity(model.latent(), model.latent()) +
           W.transpose() * invPsi.asDiagonal() * W;
}

} // namespace

Eigen::RowVectorXd elboEstimate(ElboPass& pass, const NlfaModel& model, const ConstMatrixRef& X,
                                const ConstMatrixRef& M, const ConstMatrixRef& logVar, int samples,
                                Rng& rng, const ScoringPoll& poll) {
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(X.cols()), one(X.cols());
    for (int s = 0; s < samples && !poll.stop(); ++s) {
        pass.run(model, X, M, logVar, normalMatrix(M.rows(), M.cols(), rng), one, nullptr);
        sum += one;
    }
    return sum / double(std::max(samples, 1));
}

IwEstimate iwLoglik(ElboPass& pass, const NlfaModel& model, const ConstMatrixRef& X,
                    const ConstMatrixRef& M, const ConstMatrixRef& logVar, int samples, Rng& rng,
                    const ScoringPoll& poll) {
    const Eigen::Index n = X.cols();
    // Streaming log-sum-exp of log w and of 2 log w per column.
    Eigen::RowVectorXd top =
        Eigen::RowVectorXd::Constant(n, -std::numeric_limits<double>::infinity());
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(n), sumSq = Eigen::RowVectorXd::Zero(n);
    Eigen::RowVectorXd lik(n);
    const Matrix sd = (0.5 * logVar.array()).exp().matrix();
    for (int s = 0; s < samples && !poll.stop(); ++s) {
        const Matrix eps = normalMatrix(M.rows(), n, rng);
        const Matrix Z = M + sd.cwiseProduct(eps);
        pass.logLik(model, X, Z, lik);
        for (Eigen::Index i = 0; i < n; ++i) {
            // log N(z; 0, I) − log N(z; m, diag e^ℓ): the 2π terms cancel.
            const double lw = lik(i) - 0.5 * Z.col(i).squaredNorm() +
                              0.5 * (logVar.col(i).sum() + eps.col(i).squaredNorm());
            if (lw > top(i)) {
                const double scale = std::exp(top(i) - lw);
                sum(i) = sum(i) * scale + 1.0;
                sumSq(i) = sumSq(i) * scale * scale + 1.0;
                top(i) = lw;
            } else {
                const double w = std::exp(lw - top(i));
                sum(i) += w;
                sumSq(i) += w * w;
            }
        }
    }
    IwEstimate out;
    out.logp = top.array() + sum.array().log() - std::log(double(samples));
    out.ess = sum.array().square() / sumSq.array();
    return out;
}

void optimiseQ(ElboPass& pass, const NlfaModel& model, const ConstMatrixRef& X, Matrix& M,
               Matrix& logVar, int steps, double lr, Rng& rng, const ScoringPoll& poll) {
    const Eigen::Index size = M.size();
    Vector mM = Vector::Zero(size), vM = Vector::Zero(size), mL = Vector::Zero(size),
           vL = Vector::Zero(size);
    Eigen::RowVectorXd values(X.cols());
    ElboGradient g;
    for (int t = 1; t <= steps && !poll.stop(); ++t) {
        const double rate = lr * (1.0 - 0.9 * double(t - 1) / double(std::max(steps - 1, 1)));
        pass.run(model, X, M, logVar, normalMatrix(M.rows(), M.cols(), rng), values, &g);
        g.mean = -g.mean; // optimiserStep descends
        g.logVar = -g.logVar;
        optimiserStep(OptimiserKind::Adam, Eigen::Map<Vector>(M.data(), size),
                      Eigen::Map<const Vector>(g.mean.data(), size), {mM, vM}, rate, t);
        optimiserStep(OptimiserKind::Adam, Eigen::Map<Vector>(logVar.data(), size),
                      Eigen::Map<const Vector>(g.logVar.data(), size), {mL, vL}, rate, t);
        logVar = logVar.cwiseMax(kRowQLogVarMin).cwiseMin(kQLogVarMax);
    }
}

NlfaModel decoderFromPpca(const PpcaModel& ppca) {
    NlfaModel m;
    m.shape.inputs = static_cast<int>(ppca.W.cols());
    m.shape.hidden = {};
    m.shape.outputs = static_cast<int>(ppca.W.rows());
    m.theta.resize(ppca.W.size() + ppca.mu.size());
    m.theta << Eigen::Map<const Vector>(ppca.W.data(), ppca.W.size()), ppca.mu;
    m.noise = NoiseKind::Isotropic;
    m.gamma = Vector::Constant(1, std::log(ppca.sigma2));
    m.gammaFloor = Vector::Constant(1, -700.0);
    return m;
}

Eigen::RowVectorXd linearElbo(const NlfaModel& model, const ConstMatrixRef& X,
                              const ConstMatrixRef& M, const ConstMatrixRef& logVar) {
    const Vector invPsi = inversePsi(model);
    const auto W = model.W();
    const Matrix R = (X - W * M).colwise() - model.b();
    double logDet = 0.0;
    for (Eigen::Index d = 0; d < model.dim(); ++d)
        logDet += model.logPsi(d);
    const double constant = -0.5 * (double(model.dim()) * kLog2Pi + logDet);
    // c_k = Σ_d W_dk² / ψ_d: the expected quadratic form adds ½ Σ_k e^ℓ_k c_k.
    const Vector c = W.cwiseAbs2().transpose() * invPsi;
    Eigen::RowVectorXd out(X.cols());
    for (Eigen::Index n = 0; n < X.cols(); ++n)
        out(n) = constant - 0.5 * R.col(n).cwiseAbs2().dot(invPsi) -
                 0.5 * logVar.col(n).array().exp().matrix().dot(c);
    return out - klToStandard(M, logVar);
}

Eigen::RowVectorXd linearLogLik(const NlfaModel& model, const ConstMatrixRef& X) {
    const Vector invPsi = inversePsi(model);
    const Eigen::LLT<Matrix> llt(precisionOf(model, invPsi));
    const Matrix R = X.colwise() - model.b();
    const Matrix U = model.W().transpose() * (invPsi.asDiagonal() * R); // K x n
    const Matrix L = llt.matrixL();
    double logDet = 2.0 * L.diagonal().array().log().sum();
    for (Eigen::Index d = 0; d < model.dim(); ++d)
        logDet += model.logPsi(d);
    const Matrix Y = llt.matrixL().solve(U); // Λ⁻¹ quadratic form = ‖L⁻¹ u‖²
    Eigen::RowVectorXd out(X.cols());
    for (Eigen::Index n = 0; n < X.cols(); ++n)
        out(n) = -0.5 * (double(model.dim()) * kLog2Pi + logDet + R.col(n).cwiseAbs2().dot(invPsi) -
                         Y.col(n).squaredNorm());
    return out;
}

void linearOptimalQ(const NlfaModel& model, const ConstMatrixRef& X, Matrix& M, Matrix& logVar) {
    const Vector invPsi = inversePsi(model);
    const Matrix precision = precisionOf(model, invPsi);
    M = precision.llt().solve(model.W().transpose() *
                              (invPsi.asDiagonal() * (X.colwise() - model.b())));
    logVar = (-precision.diagonal().array().log()).matrix().replicate(1, X.cols());
}

double linearApproximationGap(const NlfaModel& model) {
    const Matrix precision = precisionOf(model, inversePsi(model));
    const Matrix L = precision.llt().matrixL();
    return 0.5 *
           (precision.diagonal().array().log().sum() - 2.0 * L.diagonal().array().log().sum());
}

} // namespace fa
