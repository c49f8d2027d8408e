#include "core/fa/OnlineFitter.h"

#include "core/fa/ModelGenerator.h"
#include "core/math/SmallSpd.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {

void checkLearningRate(double eta) {
    if (!(eta >= kLearningRateMin && eta <= kLearningRateMax))
        throw std::invalid_argument("the learning rate must lie within [1e-07, 10]");
}

void EStep::compute(const Matrix& F, const Vector& psi, const Vector& d) {
    const Eigen::Index K = F.cols();
    m_invSqrtPsi = psi.cwiseSqrt().cwiseInverse();
    m_scaledF = F.array().colwise() * m_invSqrtPsi.array();
    m_inner.setIdentity(K, K);
    m_inner.noalias() += m_scaledF.transpose() * m_scaledF;
    if (!invertSpd(m_inner, m_sigma, m_work))
        m_sigma.setConstant(K, K, std::numeric_limits<double>::quiet_NaN()); // flags divergence

    m_scaledD = d.cwiseProduct(m_invSqrtPsi);
    m_proj.noalias() = m_scaledF.transpose() * m_scaledD;
    m_m.noalias() = m_sigma * m_proj;
}

OnlineFitter::OnlineFitter(Eigen::Index dim, const OnlineOptions& options)
    : m_dim(dim), m_options(options) {
    if (options.latent < 1 || options.latent >= dim)
        throw std::invalid_argument("fitted latent K must satisfy 1 <= K < D");
    if (options.warmup < 0)
        throw std::invalid_argument("warm-up length must not be negative");
    if (!(options.learningRate > 0.0))
        throw std::invalid_argument("learning rate must be positive");
    Rng rng(options.initSeed);
    m_F = randomOrthonormalFrame(dim, options.latent, rng);
    m_psi = Vector::Ones(dim);
    m_mean = Vector::Zero(dim);
    m_d = Vector::Zero(dim);
}

void OnlineFitter::observe(const ConstVectorRef& theta) {
    if (m_status == FitStatus::Diverged)
        return;
    ++m_t;
    m_mean += (theta - m_mean) / static_cast<double>(m_t);
    m_d = theta - m_mean;
    const bool warm = m_t <= m_options.warmup;
    update(m_d, warm);
    // O(D K) check, cheap beside the O(D K^2) update; catches NaN and Inf in any state.
    if (!std::isfinite(m_F.sum() + m_psi.sum() + m_mean.sum())) {
        m_status = FitStatus::Diverged;
        m_divergedAt = m_t;
        return;
    }
    m_status = warm ? FitStatus::WarmUp : FitStatus::Running;
}

FitSnapshot OnlineFitter::snapshot() const {
    FitSnapshot s;
    s.step = m_t;
    s.model = FAModel{m_mean, m_F, m_psi};
    s.status = m_status;
    s.divergedAt = m_divergedAt;
    s.psiClamps = m_psiClamps;
    return s;
}

long OnlineFitter::clampPsi(Eigen::Ref<Vector> psi) const {
    long clamps = 0;
    for (Eigen::Index d = 0; d < psi.size(); ++d)
        if (psi[d] < m_options.psiFloor) { // NaN passes through, so divergence is still seen
            psi[d] = m_options.psiFloor;
            ++clamps;
        }
    return clamps;
}

} // namespace fa
