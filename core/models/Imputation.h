#pragma once
// Missing entries filled in, and scored against values held back (docs/maths/latent.md §3.6):
// hiding a share of a complete table's entries at random (seeded), the conditional mean
// E[x_M | x_O] of a fitted Gaussian N(c, F Fᵀ + Ψ) (PPCA: Ψ = σ² I) for each row's missing
// entries, the column means as the baseline, and the RMSE over the hidden entries. Rows are
// observations (N x D); a missing value is a NaN. Nothing D x D is formed.
#include "core/fa/FAModel.h"
#include "core/math/Types.h"

#include <cstdint>
#include <vector>

namespace fa {

/// One hidden entry and the value it had.
struct HiddenEntry {
    Eigen::Index row = 0, col = 0;
    double value = 0.0;
};

/// Hides round(fraction · M) of the rows' M observed (non-NaN) entries, chosen uniformly
/// without replacement (seeded): sets them to NaN and returns them in row-major order with their
/// values. Throws std::invalid_argument unless 0 <= fraction < 1.
std::vector<HiddenEntry> hideEntries(Matrix& rows, double fraction, std::uint64_t seed);

/// The rows with every NaN replaced by E[x_M | x_O] under N(c, F Fᵀ + Ψ) (§3.6): c_M +
/// F_M (I + F_Oᵀ Ψ_O⁻¹ F_O)⁻¹ F_Oᵀ Ψ_O⁻¹ (x_O - c_O); a row with nothing observed gets c. Observed
/// entries are copied unchanged. O(Σ_n (|O_n| K² + K³)) over rows with a missing entry.
Matrix imputeConditionalMean(const FAModel& model, const ConstMatrixRef& rows);

/// The rows with every NaN replaced by the mean of its column's observed entries (the baseline).
/// Throws std::invalid_argument for a column with nothing observed.
Matrix imputeColumnMeans(const ConstMatrixRef& rows);

/// √(mean over the hidden entries of (imputed(row, col) - value)²); NaN without hidden entries.
double imputationRmse(const ConstMatrixRef& imputed, const std::vector<HiddenEntry>& hidden);

} // namespace fa
