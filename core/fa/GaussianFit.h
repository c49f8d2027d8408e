#pragma once
// One small interface for every approximation that produces an FA-shaped Gaussian
// N(c, F F^T + Psi): online EM and SGA (on samples or SGD iterates), batch FA, VIFA / VIPPCA
// and SWAG are siblings behind it, and one status type says where any of them stands.
#include "core/fa/FAModel.h"
#include "core/math/Abandon.h"

#include <string>

namespace fa {

/// Where a fit stands. WarmUp: only running averages move yet; Running: fitting (or finished
/// well: "ok" in a CSV); Diverged: NaN or Inf appeared; Skipped: deliberately not run (batch FA
/// beyond its size limit); Failed: the fit refused its input or was cancelled. The latent lab's
/// fits add PsiFloor: some ψ_d sits at its floor (a Heywood case), and NotConverged: the last
/// iteration came before the convergence test passed.
enum class FitStatus { WarmUp, Running, Diverged, Skipped, Failed, PsiFloor, NotConverged };

/// For people (status bars, tooltips): "warm-up", "ok" (also once the run has finished, where
/// "running" would contradict the bar's "finished"), "diverged", "skipped", "failed",
/// "at the psi floor", "not converged".
std::string statusName(FitStatus status);
/// For CSV files, a contract other programs read: "warmup", "ok", "diverged", "skipped",
/// "failed", "psi-floor", "not-converged".
std::string csvWord(FitStatus status);
/// The word for people of a CSV status word ("not-converged" -> "not converged"); a word it does
/// not know, as it is.
std::string statusNameOfCsvWord(const std::string& csv);

class GaussianFit {
  public:
    virtual ~GaussianFit() = default;
    virtual FitStatus status() const = 0;
    /// The current Gaussian as (c, F, psi); a copy, so it outlives the fit.
    virtual FAModel model() const = 0;
    bool diverged() const { return status() == FitStatus::Diverged; }
};

/// A fit that runs by passes over a data set: VIFA, VIPPCA, full-covariance and mean-field VI.
class EpochFit : public GaussianFit, public Abandonable {
  public:
    /// One pass over the data; an abandoned fit stops at the next mini-batch.
    virtual void runEpoch() = 0;
};

/// A fit fed one vector at a time: online EM and SGA (samples or SGD iterates), SWAG.
class StreamFit : public GaussianFit {
  public:
    /// Consumes one vector. Never throws on numerical trouble: the status says Diverged.
    virtual void observe(const ConstVectorRef& x) = 0;
};

} // namespace fa
