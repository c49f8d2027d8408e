// The Gibbs sampler's joint normal-inverse-χ² draw of every row's (f_d, c_d, ψ_d) given the
// latents, under the slides' improper prior p ∝ Π ψ_d⁻¹ or the conjugate prior
// (docs/maths/latent.md §2.5).
#include "core/latent/FaGibbs.h"

#include <cmath>

namespace fa::gibbs {

RowPosterior jointRowPosterior(const Matrix& Z, const ConstMatrixRef& X, const Vector& variances,
                               FaPrior prior, const ConjugateHyper& hyper) {
    const Eigen::Index n = X.rows(), k = Z.cols();
    const bool conjugate = prior == FaPrior::Conjugate;
    Matrix zt(n, k + 1); // Z̃ = [Z, 1]
    zt.leftCols(k) = Z;
    zt.col(k).setOnes();
    Matrix lambda = zt.transpose() * zt; // Λ = Z̃ᵀZ̃ (+ λ₀ on f's block, conjugate)
    if (conjugate)
        lambda.diagonal().head(k).array() += hyper.lambda0;
    RowPosterior p;
    p.precision.compute(lambda);
    p.valid = p.precision.info() == Eigen::Success;
    if (!p.valid)
        return p;
    p.means = p.precision.solve(zt.transpose() * X); // μ_d as columns, (K + 1) x D
    // ν s_d²: the residual sum of squares formed from the residuals (no cancellation between
    // x_dᵀx_d and μ_dᵀΛμ_d), plus the conjugate prior's λ₀ ‖μ_f‖² and ν₀ τ_d².
    Vector ss = (X - zt * p.means).colwise().squaredNorm().transpose();
    if (conjugate)
        ss += hyper.lambda0 * p.means.topRows(k).colwise().squaredNorm().transpose() +
              (hyper.nu0 * hyper.tau0) * variances;
    p.dof = conjugate ? hyper.nu0 + static_cast<double>(n - 1) : static_cast<double>(n - k - 1);
    p.scale = ss / p.dof;
    return p;
}

std::vector<Eigen::Index> drawJointRows(const RowPosterior& p, const Vector& floor, Rng& rng,
                                        Matrix& F, Vector& c, Vector& psi) {
    const Eigen::Index dim = p.means.cols(), k = p.means.rows() - 1;
    std::vector<Eigen::Index> clamped;
    Vector eps(k + 1);
    for (Eigen::Index d = 0; d < dim; ++d) {
        // ψ_d = ν s_d² / χ²_ν with χ²_ν = 2 Gamma(ν/2), redrawn while below the floor (the
        // prior truncated there, §2.5); after 64 draws below it, ψ_d is set to the floor.
        const double rate = 0.5 * p.dof * p.scale(d);
        double v = rate / rng.gamma(0.5 * p.dof);
        for (int tries = 1; v < floor(d) && tries < 64; ++tries)
            v = rate / rng.gamma(0.5 * p.dof);
        if (!(v >= floor(d))) {
            v = floor(d);
            clamped.push_back(d);
        }
        psi(d) = v;
        // w_d | ψ_d ~ N(μ_d, ψ_d Λ⁻¹): μ_d + √ψ_d L⁻ᵀ ε with Λ = L Lᵀ.
        for (Eigen::Index j = 0; j <= k; ++j)
            eps(j) = rng.normal();
        const Vector draw = p.means.col(d) + std::sqrt(v) * p.precision.matrixU().solve(eps);
        F.row(d) = draw.head(k).transpose();
        c(d) = draw(k);
    }
    return clamped;
}

} // namespace fa::gibbs
