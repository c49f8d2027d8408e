#include "core/latent/FaBatchEm.h"

#include "core/math/SymmetricEigen.h"
#include "core/models/Ppca.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fa {

FaBatchEm::FaBatchEm(const ConstMatrixRef& X, const FaEmOptions& options) : m_options(options) {
    const Eigen::Index n = X.rows(), dim = X.cols(), k = options.latent;
    if (n < 2)
        throw std::invalid_argument("batch EM needs at least two rows");
    if (k < 1 || k >= dim || k >= n)
        throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D and K < N");
    if (!X.allFinite())
        throw std::invalid_argument("the data contain a value that is not finite");
    if (!(options.psiFloor > 0.0 && options.psiFloor < 1.0))
        throw std::invalid_argument(
            "the floor on psi must lie in (0, 1) (a share of the variance)");
    if (options.prior == FaPrior::Independent)
        throw std::invalid_argument("the independent prior is the Gibbs sampler's: batch EM takes "
                                    "none, jeffreys or conjugate");
    if (options.prior == FaPrior::Conjugate &&
        !(options.nu0 > 0.0 && options.tau0 > 0.0 && options.lambda0 > 0.0 &&
          std::isfinite(options.nu0 * options.tau0 * options.lambda0)))
        throw std::invalid_argument("the conjugate prior needs positive, finite ν₀, τ₀² and λ₀");
    m_mean = X.colwise().mean().transpose(); // the ML mean, exactly (§1.1)
    m_X = X.rowwise() - m_mean.transpose();
    m_varX = m_X.colwise().squaredNorm().transpose() / static_cast<double>(n);
    for (Eigen::Index d = 0; d < dim; ++d)
        if (!(m_varX(d) > 0.0))
            throw std::invalid_argument("column " + std::to_string(d + 1) +
                                        " is constant: it has no variance to explain");

    // Start: the PPCA closed form (§3.1), F = W, ψ_d = σ² (floored).
    const PpcaModel start = ppcaClosedForm(X, k);
    m_F = start.W;
    m_psi = (options.psiFloor * m_varX).cwiseMax(start.sigma2);
    m_previousPsi = m_psi;
}

FaBatchEm::EStep FaBatchEm::eStep(const Matrix& F, const Vector& psi, const ConstMatrixRef& rows) {
    const Eigen::Index k = F.cols();
    EStep e;
    e.A = F.array().colwise() / psi.array();            // Ψ⁻¹F
    e.M = Matrix::Identity(k, k) + F.transpose() * e.A; // I + FᵀΨ⁻¹F
    const Eigen::LLT<Matrix> llt(e.M);
    e.G = llt.solve(Matrix::Identity(k, k)); // M⁻¹
    e.logDetM = 2.0 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum();
    e.Z = (rows * e.A) * e.G; // m_n = G Aᵀ x̃_n
    return e;
}

double FaBatchEm::loglik(const EStep& e, const Matrix& F, const Vector& psi,
                         const ConstMatrixRef& rows) {
    const auto n = static_cast<double>(rows.rows());
    const auto dim = static_cast<double>(psi.size());
    // x̃ᵀC⁻¹x̃ = (x̃ - F m_n)ᵀΨ⁻¹(x̃ - F m_n) + m_nᵀm_n (Woodbury, with m_n = G Aᵀ x̃): the
    // residual is formed before the division by ψ, so a ψ_d at the floor (a Heywood case) costs
    // no cancellation between terms of size 1/ψ_d, as x̃ᵀΨ⁻¹x̃ - m_nᵀ M m_n would (1e-8 per row).
    // log|C| = Σ log ψ_d + log|M| (the determinant lemma).
    const Matrix residual = rows - e.Z * F.transpose();
    const double quad =
        (residual.array().square().rowwise() / psi.transpose().array()).sum() + e.Z.squaredNorm();
    return -0.5 * (dim * kLog2Pi + psi.array().log().sum() + e.logDetM + quad / n);
}

double FaBatchEm::elbo(const EStep& e, const Matrix& F, const Vector& psi) const {
    const auto n = static_cast<double>(m_X.rows());
    const auto dim = static_cast<double>(psi.size());
    const auto k = static_cast<double>(F.cols());
    // Expected complete-data log-likelihood under q_n = N(m_n, G) ...
    const Matrix residual = m_X - e.Z * F.transpose();
    const Vector spread = ((F * e.G).array() * F.array()).rowwise().sum(); // f_dᵀ G f_d
    const Vector perCoordinate = residual.colwise().squaredNorm().transpose() / n + spread;
    const double expected = -0.5 * (dim * kLog2Pi + psi.array().log().sum() +
                                    (perCoordinate.array() / psi.array()).sum());
    // ... minus KL(q_n || N(0, I)), log|G| = -log|M|.
    const double kl = 0.5 * (e.G.trace() + e.Z.squaredNorm() / n - k + e.logDetM);
    return expected - kl;
}

FaEmStep FaBatchEm::iterate() {
    FaEmStep step;
    const EStep e = eStep(m_F, m_psi, m_X);
    step.loglik = loglik(e, m_F, m_psi, m_X);
    step.elboAfterE = elbo(e, m_F, m_psi);
    step.logPosterior = step.loglik + logPrior(m_F, m_psi);

    // M step (eqs 26–29): F = S_xz S_zz⁻¹ (conjugate prior: (S_zz + λ₀ I)⁻¹), then ψ with the
    // new F, its divisor N (ML), N + 2 (eq 4) or N + ν₀ + K + 2 (conjugate), floored (§1.6–1.7).
    const auto n = static_cast<double>(m_X.rows());
    const auto k = static_cast<double>(m_F.cols());
    const bool conjugate = m_options.prior == FaPrior::Conjugate;
    Matrix szz = n * e.G + e.Z.transpose() * e.Z;
    if (conjugate)
        szz.diagonal().array() += m_options.lambda0;
    const Matrix sxz = m_X.transpose() * e.Z;
    const Matrix F = szz.llt().solve(sxz.transpose()).transpose();
    const Vector explained = (F.array() * sxz.array()).rowwise().sum().matrix();
    Vector psi = m_varX - explained / n; // maximum likelihood, as eq 29 writes it
    if (m_options.prior == FaPrior::Jeffreys)
        psi = (n * m_varX - explained) / (n + 2.0);
    if (conjugate)
        psi = (n * m_varX - explained + m_options.nu0 * m_options.tau0 * m_varX) /
              (n + m_options.nu0 + k + 2.0);
    psi = psi.cwiseMax(m_options.psiFloor * m_varX);
    if (!F.allFinite() || !psi.allFinite() || !std::isfinite(step.loglik)) {
        m_diverged = true;
        step.elboAfterM = std::numeric_limits<double>::quiet_NaN(); // no M step was taken
        return step;
    }
    step.elboAfterM = elbo(e, F, psi);

    if (m_iterations > 0)
        m_converged = std::abs(step.logPosterior - m_lastObjective) <
                      m_options.tolerance * (1.0 + std::abs(step.loglik));
    m_lastObjective = step.logPosterior;
    m_previousPsi = m_psi;
    m_F = F;
    m_psi = psi;
    ++m_iterations;
    return step;
}

double FaBatchEm::logPrior(const Matrix& F, const Vector& psi) const {
    const auto n = static_cast<double>(m_X.rows());
    switch (m_options.prior) {
    case FaPrior::None:
    case FaPrior::Independent: // refused by the constructor
        return 0.0;
    case FaPrior::Jeffreys:
        return -psi.array().log().sum() / n;
    case FaPrior::Conjugate: {
        const double k = static_cast<double>(F.cols()), nu = m_options.nu0;
        const Vector quad =
            nu * m_options.tau0 * m_varX + m_options.lambda0 * F.rowwise().squaredNorm();
        return (-(nu / 2.0 + 1.0 + k / 2.0) * psi.array().log().sum() -
                0.5 * (quad.array() / psi.array()).sum()) /
               n;
    }
    }
    return 0.0;
}

Matrix canonicalLoadings(const Matrix& F, const Vector& psi) {
    const Matrix scaled = F.array().colwise() / psi.array().sqrt();
    const SymmetricEigen eig = symmetricEigen(scaled.transpose() * scaled); // ascending
    Matrix out = F * eig.vectors.rowwise().reverse();
    for (Eigen::Index j = 0; j < out.cols(); ++j) {
        Eigen::Index largest = 0;
        out.col(j).cwiseAbs().maxCoeff(&largest);
        if (out(largest, j) < 0.0)
            out.col(j) *= -1.0;
    }
    return out;
}

double FaBatchEm::loglikPerRow() const {
    return loglik(eStep(m_F, m_psi, m_X), m_F, m_psi, m_X);
}

double FaBatchEm::loglikPerRow(const ConstMatrixRef& rows) const {
    if (rows.cols() != m_F.rows())
        throw std::invalid_argument("held-out rows must have as many columns as the data");
    const Matrix centred = rows.rowwise() - m_mean.transpose();
    return loglik(eStep(m_F, m_psi, centred), m_F, m_psi, centred);
}

double faLoglikPerRow(const FAModel& model, const ConstMatrixRef& rows) {
    if (rows.cols() != model.F.rows())
        throw std::invalid_argument("the rows must have as many columns as the model");
    const Matrix centred = rows.rowwise() - model.c.transpose();
    return FaBatchEm::loglik(FaBatchEm::eStep(model.F, model.psi, centred), model.F, model.psi,
                             centred);
}

std::vector<Eigen::Index> heywoodColumns(const Vector& psi, const Vector& previous,
                                         const Vector& variances, double floor) {
    std::vector<Eigen::Index> out;
    for (Eigen::Index d = 0; d < psi.size(); ++d) {
        const bool atFloor = psi(d) <= floor * variances(d) * (1.0 + 1e-12);
        const bool falling =
            previous.size() == psi.size() && psi(d) < 1e-3 * variances(d) && psi(d) < previous(d);
        if (atFloor || falling)
            out.push_back(d);
    }
    return out;
}

std::vector<Eigen::Index> FaBatchEm::heywood() const {
    return heywoodColumns(m_psi, m_iterations > 0 ? m_previousPsi : Vector(), m_varX,
                          m_options.psiFloor);
}

FitStatus FaBatchEm::status() const {
    return m_diverged ? FitStatus::Diverged : FitStatus::Running;
}

} // namespace fa
