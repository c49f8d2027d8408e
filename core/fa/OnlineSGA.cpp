#include "core/fa/OnlineSGA.h"

#include <stdexcept>

namespace fa {

OnlineSGA::OnlineSGA(Eigen::Index dim, const OnlineOptions& options)
    : OnlineFitter(dim, options), m_beta(m_psi.array().log()) {}

void OnlineSGA::setLearningRate(double eta) {
    if (!(eta > 0.0))
        throw std::invalid_argument("learning rate must be positive");
    m_options.learningRate = eta;
}

namespace {
// Per-thread buffers keep the static gradient function allocation-free after the first call.
struct GradientBuffers {
    EStep estep;
    Matrix M, FM;
    Vector Fm;
};
} // namespace

void OnlineSGA::gradients(const Matrix& F, const Vector& psi, const Vector& d, Matrix& gradF,
                          Vector& gradBeta) {
    thread_local GradientBuffers b;
    b.estep.compute(F, psi, d);
    const Vector& m = b.estep.m();
    b.M = b.estep.sigma();
    b.M.noalias() += m * m.transpose(); // Sigma + m m^T
    b.FM.noalias() = F * b.M;
    b.Fm.noalias() = F * m;
    // grad_F = psi^-1 .* (d m^T - F (Sigma + m m^T))
    gradF.noalias() = d * m.transpose();
    gradF -= b.FM;
    gradF.array().colwise() /= psi.array();
    // grad_psi = 1/2 psi^-2 .* (d^2 - 2 d .* F m + rowsum(F M .* F)) - 1/2 psi^-1; grad_beta =
    // grad_psi .* psi
    gradBeta = 0.5 * ((d.array().square() - 2.0 * d.array() * b.Fm.array() +
                       (b.FM.array() * F.array()).rowwise().sum()) /
                          psi.array() -
                      1.0);
}

void OnlineSGA::update(const Vector& d, bool warm) {
    if (warm)
        return; // only the running mean moves during warm-up
    gradients(m_F, m_psi, d, m_gradF, m_gradBeta);
    m_F += m_options.learningRate * m_gradF;
    m_beta += m_options.learningRate * m_gradBeta;
    m_psi = m_beta.array().exp();
    const long clamps = clampPsi(m_psi);
    if (clamps > 0) {
        m_psiClamps += clamps;
        m_beta = m_psi.array().log();
    }
}

} // namespace fa
