#include "core/metrics/MarginalViews.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

Marginal2 marginal2(const ConstVectorRef& c, const ConstMatrixRef& F, const ConstVectorRef& psi,
                    Eigen::Index i, Eigen::Index j) {
    if (i < 0 || j < 0 || i >= F.rows() || j >= F.rows())
        throw std::invalid_argument("marginal coordinates out of range");
    Marginal2 m;
    m.mean << c[i], c[j];
    m.cov(0, 0) = F.row(i).squaredNorm() + psi[i];
    m.cov(1, 1) = F.row(j).squaredNorm() + psi[j];
    m.cov(0, 1) = m.cov(1, 0) = F.row(i).dot(F.row(j)) + (i == j ? psi[i] : 0.0);
    return m;
}

Matrix covarianceBlock(const ConstMatrixRef& F, const ConstVectorRef& psi, Eigen::Index size) {
    const Eigen::Index b = std::min(size, F.rows());
    Matrix block = F.topRows(b) * F.topRows(b).transpose();
    block.diagonal() += psi.head(b);
    return block;
}

double massRadius(double mass) {
    if (!(mass > 0.0 && mass < 1.0))
        throw std::invalid_argument("probability mass must lie in (0, 1)");
    return std::sqrt(-2.0 * std::log1p(-mass));
}

std::vector<Eigen::Vector2d> massEllipse(const Marginal2& g, double mass, int points) {
    const Eigen::LLT<Eigen::Matrix2d> llt(g.cov);
    if (llt.info() != Eigen::Success || !g.cov.allFinite() || !g.mean.allFinite())
        return {};
    const Eigen::Matrix2d L = llt.matrixL();
    const double r = massRadius(mass);
    std::vector<Eigen::Vector2d> out;
    out.reserve(static_cast<std::size_t>(points));
    for (int k = 0; k < points; ++k) {
        const double a = 2.0 * std::numbers::pi * k / (points - 1);
        out.push_back(g.mean + r * L * Eigen::Vector2d(std::cos(a), std::sin(a)));
    }
    out.back() = out.front(); // exactly closed
    return out;
}

std::vector<double> standardMassLevels() {
    return {1.0 - std::exp(-0.5), 1.0 - std::exp(-2.0), 1.0 - std::exp(-4.5)};
}

} // namespace fa
