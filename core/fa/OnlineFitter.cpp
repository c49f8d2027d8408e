#include "core/fa/OnlineFitter.h"

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
    if (!invertSpd(m_inner, m_sigma))
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
    const Eigen::Index K = options.latent;
    m_psi = Vector::Ones(dim);
    if (options.startScale.size() > 0) {
        if (options.startScale.size() != dim || !(options.startScale.array() > 0.0).all() ||
            !options.startScale.allFinite())
            throw std::invalid_argument("the start's scale must be D positive finite numbers");
        m_psi = options.startScale.cwiseAbs2().cwiseMax(options.psiFloor);
    }
    m_mean = Vector::Zero(dim);
    m_d = Vector::Zero(dim);
    m_yy = Matrix::Zero(K, K);
    m_yd = Vector::Zero(K);
    m_m = Vector::Zero(K);
}

void OnlineFitter::setPassThreads(int n, long minRows, long blockRows) {
    m_passThreads = stream::PassThreads(n, minRows, blockRows);
}

void OnlineFitter::observe(const ConstVectorRef& theta) {
    if (m_status == FitStatus::Diverged)
        return;
    ++m_t;
    const PassResult r = pass(theta.data());
    if (!r.stateFinite) { // the previous observation's M step went non-finite
        m_status = FitStatus::Diverged;
        m_divergedAt = --m_t;
        return;
    }
    if (!r.meanFinite) {
        m_status = FitStatus::Diverged;
        m_divergedAt = m_t;
        return;
    }
    m_status = m_t <= m_options.warmup ? FitStatus::WarmUp : FitStatus::Running;
}

void OnlineFitter::describeRows(stream::RowsPass& p, const double* x) const {
    p.dim = m_dim;
    p.latent = m_options.latent;
    p.mean = m_mean.data();
    p.d = m_d.data();
    p.psi = m_psi.data();
    p.pending = m_pending;
    p.psiFloor = m_options.psiFloor;
    p.m = m_m.data();
    p.x = x;
    p.t = static_cast<double>(m_t);
}

void OnlineFitter::settle() const {
    if (!m_pending || m_status == FitStatus::Diverged)
        return;
    if (!pass(nullptr).stateFinite) {
        m_status = FitStatus::Diverged;
        m_divergedAt = m_t;
    }
}

void OnlineFitter::solveEStep(const Matrix* T) const {
    const Eigen::Index K = m_options.latent;
    m_yy.triangularView<Eigen::StrictlyUpper>() = m_yy.transpose();
    if (T) {
        congruence(*T, m_yy, m_S, m_tmp);
        m_p.noalias() = T->transpose() * m_yd;
    } else {
        m_S = m_yy;
        m_p = m_yd;
    }
    m_S.diagonal().array() += 1.0;
    if (!invertSpd(m_S, m_sigma))
        m_sigma.setConstant(K, K, std::numeric_limits<double>::quiet_NaN()); // flags divergence
    m_m.noalias() = m_sigma * m_p;
}

FitStatus OnlineFitter::status() const {
    settle();
    return m_status;
}

long OnlineFitter::step() const {
    settle();
    return m_t;
}

long OnlineFitter::divergedAt() const {
    settle();
    return m_divergedAt;
}

const Matrix& OnlineFitter::loadings() const {
    settle();
    return currentLoadings();
}

const Vector& OnlineFitter::psi() const {
    settle();
    return m_psi;
}

Matrix OnlineFitter::loadingRows(const std::vector<Eigen::Index>& rows) const {
    return loadings()(rows, Eigen::all);
}

FAModel OnlineFitter::model() const {
    settle();
    return {m_mean, currentLoadings(), m_psi};
}

FitSnapshot OnlineFitter::snapshot() const {
    settle();
    FitSnapshot s;
    s.step = m_t;
    s.model = FAModel{m_mean, currentLoadings(), m_psi};
    s.status = m_status;
    s.divergedAt = m_divergedAt;
    s.psiClamps = m_psiClamps;
    return s;
}

} // namespace fa
