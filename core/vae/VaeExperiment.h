#pragma once
// The nonlinear-FA lab's experiment: the chosen methods on one data set over several trials
// (new split, new starts), one row per (trial, method, checkpoint epoch): the numbers
// `faexplorer-cli vae` writes. Scoring (docs/maths/nonlinear.md §5–§6) on the held-out rows: the
// method's test ELBO (the encoder's q; vEM's per-point optimum), the importance-weighted
// log-likelihood with the per-point optimum q* as proposal, and the two gaps. Linear decoders
// are scored exactly (closed forms), nonlinear ones by Monte Carlo.
#include "core/lab/TrialRunner.h"
#include "core/vae/VaeData.h"
#include "core/vae/VaeFits.h"
#include "core/vae/VaeMetrics.h"

#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace fa {

struct VaeEvalOptions {
    int elboSamples = 100; ///< draws per row for an ELBO of a given q
    int iwSamples = 1000;  ///< S of the importance-weighted estimate
    int qSteps = 300;      ///< Adam steps per row for q*
    double qLr = 0.05;
};

/// A fit's scores, per row in nats: the ELBO of the fitting and of the held-out rows, the
/// importance-weighted log-likelihood and the two gaps (the vae command's score columns, the
/// live run's curves). NaN where a value does not apply (written as an empty cell).
struct VaeScoreColumns {
    double trainElbo = 0.0, testElbo = 0.0, iwLoglik = 0.0;
    double amortisationGap = 0.0, approximationGap = 0.0;
};

struct VaeScores : VaeScoreColumns {
    double minEss = 0.0; ///< the smallest effective sample size of the IW estimate (NaN: exact)
};

/// The per-point optimum q* of test rows (K x n each), kept between scorings of a live run.
struct VaeTestQ {
    Matrix mean, logVar;
};

/// Scores a fit on its training rows and on test rows (N x D; none: test values NaN). q* starts
/// from the encoder's q, or without an encoder (vEM) from best when its sizes fit (a warm start),
/// else from the stored q of each row's nearest training row; best, if given, receives q*. The
/// poll is looked at before each pass over the rows: once its cancel is raised the scores are
/// partial, for the caller to drop.
VaeScores scoreVaeFit(const VaeFit& fit, const ConstMatrixRef& testRows,
                      const VaeEvalOptions& options, std::uint64_t seed, VaeTestQ* best = nullptr,
                      const ScoringPoll& poll = {});

/// What names a row of the vae command's tables: the fit (data set, method, network, K), the trial
/// and the epoch.
struct VaeRowKey {
    std::string dataset, method, hidden; ///< hidden: "50,50", "linear"; empty for ppca
    int latent = 0, trial = 0;
    long epoch = 0;
};

/// One estimator's spread of the VAE's encoder gradient at one checkpoint (§9.3): the rows of
/// `faexplorer-cli vae --grad-variance-out`.
struct VaeGradRow : VaeRowKey {
    std::string trainedWith, estimator;   ///< the fit's encoder gradient; the one measured
    int samples = 0, draws = 0, rows = 0; ///< S per row, estimates, rows of the batch
    double meanNorm = 0.0, variance = 0.0;
};

/// At the fit's current parameters (a fit with an encoder network; none: no rows), for each
/// estimator (the baseline only when the fit's S ≥ 2): `draws` estimates of φ's gradient of the
/// per-row mean ELBO over the first `batch` training rows, each from the fit's S draws per row;
/// estimator e takes the stream deriveSeed(seed, e) (runVae's seed at epoch t: the trial's
/// VaeScoringBase + 64 + t, beyond the methods' scorings). `key` names the rows.
std::vector<VaeGradRow> vaeGradientStudy(const VaeFit& fit, int draws, std::uint64_t seed,
                                         const VaeRowKey& key);

struct VaeConfig {
    VaeDataSpec data;
    std::vector<VaeMethod> methods{VaeMethod::Vae};
    VaeOptions fit;
    VaeEvalOptions eval;
    long epochs = 100;
    int trials = 1;
    std::uint64_t seed = 0;
    TableLoader loader; ///< real data (core/io's tableLoader in the programs)
    /// Trials run side by side (0: every core); with one trial, two threads split each batch's
    /// products instead (the VAE). The rows do not depend on it.
    int threads = 1;
    Shard shard;         ///< the slice of the trials to run (a cluster's job array)
    int gradDraws = 200; ///< the encoder-gradient study's estimates per estimator
    /// If given, the encoder-gradient study (vaeGradientStudy) runs at each checkpoint of a fit
    /// with an encoder network, after its scores, and its rows are handed here (from the
    /// trial's thread; a cancelled trial's rows may have been handed already).
    std::function<void(const std::vector<VaeGradRow>& rows)> gradientStudy;
};

struct VaeRow : VaeRowKey, VaeScoreColumns {
    double seconds = 0.0;
    std::string status; ///< ok, psi-floor, diverged
    /// The smallest effective sample size of the IW estimate over the held-out rows (not a CSV
    /// column; NaN where exact): the summary prints it, a small one means a biased-low estimate.
    double minEss = std::numeric_limits<double>::quiet_NaN();
};

struct VaeProgress {
    int trial = 0, trials = 1;
    std::string method;
    long epoch = 0, epochs = 0;
    /// Scoring the fit after `epoch` (reported again before each pass over the rows).
    bool scoring = false;
};

/// What can be checked before data is read. Throws std::invalid_argument with the reason.
void checkVaeConfig(const VaeConfig& config);

/// Runs the trials in order. A set cancel flag stops at the next epoch, or within one pass of a
/// scoring, and drops the unfinished trial. Throws std::invalid_argument for bad data.
std::vector<VaeRow> runVae(const VaeConfig& config,
                           const std::function<void(const VaeProgress&)>& progress = {},
                           const std::atomic<bool>* cancel = nullptr);

} // namespace fa
