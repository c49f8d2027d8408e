#pragma once
// Gibbs sampling for factor analysis (slides "Lap 6", "Derive the Gibbs updates" I–III;
// docs/maths/latent.md §2). By default semi-conjugate priors, scale-equivariant (v_d the variance
// of column d): f_d ~ N(0, v_d / λ I_K), c_d flat, ψ_d ~ IG(a₀, b v_d). One sweep draws every
// z_n | rest, then every [f_d; c_d] | rest (jointly, which avoids the slow F–c zig-zag), then
// every ψ_d | rest. Under the slides' improper prior p ∝ Π ψ_d⁻¹ or the conjugate prior the last
// two steps are one joint normal-inverse-χ² draw of (f_d, c_d, ψ_d) given Z (§2.5). Several chains
// from dispersed starts. F is identified only up to rotation and sign, so the summaries are of C =
// F Fᵀ + Ψ: its posterior mean, 95 % interval, split-R̂ and effective sample size per entry. Batch
// work, O(N D K + D K³) per sweep and chain.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/latent/FaPrior.h"
#include "core/math/Rng.h"
#include "core/math/Types.h"

#include <cstdint>
#include <vector>

namespace fa {

struct FaGibbsOptions {
    int latent = 2;
    int chains = 4;
    std::uint64_t seed = 0;
    long burnIn = 500;             ///< sweeps of every chain discarded before draws are kept
    int thin = 1;                  ///< keep every thin-th sweep after the burn-in (storage only)
    double priorShape = 1.0;       ///< a₀ of ψ_d ~ IG(a₀, b₀)
    double priorScale = 0.1;       ///< b₀ = priorScale · v_d (> 0 keeps Heywood cases proper)
    double loadingPrecision = 1.0; ///< λ_f = loadingPrecision / v_d
    int maxTracked = 136;          ///< entries of C whose draws are kept (all of them for D <= 16)
    /// Independent: the three priors above (§2.1); Jeffreys (improper, eq 4) or Conjugate: the
    /// joint draw of §2.5 (priorShape, priorScale and loadingPrecision then unused); not None.
    FaPrior prior = FaPrior::Independent;
    ConjugateHyper conjugate; ///< ν₀, τ₀, λ₀ of the conjugate prior (EM's, §1.7)
    double psiFloor = 1e-6;   ///< joint draw: ψ_d >= psiFloor · v_d (§2.5, Heywood cases)
};

/// The exact conditionals one sweep draws from, public so that tests can check them.
namespace gibbs {
/// z_n | x_n, F, Ψ, c ~ N(G Fᵀ Ψ⁻¹ (x_n - c), G) with G = (I + Fᵀ Ψ⁻¹ F)⁻¹, for every row of X
/// (rows are observations); Z (N x K) receives one draw per row.
void drawLatents(const Matrix& F, const Vector& psi, const Vector& c, const ConstMatrixRef& X,
                 Rng& rng, Matrix& Z);
/// E[z | x] = G Fᵀ Ψ⁻¹ (x - c) of every row of X (N x K): the E step's means.
Matrix latentMeans(const Matrix& F, const Vector& psi, const Vector& c, const ConstMatrixRef& X);
/// The mean and covariance of z | x for one row (for the tests and the window's latent view).
void latentPosterior(const Matrix& F, const Vector& psi, const Vector& c, const ConstVectorRef& x,
                     Vector& mean, Matrix& covariance);
/// [f_d; c_d] | Z, x_{·d}, ψ_d ~ N(P⁻¹ b, P⁻¹) with Z̃ = [Z, 1], P = diag(prior) + Z̃ᵀZ̃ / ψ_d
/// and b = Z̃ᵀ x_{·d} / ψ_d; takes the shared Z̃ᵀZ̃ and this column's Z̃ᵀ x_{·d}.
void loadingPosterior(const Matrix& ztz, const Vector& ztx, double psi,
                      const Vector& priorPrecision, Vector& mean, Matrix& precision);
/// ψ_d | rest ~ IG(a₀ + N/2, b₀ + ½ Σ_n r_nd²): returns {shape, rate}.
std::pair<double, double> noisePosterior(double sumSquaredResidual, Eigen::Index n, double a0,
                                         double b0);

/// The joint conditional of every (w_d = [f_d; c_d], ψ_d) given Z under the improper (Jeffreys)
/// or the conjugate prior (§2.5): w_d | ψ_d ~ N(μ_d, ψ_d Λ⁻¹), ψ_d ~ scaled-inv-χ²(ν, s_d²).
struct RowPosterior {
    Matrix means;                 ///< μ_d as columns, (K + 1) x D
    Eigen::LLT<Matrix> precision; ///< Λ, the same for every d
    double dof = 0.0;             ///< ν
    Vector scale;                 ///< s_d²
    bool valid = false;           ///< false when Λ is not positive definite
};
/// X holds the rows (N x D), Z the latents (N x K), variances the v_d (τ²_d = τ₀ v_d).
RowPosterior jointRowPosterior(const Matrix& Z, const ConstMatrixRef& X, const Vector& variances,
                               FaPrior prior, const ConjugateHyper& hyper);
/// One joint draw of every (ψ_d, then w_d) into F's rows, c and ψ, with ψ_d >= floor(d) (redrawn
/// below it; set to it after 64 tries). Returns the columns set to the floor.
std::vector<Eigen::Index> drawJointRows(const RowPosterior& posterior, const Vector& floor,
                                        Rng& rng, Matrix& F, Vector& c, Vector& psi);
} // namespace gibbs

/// One covariance entry's posterior summary over every chain's kept draws.
struct GibbsEntrySummary {
    Eigen::Index row = 0, col = 0;
    double mean = 0.0, lower = 0.0, upper = 0.0; ///< the 2.5 % and 97.5 % quantiles
    double rhat = 0.0, ess = 0.0;                ///< NaN while fewer than 4 draws are kept
};

class FaGibbs : public GaussianFit {
  public:
    /// X holds one observation per row (N x D). Throws std::invalid_argument unless N > K + 1,
    /// 1 <= K < D, 1 <= chains <= 64, burn-in >= 0, thin >= 1, the prior is not None and its
    /// parameters are positive and finite, every entry is finite and no column is constant.
    FaGibbs(const ConstMatrixRef& X, const FaGibbsOptions& options);

    /// One sweep of every chain.
    void sweep();
    long sweeps() const { return m_sweeps; }
    /// Draws kept per chain so far.
    long kept() const { return m_kept; }
    const FaGibbsOptions& options() const { return m_options; }

    /// The posterior mean of C (D x D) and of c over every chain's kept draws; before the first
    /// kept draw, the average of the chains' current values.
    Matrix meanCovariance() const;
    Vector meanMean() const;
    /// Average log-likelihood of the fitting rows (or of other rows) under N(mean c, mean C).
    double loglikPerRow() const;
    double loglikPerRow(const ConstMatrixRef& rows) const;

    /// The entries of C whose draws are kept: all of the upper triangle when it has at most
    /// maxTracked entries, else the diagonal first and then off-diagonal entries row by row.
    const std::vector<std::pair<Eigen::Index, Eigen::Index>>& tracked() const { return m_tracked; }
    /// Kept draws of tracked entry `entry` in chain `chain`.
    const std::vector<double>& trace(int chain, std::size_t entry) const {
        return m_draws[static_cast<std::size_t>(chain)][entry];
    }
    GibbsEntrySummary summarise(std::size_t entry) const;
    std::vector<GibbsEntrySummary> summary() const;

    /// A chain's current draw of (c, F, Ψ).
    FAModel chainState(int chain) const;
    /// Columns whose ψ_d a joint draw has set to the floor (a Heywood case, §2.5), ascending.
    std::vector<Eigen::Index> flooredColumns() const;
    FitStatus status() const override;
    /// The FA model of chain 0's current draw (the posterior mean of C is not FA-shaped: use
    /// meanCovariance()).
    FAModel model() const override { return chainState(0); }

  private:
    struct Chain {
        Matrix Z, F;
        Vector c, psi;
        Rng rng;
    };
    void sweepChain(Chain& chain);
    double loglik(const ConstMatrixRef& rows) const;

    FaGibbsOptions m_options;
    Matrix m_X;
    Vector m_varX, m_priorPrecision;
    std::vector<bool> m_floored; ///< per column: a joint draw was set to the floor
    std::vector<Chain> m_chains;
    std::vector<std::pair<Eigen::Index, Eigen::Index>> m_tracked;
    std::vector<std::vector<std::vector<double>>> m_draws; ///< [chain][entry][draw]
    Matrix m_sumC;                                         ///< upper triangle used
    Vector m_sumMean;
    long m_sweeps = 0, m_kept = 0;
    bool m_diverged = false;
};

} // namespace fa
