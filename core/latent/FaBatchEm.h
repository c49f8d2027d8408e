#pragma once
// Batch EM for factor analysis exactly as the slides write it ("Lap 6" eqs 11–29;
// ALGORITHMS-LABS.md §1): the mean fixed at the row mean, the E step's posterior moments of every
// z_n, the M step's F and Ψ, and per iteration the three numbers of the EM staircase: the exact
// log-likelihood ℓ(Θ_t), the ELBO of the E step's q_t at Θ_t (equal to ℓ(Θ_t): "Track this
// quantity!") and the ELBO of q_t at the new Θ_{t+1} (between ℓ(Θ_t) and ℓ(Θ_{t+1})). The ELBO is
// computed from its own formula (§1.5), never copied from ℓ, so the touching is a test.
// Start: the PPCA closed form (§3.1). Ψ is floored at ε S_dd (Heywood cases, §1.6).
// Batch work, O(N D K) per iteration; nothing D x D is formed.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/math/Types.h"

#include <vector>

namespace fa {

struct FaEmOptions {
    int latent = 2;
    double psiFloor = 1e-6;   ///< ε: ψ_d >= ε S_dd, S_dd the variance of column d (ddof 0)
    double tolerance = 1e-10; ///< converged when |Δℓ| < tolerance (1 + |ℓ|), ℓ per row
};

/// One iteration's staircase, every value per row (divided by N).
struct FaEmStep {
    double loglik = 0.0;     ///< ℓ(Θ_t), exact (Woodbury and the determinant lemma)
    double elboAfterE = 0.0; ///< ELBO(q_t, Θ_t): equals loglik
    double elboAfterM = 0.0; ///< ELBO(q_t, Θ_{t+1}): loglik <= this <= the next loglik
};

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
    /// Average log-likelihood of other rows (one per row, D columns) under the current
    /// parameters, with the fitting rows' mean.
    double loglikPerRow(const ConstMatrixRef& rows) const;
    /// Coordinates d whose ψ_d is at the floor, or below 1e-3 S_dd and still falling: a Heywood
    /// case (ALGORITHMS-LABS.md §1.6).
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

    FaEmOptions m_options;
    Matrix m_X; ///< centred rows, N x D
    Vector m_mean, m_varX;
    Matrix m_F;
    Vector m_psi, m_previousPsi;
    long m_iterations = 0;
    double m_lastLoglik = 0.0;
    bool m_converged = false, m_diverged = false;
};

} // namespace fa
