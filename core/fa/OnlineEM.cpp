#include "core/fa/OnlineEM.h"

#include "core/math/SmallSpd.h"

#include <limits>

namespace fa {

OnlineEM::OnlineEM(Eigen::Index dim, const OnlineOptions& options)
    : OnlineFitter(dim, options), m_A(Matrix::Zero(dim, options.latent)),
      m_B(Matrix::Zero(options.latent, options.latent)), m_d2(Vector::Zero(dim)) {}

void OnlineEM::update(const Vector& d, bool warm) {
    m_estep.compute(m_F, m_psi, d);
    const Vector& m = m_estep.m();
    const double w = 1.0 / static_cast<double>(m_t);
    // Running means in place (x <- (1 - w) x + w new), so no temporaries per observation.
    m_B *= (1.0 - w);
    m_B.noalias() += w * m * m.transpose();
    m_A *= (1.0 - w);
    m_A.noalias() += w * d * m.transpose();
    m_d2 += w * (d.cwiseProduct(d) - m_d2);
    if (warm)
        return; // the statistics accumulate during warm-up; F and psi stay fixed

    m_H = m_estep.sigma() + m_B;
    if (!invertSpd(m_H, m_Hinv, m_work))
        m_Hinv.setConstant(std::numeric_limits<double>::quiet_NaN()); // flags divergence
    m_F.noalias() = m_A * m_Hinv; // F = A H^-1; H is K x K: invert once, then one GEMM
    // psi = d2 + rowsum(F H .* F - 2 F .* A); since F H = A exactly, this is d2 - rowsum(F .* A),
    // which saves a D K^2 product per observation.
    m_psi = m_d2 - (m_F.array() * m_A.array()).rowwise().sum().matrix();
    m_psiClamps += clampPsi(m_psi);
}

} // namespace fa
