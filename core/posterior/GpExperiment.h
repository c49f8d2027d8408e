#pragma once
// faexplorer-cli gp (issue 28): exact Gaussian-process regression on a data set's seeded
// train/test splits — the neural lab's splits (core/data's splitRegression), so that its rows sit
// beside the networks' — for each kernel: type-II maximum likelihood on the standardised
// training rows, then the test rows' NMLL and RMSE on the target's own scale
// (docs/maths/gp.md §6).
#include "core/data/RegressionData.h"
#include "core/lab/TrialRunner.h"
#include "core/posterior/GaussianProcess.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace fa {

struct GpConfig {
    std::string dataset = "boston"; ///< a bundled set or a CSV path
    std::string target;             ///< CSV target column; empty = last
    DatasetLoader loader;           ///< fa::io::datasetLoader
    std::vector<GpKernel> kernels = allGpKernels();
    int trials = 10;            ///< trial t is split t
    double trainFraction = 0.9; ///< strictly between 0 and 1
    std::uint64_t seed = 0;
    GpOptimiseOptions optimiser;
    int threads = 0; ///< trials side by side; 0: every core
    Shard shard;
};

/// Throws std::invalid_argument for a bad configuration (no kernel, a training fraction not
/// strictly between 0 and 1, a value outside its schema's range).
void checkGpConfig(const GpConfig& config);

struct GpRow {
    std::string dataset, kernel;
    int trial = 0;
    double nmll = 0.0, rmse = 0.0; ///< of the test rows, on the target's own scale
    double logMarginal = 0.0; ///< log p(y | X) of the standardised training rows, at the optimum
    double seconds = 0.0;
    std::string status; ///< csvWord: ok, diverged (RMSE above kAbsurdRmse sd), failed
    GpHyper hyper;
};

/// The test rows' scores of a trained GP on split p (the target's own scale, docs/maths/gp.md §6):
/// NMLL = mean of -log N(y; m yScale + yMean, var_y yScale^2), RMSE of the mean.
void scoreGp(const GpRegression& gp, const RegressionProblem& p, GpRow& row);

struct GpProgress {
    int trial = 0, trials = 0;
    std::string kernel; ///< the kernel being fitted
};

/// The trials (split t, every kernel in order) on config.threads threads, rows in trial order.
/// progress may be called from several threads, one at a time. A raised cancel lets no further
/// trial start and drops the running ones (seen between kernels): the rows kept are those of
/// whole trials.
std::vector<GpRow> runGp(const GpConfig& config,
                         const std::function<void(const GpProgress&)>& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

} // namespace fa
