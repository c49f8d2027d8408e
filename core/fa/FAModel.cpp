#include "core/fa/FAModel.h"
#include <algorithm>

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

std::pair<Eigen::Index, Eigen::Index> mostCorrelatedPair(const FAModel& model, Eigen::Index among) {
    const Eigen::Index n = std::min(model.dim(), std::max<Eigen::Index>(among, 2));
    const auto F = model.F.topRows(n);
    const Matrix G = F * F.transpose();
    const Vector sd = (G.diagonal() + model.psi.head(n)).cwiseSqrt();
    std::pair<Eigen::Index, Eigen::Index> best{0, 1};
    double top = -1.0;
    for (Eigen::Index j = 1; j < n; ++j)
        for (Eigen::Index i = 0; i < j; ++i) {
            const double r = std::abs(G(i, j)) / (sd(i) * sd(j));
            if (r > top || (r == top && std::make_pair(i, j) < best))
                top = r, best = {i, j};
        }
    return best;
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
