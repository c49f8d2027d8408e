#include "core/vae/NlfaModel.h"

#include "core/lab/NameTable.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fa {

namespace {
/// log σ_d²(z) of NoiseKind::Network from the network's raw output (§8).
double clampedLogVar(const NlfaModel& model, double raw, Eigen::Index d) {
    return std::clamp(raw, model.logVarFloor(d), model.logVarCeiling(d));
}

constexpr Named<NoiseKind> kNoiseNames[] = {{NoiseKind::Diagonal, "diagonal"},
                                            {NoiseKind::Isotropic, "isotropic"},
                                            {NoiseKind::Fixed, "fixed"},
                                            {NoiseKind::Network, "network"}};
} // namespace

std::string noiseKindName(NoiseKind kind) {
    return nameIn(kNoiseNames, kind);
}

NoiseKind parseNoiseKind(const std::string& name) {
    return requireIn(kNoiseNames, name, "noise");
}

bool NlfaModel::applyFloor() {
    bool floored = false;
    for (Eigen::Index i = 0; i < gamma.size(); ++i)
        if (gamma(i) <= gammaFloor(i)) {
            gamma(i) = gammaFloor(i);
            floored = true;
        }
    return floored && noise != NoiseKind::Fixed;
}

NlfaModel initialNlfaModel(int latent, const std::vector<int>& hidden, Activation activation,
                           NoiseKind noise, double fixedVariance, const ConstMatrixRef& rows,
                           std::uint64_t seed) {
    const Eigen::Index dim = rows.rows(), n = rows.cols();
    if (latent < 1 || dim < 1 || latent > 1000)
        throw std::invalid_argument("the latent dimension K must be at least 1");
    if (n < 2)
        throw std::invalid_argument("at least two rows are needed");
    if (noise == NoiseKind::Fixed && !(fixedVariance > 0.0 && std::isfinite(fixedVariance)))
        throw std::invalid_argument("the fixed noise variance must be positive");
    const bool network = noise == NoiseKind::Network;
    NlfaModel model;
    model.shape.inputs = latent;
    model.shape.hidden = hidden;
    model.shape.outputs = static_cast<int>(network ? 2 * dim : dim);
    model.shape.activation = activation;
    (void)Mlp(model.shape); // checks the sizes
    model.theta = Mlp::initialWeights(model.shape, seed);
    const Vector mean = rows.rowwise().mean();
    model.theta.tail(dim) = mean;
    const Vector var = (rows.colwise() - mean).rowwise().squaredNorm() / double(n);
    model.noise = noise;
    if (network) {
        // [μ; log σ²]: the log σ² head starts flat at the log column variances (§8).
        const Eigen::Index top = hidden.empty() ? latent : hidden.back();
        const Eigen::Index weights = model.theta.size() - 2 * dim * top - 2 * dim;
        Eigen::Map<Matrix>(model.theta.data() + weights, 2 * dim, top).bottomRows(dim).setZero();
        model.theta.tail(2 * dim) << mean, var.array().log().matrix();
        model.logVarFloor = (kNetworkNoiseFloor * var.array()).log();
        model.logVarCeiling = (kNetworkNoiseCeiling * var.array()).log();
    } else if (noise == NoiseKind::Diagonal) {
        model.gamma = var.array().log();
        model.gammaFloor = (1e-6 * var.array()).log();
    } else {
        model.gamma = Vector::Constant(1, std::log(var.mean()));
        model.gammaFloor = Vector::Constant(1, std::log(1e-6 * var.mean()));
        if (noise == NoiseKind::Fixed)
            model.gamma(0) = model.gammaFloor(0) = std::log(fixedVariance);
    }
    return model;
}

Eigen::RowVectorXd klToStandard(const ConstMatrixRef& M, const ConstMatrixRef& logVar) {
    return 0.5 * (logVar.array().exp() + M.array().square() - 1.0 - logVar.array()).colwise().sum();
}

void ElboPass::logLik(const NlfaModel& model, const ConstMatrixRef& X, const ConstMatrixRef& Z,
                      Eigen::Ref<Eigen::RowVectorXd> out) {
    logLikOf(model, X, m_net.forward(model.theta, Z), out);
}

Matrix ElboPass::decodeLogVar(const NlfaModel& model, const ConstMatrixRef& Z) {
    const Matrix& f = m_net.forward(model.theta, Z);
    const Eigen::Index dim = model.dim();
    Matrix out(dim, Z.cols());
    for (Eigen::Index n = 0; n < Z.cols(); ++n)
        for (Eigen::Index d = 0; d < dim; ++d)
            out(d, n) = clampedLogVar(model, f(dim + d, n), d);
    return out;
}

void ElboPass::networkLogLik(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f,
                             Eigen::Ref<Eigen::RowVectorXd> out) {
    const Eigen::Index dim = X.rows();
    m_S.resize(dim, X.cols());
    const double constant = -0.5 * double(dim) * kLog2Pi;
    for (Eigen::Index n = 0; n < X.cols(); ++n) {
        double sum = 0.0;
        for (Eigen::Index d = 0; d < dim; ++d) {
            const double s = clampedLogVar(model, f(dim + d, n), d);
            const double r = X(d, n) - f(d, n);
            m_S(d, n) = s;
            sum += s + r * r * std::exp(-s);
        }
        out(n) = constant - 0.5 * sum;
    }
}

void ElboPass::networkResiduals(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f) {
    // dL/dμ_d = (x_d − μ_d) e^{−s_d}; dL/ds_d = −½ + ½ (x_d − μ_d)² e^{−s_d} where the clamp
    // lets the raw output through, else 0 (§8). m_S holds the clamped s.
    const Eigen::Index dim = X.rows();
    m_R.resize(2 * dim, X.cols());
    for (Eigen::Index n = 0; n < X.cols(); ++n)
        for (Eigen::Index d = 0; d < dim; ++d) {
            const double r = X(d, n) - f(d, n), inv = std::exp(-m_S(d, n));
            const double raw = f(dim + d, n);
            const bool free = raw > model.logVarFloor(d) && raw < model.logVarCeiling(d);
            m_R(d, n) = r * inv;
            m_R(dim + d, n) = free ? -0.5 + 0.5 * r * r * inv : 0.0;
        }
}

void ElboPass::logLikOf(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f,
                        Eigen::Ref<Eigen::RowVectorXd> out) {
    if (model.noise == NoiseKind::Network) {
        networkLogLik(model, X, f, out);
        return;
    }
    const Eigen::Index dim = X.rows();
    m_invPsi.resize(dim);
    double logDet = 0.0;
    for (Eigen::Index d = 0; d < dim; ++d) {
        m_invPsi(d) = std::exp(-model.logPsi(d));
        logDet += model.logPsi(d);
    }
    const double constant = -0.5 * (double(dim) * kLog2Pi + logDet);
    for (Eigen::Index n = 0; n < X.cols(); ++n)
        out(n) = constant - 0.5 * (X.col(n) - f.col(n)).cwiseAbs2().dot(m_invPsi);
}

void ElboPass::run(const NlfaModel& model, const ConstMatrixRef& X, const ConstMatrixRef& M,
                   const ConstMatrixRef& logVar, const ConstMatrixRef& eps,
                   Eigen::Ref<Eigen::RowVectorXd> values, ElboGradient* grad) {
    const Eigen::Index dim = X.rows(), n = X.cols();
    m_Z = M + (0.5 * logVar.array()).exp().matrix().cwiseProduct(eps);
    const Matrix& f = m_net.forward(model.theta, m_Z);
    logLikOf(model, X, f, values); // leaves 1/ψ in m_invPsi (Network: log σ² in m_S)
    m_logLik = values;
    values -= klToStandard(M, logVar);
    if (!grad)
        return;
    grad->theta.resize(model.theta.size());
    grad->gamma.setZero(model.gamma.size());
    if (model.noise == NoiseKind::Network)
        networkResiduals(model, X, f);
    else
        m_R = (X - f).array().colwise() * m_invPsi.array(); // (x − f) / ψ
    if (model.learnsGamma()) {
        // dL/dγ_d = −½ + ½ (x_d − f_d)² / ψ_d, summed over the columns (and d for σ²I).
        for (Eigen::Index d = 0; d < dim; ++d) {
            const double g =
                -0.5 * double(n) + 0.5 * (X.row(d) - f.row(d)).squaredNorm() * m_invPsi(d);
            grad->gamma(grad->gamma.size() == 1 ? 0 : d) += g;
        }
    }
    m_net.backward(model.theta, m_R, grad->theta, &m_dZ); // g_z in m_dZ
    grad->mean = m_dZ - M;
    grad->logVar =
        0.5 * m_dZ.cwiseProduct(eps).cwiseProduct((0.5 * logVar.array()).exp().matrix()) -
        0.5 * (logVar.array().exp() - 1.0).matrix();
}

} // namespace fa
