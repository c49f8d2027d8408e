#include "core/fa/FAModel.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

double FAModel::logDensity(const ConstVectorRef& x) const {
    const Vector invPsi = psi.cwiseInverse();
    const Vector d = x - c;
    const Matrix Fw = F.array().colwise() * invPsi.array(); // Psi^-1 F
    Matrix inner = Matrix::Identity(latent(), latent());
    inner.noalias() += F.transpose() * Fw; // I + F^T Psi^-1 F
    const Eigen::LLT<Matrix> llt(inner);
    const Vector u = Fw.transpose() * d;
    const double quad = d.cwiseProduct(invPsi).dot(d) - u.dot(llt.solve(u));
    const Matrix L = llt.matrixL();
    const double logDet = psi.array().log().sum() + 2.0 * L.diagonal().array().log().sum();
    return -0.5 * (static_cast<double>(dim()) * std::log(2.0 * std::numbers::pi) + logDet + quad);
}

Matrix FAModel::denseCovariance() const {
    Matrix S = F * F.transpose();
    S.diagonal() += psi;
    return S;
}

void FAModel::validate() const {
    if (c.size() != F.rows() || psi.size() != F.rows())
        throw std::invalid_argument("FA model: c, F and psi must have the same number of rows");
    if (!c.allFinite() || !F.allFinite() || !psi.allFinite())
        throw std::invalid_argument("FA model: entries must be finite");
    if (psi.size() > 0 && psi.minCoeff() <= 0.0)
        throw std::invalid_argument("FA model: psi must be positive");
}

FASampler::FASampler(const FAModel& model)
    : m_model(model), m_sqrtPsi(model.psi.cwiseSqrt()), m_h(model.latent()), m_eps(model.dim()) {}

void FASampler::draw(Rng& rng, Eigen::Ref<Vector> out) {
    rng.fillNormal(m_h);
    rng.fillNormal(m_eps);
    out = m_model.c + m_sqrtPsi.cwiseProduct(m_eps);
    out.noalias() += m_model.F * m_h;
}

} // namespace fa
