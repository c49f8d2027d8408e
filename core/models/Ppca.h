#pragma once
// Probabilistic PCA (Tipping and Bishop 1999; notes "Scalable Bayesian methods: 1) Probabilistic
// PCA"; docs/maths/latent.md §3.1–3.3, §3.5): the closed form, EM in O(N D K) per iteration, EM
// with missing values integrated out exactly (the mean then estimated inside EM), and MAP EM
// under a prior on W and σ² (with or without missing values). Rows are observations (N x D); a
// missing value is a NaN, allowed only with PpcaOptions::missingValues.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/math/Types.h"

#include <cstdint>
#include <optional>

namespace fa {

struct PpcaModel {
    Vector mu;
    Matrix W; ///< D x K
    double sigma2 = 1.0;
    FAModel asFa() const; ///< F = W, ψ = σ² for every coordinate
};

/// The maximum-likelihood PPCA of complete rows: σ² the mean of the D - K discarded eigenvalues
/// of S (ddof 0), W = U_K (Λ_K - σ² I)^½ from the eigen-decomposition of the smaller Gram
/// matrix of the centred rows, min(N, D)² (core/math/TruncatedSvd.h: principalAxes).
/// Throws std::invalid_argument unless N > K, 1 <= K < D and every entry is finite.
PpcaModel ppcaClosedForm(const ConstMatrixRef& rows, int latent);

/// Average log N(x_n; μ, W Wᵀ + σ² I) over the rows' observed (non-NaN) entries; rows with
/// nothing observed are left out of the average (NaN when no row has an observed entry). O(Σ_n
/// |O_n| K + N K³).
double ppcaLoglikPerRow(const PpcaModel& model, const ConstMatrixRef& rows);

/// The prior of MAP EM (§3.5): every column w_k ~ N(0, α⁻¹ I_D), σ² ~ IG(a₀, b₀ v̄) with v̄ the
/// mean observed column variance, μ flat. The defaults a₀ = 1, b₀ = 0.1 are the Gibbs sampler's
/// (§2.1).
struct PpcaPrior {
    double alpha = 1.0; ///< α >= 0, the precision of each loading
    double shape = 1.0; ///< a₀ > 0
    double scale = 0.1; ///< b₀ > 0, a share of v̄
};

struct PpcaOptions {
    int latent = 2;
    std::uint64_t seed = 0;         ///< the random start of W
    bool missingValues = false;     ///< NaN entries are missing; μ is then estimated inside EM
    std::optional<PpcaPrior> prior; ///< MAP EM under it (§3.5); none: maximum likelihood
};

class PpcaEm : public GaussianFit {
  public:
    /// Start: W ~ N(0, 1) entries (from seed), σ² = the mean observed column variance, μ the
    /// observed column means. Throws std::invalid_argument for a NaN without missingValues, a
    /// column observed in K rows or fewer, 1 <= K < D violated, a prior with α < 0 or a₀, b₀
    /// not positive.
    PpcaEm(const ConstMatrixRef& rows, const PpcaOptions& options);

    /// One E and M step; returns the objective per row before it (at the old parameters): the
    /// log-likelihood, plus log p(θ) / N under a prior (what EM never decreases).
    double iterate();
    double loglikPerRow() const { return ppcaLoglikPerRow(m_model, m_rows); }
    /// log p(θ) / N of the current parameters up to a constant (§3.5; 0 without a prior), N the
    /// rows with something observed.
    double logPriorPerRow() const;
    /// The mean observed column variance v̄ (the σ² prior's scale is b₀ v̄).
    double meanVariance() const { return m_meanVariance; }
    const PpcaModel& ppca() const { return m_model; }
    long iterations() const { return m_iterations; }

    FitStatus status() const override;
    FAModel model() const override { return m_model.asFa(); }

  private:
    void iterateComplete();
    void iterateMissing();
    /// σ² from the summed expected squared residuals over `count` observed entries (§3.2, §3.3;
    /// with the prior's pseudo-counts under a prior, §3.5).
    double noiseUpdate(double residuals, double count) const;
    /// α σ² at the current σ², what the prior adds to the loadings' normal equations (§3.5); 0
    /// without a prior.
    double ridge() const;

    PpcaOptions m_options;
    Matrix m_rows; ///< as given (NaN = missing)
    PpcaModel m_model;
    bool m_anyMissing = false, m_diverged = false;
    long m_iterations = 0;
    long m_counted = 0;          ///< rows with something observed
    double m_meanVariance = 0.0; ///< v̄
};

} // namespace fa
