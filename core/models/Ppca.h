#pragma once
// Probabilistic PCA (Tipping and Bishop 1999; notes "Scalable Bayesian methods: 1) Probabilistic
// PCA"; docs/maths/latent.md §3.1–3.3): the closed form, EM in O(N D K) per iteration, and EM
// with missing values integrated out exactly (the mean then estimated inside EM). Rows are
// observations (N x D); a missing value is a NaN, allowed only with PpcaOptions::missingValues.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/math/Types.h"

#include <cstdint>

namespace fa {

struct PpcaModel {
    Vector mu;
    Matrix W; ///< D x K
    double sigma2 = 1.0;
    FAModel asFa() const; ///< F = W, ψ = σ² for every coordinate
};

/// The maximum-likelihood PPCA of complete rows: σ² the mean of the D - K discarded eigenvalues
/// of S (ddof 0), W = U_K (Λ_K - σ² I)^½ from a thin SVD of the centred rows (no D x D matrix).
/// Throws std::invalid_argument unless N > K, 1 <= K < D and every entry is finite.
PpcaModel ppcaClosedForm(const ConstMatrixRef& rows, int latent);

/// Average log N(x_n; μ, W Wᵀ + σ² I) over the rows' observed (non-NaN) entries; rows with
/// nothing observed are left out of the average (NaN when no row has an observed entry). O(Σ_n
/// |O_n| K + N K³).
double ppcaLoglikPerRow(const PpcaModel& model, const ConstMatrixRef& rows);

struct PpcaOptions {
    int latent = 2;
    std::uint64_t seed = 0;     ///< the random start of W
    bool missingValues = false; ///< NaN entries are missing; μ is then estimated inside EM
};

class PpcaEm : public GaussianFit {
  public:
    /// Start: W ~ N(0, 1) entries (from seed), σ² = the mean observed column variance, μ the
    /// observed column means. Throws std::invalid_argument for a NaN without missingValues, a
    /// column observed in K rows or fewer, 1 <= K < D violated.
    PpcaEm(const ConstMatrixRef& rows, const PpcaOptions& options);

    /// One E and M step; returns the log-likelihood per row before it (at the old parameters).
    double iterate();
    double loglikPerRow() const { return ppcaLoglikPerRow(m_model, m_rows); }
    const PpcaModel& ppca() const { return m_model; }
    long iterations() const { return m_iterations; }

    FitStatus status() const override;
    FAModel model() const override { return m_model.asFa(); }

  private:
    void iterateComplete();
    void iterateMissing();

    PpcaOptions m_options;
    Matrix m_rows; ///< as given (NaN = missing)
    PpcaModel m_model;
    bool m_anyMissing = false, m_diverged = false;
    long m_iterations = 0;
};

} // namespace fa
