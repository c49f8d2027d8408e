#pragma once
// Batch EM for factor analysis exactly as the slides write it ("Lap 6" eqs 11–29;
// docs/maths/latent.md §1): the mean fixed at the row mean, the E step's posterior moments of every
// z_n, the M step's F and Ψ, and per iteration the three numbers of the EM staircase: the exact
// log-likelihood ℓ(Θ_t), the ELBO of the E step's q_t at Θ_t (equal to ℓ(Θ_t): "Track this
// quantity!") and the ELBO of q_t at the new Θ_{t+1} (between ℓ(Θ_t) and ℓ(Θ_{t+1})). The ELBO is
// computed from its own formula (§1.5), never copied from ℓ, so the touching is a test.
// Start: the PPCA closed form (§3.1). Ψ is floored at ε S_dd (Heywood cases, §1.6).
// Batch work, O(N D K) per iteration; nothing D x D is formed.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/latent/FaPrior.h"
#include "core/math/Types.h"

#include <vector>

namespace fa {

struct FaEmOptions {
    int latent = 2;
    double psiFloor = 1e-6;   ///< ε: ψ_d >= ε S_dd, S_dd the variance of column d (ddof 0)
    double tolerance = 1e-10; ///< converged when |Δ objective| < tolerance (1 + |ℓ|), per row
    /// The M step's prior (§1.7): None (maximum likelihood), Jeffreys (the slides' eq 4,
    /// p(Θ) ∝ Π_d ψ_d⁻¹: ψ_d's divisor N becomes N + 2) or Conjugate (keeps every ψ_d away
    /// from 0); Independent is the sampler's and is refused.
    FaPrior prior = FaPrior::None;
    double nu0 = ConjugateHyper{}.nu0;         ///< ν₀ (conjugate prior)
    double tau0 = ConjugateHyper{}.tau0;       ///< τ₀² as a share of S_dd (conjugate prior)
    double lambda0 = ConjugateHyper{}.lambda0; ///< λ₀ (conjugate prior)
};

/// One iteration's staircase, every value per row (divided by N).
struct FaEmStep {
    double loglik = 0.0;     ///< ℓ(Θ_t), exact (Woodbury and the determinant lemma)
    double elboAfterE = 0.0; ///< ELBO(q_t, Θ_t): equals loglik
    double elboAfterM = 0.0; ///< ELBO(q_t, Θ_{t+1}): loglik <= this <= the next loglik
    /// ℓ(Θ_t) + log p(Θ_t) / N: what MAP EM never decreases (= loglik without a prior).
    double logPosterior = 0.0;
};

/// The Heywood rule every FA fitter shares (§1.6): coordinates d whose ψ_d is at the floor
/// (floor · S_dd) or below 1e-3 S_dd and below its previous value (previous may be empty: no
/// iteration yet).
std::vector<Eigen::Index> heywoodColumns(const Vector& psi, const Vector& previous,
                                         const Vector& variances, double floor);

/// F in canonical rotation for display (§1.5): F Q with FᵀΨ⁻¹F = QΛQᵀ, columns by decreasing
/// Λ, each column's sign making its largest |entry| positive. F Fᵀ is unchanged.
Matrix canonicalLoadings(const Matrix& F, const Vector& psi);

/// Average log N(x_n; c, F Fᵀ + Ψ) over the rows (complete), by Woodbury and the determinant
/// lemma: O(N D K), nothing D x D.
double faLoglikPerRow(const FAModel& model, const ConstMatrixRef& rows);

class FaBatchEm : public GaussianFit {
  public:
    /// X holds one observation per row (N x D). Throws std::invalid_argument unless N >= 2,
    /// 1 <= K < D and every entry is finite.
    FaBatchEm(const ConstMatrixRef& X, const FaEmOptions& options);

    /// One E step and one M step; returns the staircase of this iteration.
    FaEmStep iterate();
    long iterations() const { return m_iterations; }
    bool converged() const { return m_converged; }

    /// Average log-likelihood of the fitting rows under the current parameters.
    double loglikPerRow() const;
    /// log p(Θ) / N of the current parameters under the options' prior (0 without one).
    double logPriorPerRow() const { return logPrior(m_F, m_psi); }
    /// Average log-likelihood of other rows (one per row, D columns) under the current
    /// parameters, with the fitting rows' mean.
    double loglikPerRow(const ConstMatrixRef& rows) const;
    /// Coordinates d whose ψ_d is at the floor, or below 1e-3 S_dd and still falling: a Heywood
    /// case (docs/maths/latent.md §1.6).
    std::vector<Eigen::Index> heywood() const;

    FitStatus status() const override;
    FAModel model() const override { return {m_mean, m_F, m_psi}; }
    const Vector& columnVariances() const { return m_varX; }

  private:
    struct EStep {
        Matrix A, Z; ///< Ψ⁻¹F (D x K); posterior means m_n as rows (N x K)
        Matrix M;    ///< I + FᵀΨ⁻¹F (K x K)
        Matrix G;    ///< M⁻¹, the posterior covariance shared by every row (K x K)
        double logDetM = 0.0;
    };
    static EStep eStep(const Matrix& F, const Vector& psi, const ConstMatrixRef& rows);
    /// ℓ per row of rows at (F, ψ) from an E step there.
    static double loglik(const EStep& e, const Matrix& F, const Vector& psi,
                         const ConstMatrixRef& rows);
    friend double faLoglikPerRow(const FAModel& model, const ConstMatrixRef& rows);
    /// ELBO per row of q = N(m_n, G) (from e) at the parameters (F, ψ).
    double elbo(const EStep& e, const Matrix& F, const Vector& psi) const;
    double logPrior(const Matrix& F, const Vector& psi) const;

    FaEmOptions m_options;
    Matrix m_X; ///< centred rows, N x D
    Vector m_mean, m_varX;
    Matrix m_F;
    Vector m_psi, m_previousPsi;
    long m_iterations = 0;
    double m_lastObjective = 0.0;
    bool m_converged = false, m_diverged = false;
};

} // namespace fa
