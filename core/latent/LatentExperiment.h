#pragma once
// The latent-variable lab's experiment: every chosen way of fitting the chosen model on one data
// set, over several trials (new split, new starts), with one row per (trial, method,
// checkpoint iteration, core/lab/Checkpoints.h): the numbers `faexplorer-cli latent` writes.
#include "core/data/LatentData.h"
#include "core/lab/Checkpoints.h"
#include "core/lab/TrialRunner.h"
#include "core/latent/LatentFits.h"

#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace fa {

struct LatentConfig {
    LatentDataSpec data;
    std::vector<LatentMethod> methods{LatentMethod::Em};
    LatentFitOptions fit;
    long iterations = 100;
    int trials = 1;
    std::uint64_t seed = 0;
    TableLoader loader; ///< real data (core/io's tableLoader in the programs)
    int threads = 1;    ///< trials run side by side (0: every core); the rows do not depend on it
    Shard shard;        ///< the slice of the trials to run (a cluster's job array)
    /// Called with each fit after its last iteration (from the trial's thread), with the names
    /// of the data's columns; may be empty.
    std::function<void(int trial, const LatentFit& fit, const std::vector<std::string>& columns)>
        finished;
};

/// With entries hidden (LatentDataSpec::hideFraction): how many, and the RMSE over them of the
/// fit's conditional-mean imputation and of the column means (docs/maths/latent.md §3.6), in
/// the fitting rows' units. Not columns of the latent CSV: `latent --imputation` writes them.
struct ImputationScore {
    double hideFraction = 0.0;
    long hidden = 0; ///< 0: nothing hidden (the scores are NaN)
    double conditionalMean = std::numeric_limits<double>::quiet_NaN();
    double columnMean = std::numeric_limits<double>::quiet_NaN();
};

/// One CSV row; NaN cells are written empty (they do not apply).
struct LatentRow {
    std::string dataset, model, method;
    int latent = 0, components = 1, trial = 0;
    long iteration = 0;
    double loglik = 0.0, heldout = 0.0, elbo = 0.0, relCovDist = 0.0, seconds = 0.0;
    std::string status;               ///< ok, psi-floor, diverged, not-converged
    std::vector<std::string> floored; ///< psi-floor: the columns' names (not a CSV column)
    ImputationScore imputation;       ///< (not CSV columns)
};

/// The imputation score of a fit with an FA form (c, F, Ψ) on data with hidden entries; hidden
/// 0 when nothing is hidden or the fit has no such form. columnMean is the data's, the same for
/// every fit (pass it in: it is computed once, by columnMeanRmse).
ImputationScore scoreImputation(const LatentFit& fit, const LatentData& data, double columnMean);
/// The column means' imputation RMSE over the hidden entries (NaN when none are hidden).
double columnMeanRmse(const LatentData& data);

struct LatentProgress {
    int trial = 0, trials = 1;
    std::string method;
    long iteration = 0, iterations = 0;
};

/// What can be checked before data is read: each method offered by the model, sizes in range.
/// Throws std::invalid_argument with the reason.
void checkLatentConfig(const LatentConfig& config);

/// Runs the trials in order, reporting progress after every iteration (and once for a closed
/// form). A set cancel flag stops at the next iteration and drops the unfinished trial (finished
/// trials are kept). Throws std::invalid_argument for bad data.
std::vector<LatentRow> runLatent(const LatentConfig& config,
                                 const std::function<void(const LatentProgress&)>& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

} // namespace fa
