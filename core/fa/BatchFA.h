#pragma once
#include <string>
// Maximum-likelihood FA by Barber's SVD iteration, as scikit-learn's FactorAnalysis runs it
// (same defaults), so the baseline runs natively on the same samples as the online fitters.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"

#include <atomic>
#include <vector>

namespace fa {

enum class SvdMethod { Randomized, Exact };

struct BatchFAOptions {
    int latent = 10;
    double tol = 1e-2; ///< stop when the log-likelihood gains less than this
    int maxIter = 1000;
    SvdMethod svd = SvdMethod::Randomized;
    int iteratedPower = 3; ///< power iterations of the randomized SVD
    int oversamples = 10;
    double psiFloor = 1e-12;                   ///< scikit-learn's SMALL
    std::uint64_t seed = 0;                    ///< randomized SVD stream
    const std::atomic<bool>* cancel = nullptr; ///< checked between the passes over the data
    /// The starting Ψ (size D); empty: ones, scikit-learn's start. The iteration's whole state
    /// is Ψ, so a fit of t iterations resumed from its Ψ for one more equals a fit of t + 1.
    Vector startPsi;
};

struct BatchFAResult {
    FAModel model;
    std::vector<double> logLikelihood; ///< total log-likelihood at each iteration
    int iterations = 0;
    bool converged = false;
    bool cancelled = false; ///< stopped by options.cancel; the model is then unusable
};

/// Largest D the batch baseline accepts: it holds the N x D sample twice and costs O(N D K)
/// per iteration; beyond this the experiment runners report it as skipped.
constexpr int kBatchMaxDim = 2000;

/// The most memory the samples kept for batch refits may take (8 D N bytes); a run that would
/// keep more is refused up front with the figure, never ended by std::bad_alloc.
constexpr double kMaxStoredBytes = 4.0 * 1024 * 1024 * 1024;
/// "batch FA would keep all 10000000 samples (32.0 GB) in memory (at most 4 GB): ...".
std::string storedSamplesTooLarge(long samples, double bytes);

/// Fits the columns of X (D x N, one sample per column). Throws std::invalid_argument for
/// N < 2 or K >= D.
BatchFAResult fitBatchFA(const ConstMatrixRef& X, const BatchFAOptions& options);

/// Batch FA as a sibling of the online fits: fitted once, when built. Status: Running once
/// fitted (converged or not), Diverged if the model is not finite, Failed if cancelled.
class BatchFit final : public GaussianFit {
  public:
    /// Throws std::invalid_argument as fitBatchFA does.
    BatchFit(const ConstMatrixRef& X, const BatchFAOptions& options);
    FitStatus status() const override;
    FAModel model() const override { return m_result.model; }
    const BatchFAResult& result() const { return m_result; }

  private:
    BatchFAResult m_result;
};

} // namespace fa
