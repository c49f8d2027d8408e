#include "core/fa/FAModel.h"

#include <algorithm>
#include <cmath>
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
    return -0.5 * (static_cast<double>(dim()) * kLog2Pi + logDet + quad);
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

namespace {
/// The sampler's row block (its noise 128 KiB, in L2): a multiple of every row block of Eigen's
/// GEMV (8 packets of 4 or 8 doubles), so each row of a block meets the kernel it meets in the
/// whole product. At D = 10^6 a draw took 9.1 ms with blocks of 1024 rows and 6.9 ms with 16384
/// (the GEMV's K column streams restart less often), against 11.5 ms drawn whole
/// (docs/benchmarks.md). A last block
/// of one row is joined to the one before (Eigen takes a 1-row product as a dot product, which
/// sums in another order).
constexpr Eigen::Index kSamplerRows = 16384;
} // namespace

FASampler::FASampler(const FAModel& model)
    : m_model(model), m_sqrtPsi(model.psi.cwiseSqrt()), m_h(model.latent()),
      m_eps(std::min(model.dim(), kSamplerRows + 1)) {}

// h, then eps, are the next K + D normals of the stream, as ever. The rows are done a block at a
// time: the block's eps drawn into m_eps (which stays in cache), then c + sqrt(psi) .* eps + F h
// of the block, so x is written once and eps never goes to memory. Each entry is bitwise that of
// the whole-vector expressions (tests/core/test_normal_fill.cpp).
void FASampler::draw(Rng& rng, Eigen::Ref<Vector> out) {
    rng.fillNormal(m_h);
    const Eigen::Index D = m_model.dim();
    for (Eigen::Index d0 = 0, n = 0; d0 < D; d0 += n) {
        n = D - d0 <= kSamplerRows + 1 ? D - d0 : kSamplerRows;
        auto eps = m_eps.head(n);
        rng.fillNormal(eps);
        auto x = out.segment(d0, n);
        x = m_model.c.segment(d0, n) + m_sqrtPsi.segment(d0, n).cwiseProduct(eps);
        x.noalias() += m_model.F.middleRows(d0, n) * m_h;
    }
}

} // namespace fa
