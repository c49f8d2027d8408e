#include "core/fa/OnlineEM.h"

#include "core/fa/ModelGenerator.h"
#include "core/fa/StreamPass.h"
#include "core/math/SmallSpd.h"

#include <limits>

namespace fa {

OnlineEM::OnlineEM(Eigen::Index dim, const OnlineOptions& options)
    : OnlineFitter(dim, options), m_A(Matrix::Zero(dim, options.latent)), m_d2(Vector::Zero(dim)),
      m_B(Matrix::Zero(options.latent, options.latent)) {
    Rng rng(options.initSeed);
    m_F0 = randomOrthonormalFrame(dim, options.latent, rng);
    if (options.startScale.size() > 0)
        m_F0 = options.startScale.asDiagonal() * m_F0;
    m_G = Matrix::Identity(options.latent, options.latent);
    m_Gs = m_G;
    m_Gp = m_G;
}

OnlineFitter::PassResult OnlineEM::pass(const double* x) const {
    const Eigen::Index K = m_options.latent;
    // The pending M step (of m_t, or of m_t - 1 when x is observation m_t) finishes first.
    const long finished = x ? m_t - 1 : m_t;
    const bool moves = m_pending && !frameFixed(finished);
    if (m_pending)
        m_FStep = -1; // A moves
    if (moves) {      // G of that step: F = A G, and psi = d2 - rowsum(A G .* A)
        m_G = m_Gp;
        m_Gs = 2.0 * m_G;
        m_Gs.diagonal() = m_G.diagonal();
    }
    stream::EmPass p;
    describeRows(p, x);
    p.A = m_A.data();
    p.d2 = m_d2.data();
    p.F0 = m_F0.data();
    p.fixed = !moves;
    p.w = m_w;
    p.Gs = m_Gs.data();
    p.useF0 = frameFixed(finished);
    const PassResult r = runPass(p);
    if (!x)
        return r;

    // The E step of observation m_t with the F just finished (F0, or A G), then the running
    // mean of m m^T and, after warm-up, H = Sigma + B for its M step.
    solveEStep(p.useF0 ? nullptr : &m_G);
    m_w = 1.0 / static_cast<double>(m_t);
    m_B *= (1.0 - m_w);
    m_B.noalias() += m_w * m_m * m_m.transpose();
    if (!frameFixed(m_t)) {
        m_H = m_sigma + m_B;
        if (!invertSpd(m_H, m_Gp))
            m_Gp.setConstant(K, K, std::numeric_limits<double>::quiet_NaN()); // divergence
    }
    m_pending = true;
    return r;
}

const Matrix& OnlineEM::currentLoadings() const {
    if (frameFixed(m_t))
        return m_F0;
    if (m_FStep != m_t) {
        m_F.noalias() = m_A * m_G;
        m_FStep = m_t;
    }
    return m_F;
}

Matrix OnlineEM::loadingRows(const std::vector<Eigen::Index>& rows) const {
    settle();
    if (frameFixed(m_t))
        return m_F0(rows, Eigen::all);
    return m_A(rows, Eigen::all) * m_G;
}

} // namespace fa
