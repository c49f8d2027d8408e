#include "core/vae/NlfaModel.h"

#include "core/lab/NameTable.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

namespace {
constexpr Named<NoiseKind> kNoiseNames[] = {{NoiseKind::Diagonal, "diagonal"},
                                            {NoiseKind::Isotropic, "isotropic"},
                                            {NoiseKind::Fixed, "fixed"}};
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
    NlfaModel model;
    model.shape.inputs = latent;
    model.shape.hidden = hidden;
    model.shape.outputs = static_cast<int>(dim);
    model.shape.activation = activation;
    (void)Mlp(model.shape); // checks the sizes
    model.theta = Mlp::initialWeights(model.shape, seed);
    const Vector mean = rows.rowwise().mean();
    model.theta.tail(dim) = mean;
    const Vector var = (rows.colwise() - mean).rowwise().squaredNorm() / double(n);
    model.noise = noise;
    if (noise == NoiseKind::Diagonal) {
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

void ElboPass::logLikOf(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f,
                        Eigen::Ref<Eigen::RowVectorXd> out) {
    const Eigen::Index dim = X.rows();
    m_invPsi.resize(dim);
    double logDet = 0.0;
    for (Eigen::Index d = 0; d < dim; ++d) {
        m_invPsi(d) = std::exp(-model.logPsi(d));
        logDet += model.logPsi(d);
    }
    const double constant = -0.5 * (double(dim) * std::log(2.0 * std::numbers::pi) + logDet);
    for (Eigen::Index n = 0; n < X.cols(); ++n)
        out(n) = constant - 0.5 * (X.col(n) - f.col(n)).cwiseAbs2().dot(m_invPsi);
}

void ElboPass::run(const NlfaModel& model, const ConstMatrixRef& X, const ConstMatrixRef& M,
                   const ConstMatrixRef& logVar, const ConstMatrixRef& eps,
                   Eigen::Ref<Eigen::RowVectorXd> values, ElboGradient* grad) {
    const Eigen::Index dim = X.rows(), n = X.cols();
    m_Z = M + (0.5 * logVar.array()).exp().matrix().cwiseProduct(eps);
    const Matrix& f = m_net.forward(model.theta, m_Z);
    logLikOf(model, X, f, values); // leaves 1/ψ in m_invPsi
    values -= klToStandard(M, logVar);
    if (!grad)
        return;
    m_R = (X - f).array().colwise() * m_invPsi.array(); // (x − f) / ψ
    grad->theta.resize(model.theta.size());
    grad->gamma.setZero(model.gamma.size());
    if (model.noise != NoiseKind::Fixed) {
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
