#pragma once
// The fa-sweep experiment: per trial, generate a model, stream samples once through online EM
// and SGA, refit batch FA on the first T samples at each checkpoint, and score all against
// the true model. Deterministic given the config (apart from timings).
#include "core/fa/BatchFA.h"
#include "core/fa/ModelGenerator.h"
#include "core/lab/TrialRunner.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace fa {

struct FaSweepConfig {
    GeneratorSpec generator;
    std::vector<long> checkpoints{100, 1000, 10000, 100000}; ///< sample counts T, ascending
    int trials = 10;
    std::uint64_t seed = 0;
    bool runBatch = true, runEm = true, runSga = true;
    int fitLatent = 0; ///< K of the fitted models; 0 means the true K (the thesis's setting)
    double learningRate = 0.001;
    long warmup = 100;
    /// scikit-learn's default is randomized; its noisy log-likelihood can stop the iteration
    /// early at large T (see docs/results.md), which exact avoids.
    SvdMethod batchSvd = SvdMethod::Randomized;
    /// Trials run side by side (0: every core); the threads left over when fewer trials run
    /// than there are threads split each online fitter's pass (sweepPassThreads). The rows do
    /// not depend on it.
    int threads = 1;
    Shard shard; ///< the slice of the trials to run (a cluster's job array)
};

/// Checks every field; throws std::invalid_argument with a message naming the bad value.
void validate(const FaSweepConfig& config);

/// One CSV row of the fa-sweep contract.
struct FaSweepRow {
    int dim = 0, latent = 0;
    double spectrumLo = 0, spectrumHi = 0;
    std::string generator;
    long samples = 0;
    int trial = 0;
    std::string algorithm; ///< batch, em or sga
    double relCovDist = 0, w2 = 0, w2OverDim = 0, relMeanDist = 0;
    double seconds = 0; ///< fitting time to reach this checkpoint (online: cumulative)
    std::string status; ///< ok, diverged, skipped or failed
};

/// The threads a sweep uses: config.threads (0: every core), fewer when side-by-side trials
/// would hold more memory than the largest single trial allowed.
int sweepThreads(const FaSweepConfig& config);

/// The threads each online fitter's pass is split over (OnlineFitter::setPassThreads): the
/// threads (config.threads, 0: every core) divided among the trials run side by side (the
/// shard's, at most sweepThreads), so one trial on --threads 2 has its passes on both. A pass
/// splits only from D >= stream::kSplitMinRows (docs/threads.md).
int sweepPassThreads(const FaSweepConfig& config);

/// A row with the model columns filled in and every metric NaN, status empty.
FaSweepRow makeSweepRow(const GeneratorSpec& generator, long samples, int trial,
                        const std::string& algorithm);

/// Dense D x D metrics up to this D; structured O(D K^2) ones above.
constexpr int kDenseMetricsMaxDim = 1000;

struct FaSweepProgress {
    int trial = 0, trials = 0;
    long samples = 0, totalSamples = 0;
};

/// Runs the sweep. progress (optional) is called now and then; cancel (optional) stops early,
/// returning the rows finished so far.
std::vector<FaSweepRow> runFaSweep(const FaSweepConfig& config,
                                   const std::function<void(const FaSweepProgress&)>& progress = {},
                                   const std::atomic<bool>* cancel = nullptr);

/// The seeds a trial uses, so other front ends (the GUI) reproduce the CLI's runs exactly.
struct TrialSeeds {
    std::uint64_t model, samples, init, batch;
};
TrialSeeds trialSeeds(std::uint64_t seed, int trial);

} // namespace fa
