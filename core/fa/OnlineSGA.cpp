#include "core/fa/OnlineSGA.h"

#include "core/fa/ModelGenerator.h"
#include "core/fa/StreamPass.h"

#include <cmath>
#include <stdexcept>

namespace fa {

OnlineSGA::OnlineSGA(Eigen::Index dim, const OnlineOptions& options)
    : OnlineFitter(dim, options), m_beta(m_psi.array().log()), m_eta(options.learningRate) {
    Rng rng(options.initSeed);
    m_F = randomOrthonormalFrame(dim, options.latent, rng);
    if (options.startScale.size() > 0)
        m_F = options.startScale.asDiagonal() * m_F;
}

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

void expBlock(const double* in, double* out, long n) {
    Eigen::Map<Eigen::ArrayXd>(out, n) = Eigen::Map<const Eigen::ArrayXd>(in, n).exp();
}
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

OnlineFitter::PassResult OnlineSGA::pass(const double* x) const {
    // The pending step (gradients at the old F, psi and that observation's d and E step)
    // finishes first; only the running mean moves during warm-up, so no E step is formed then.
    stream::SgaPass p;
    describeRows(p, x);
    p.F = m_F.data();
    p.beta = m_beta.data();
    p.eta = m_eta;
    p.logPsiFloor = std::log(m_options.psiFloor);
    p.M = m_M.data();
    p.expBlock = &expBlock;
    p.reduce = m_t > m_options.warmup;
    const PassResult r = runPass(p);
    if (!x || !p.reduce)
        return r;
    solveEStep(nullptr);
    m_M = m_sigma;
    m_M.noalias() += m_m * m_m.transpose();
    m_eta = m_options.learningRate;
    m_pending = true;
    return r;
}

} // namespace fa
