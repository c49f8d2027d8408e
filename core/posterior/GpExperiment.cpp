// faexplorer-cli gp's trials: per split, each kernel's type-II maximum likelihood fit on the
// standardised training rows and its test scores on the target's own scale (docs/maths/gp.md §6).
#include "core/posterior/GpExperiment.h"

#include "core/fa/GaussianFit.h"
#include "core/math/Rng.h"
#include "core/metrics/MixturePredictive.h"
#include "core/posterior/PosteriorParams.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace fa {
namespace {

/// One kernel on one split: fit, score, time.
GpRow fitKernel(const GpConfig& config, const RegressionProblem& p, const std::string& dataset,
                int trial, std::size_t k) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    const GpKernel kernel = config.kernels[k];
    GpRow row;
    row.dataset = dataset;
    row.kernel = gpKernelName(kernel);
    row.trial = trial;
    const std::uint64_t seed = deriveSeed(
        deriveSeed(config.seed, SeedStream::GpTrialBase, static_cast<std::uint64_t>(trial)), k);
    const GpTrained trained = optimiseGp(p.Xtrain, p.ytrain, kernel, config.optimiser, seed);
    row.hyper = trained.hyper;
    row.logMarginal = trained.logMarginal;
    const GpRegression gp(p.Xtrain, p.ytrain, trained.hyper);
    if (trained.ok && gp.ok()) {
        scoreGp(gp, p, row);
    } else {
        row.nmll = row.rmse = row.logMarginal = std::numeric_limits<double>::quiet_NaN();
        row.status = csvWord(FitStatus::Failed);
    }
    row.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return row;
}

} // namespace

void checkGpConfig(const GpConfig& config) {
    if (config.kernels.empty())
        throw std::invalid_argument("need at least one kernel");
    if (!(config.trainFraction > 0.0 && config.trainFraction < 1.0))
        throw std::invalid_argument("the training fraction must lie strictly between 0 and 1");
    checkParams(gpParams(), config);
}

void scoreGp(const GpRegression& gp, const RegressionProblem& p, GpRow& row) {
    const GpPrediction pr = gp.predict(p.Xtest);
    // §6: back on the target's own scale, y = yMean + yScale z.
    const Vector mean = (pr.mean * p.yScale).array() + p.yMean;
    const Vector sd = pr.varY.cwiseSqrt() * p.yScale;
    const Vector y = (p.ytest * p.yScale).array() + p.yMean;
    const MixtureScores s = scoreMixture(mean, sd, y); // one Gaussian per test point
    row.nmll = s.nmll;
    row.rmse = s.rmse;
    const bool finite =
        std::isfinite(s.nmll) && std::isfinite(s.rmse) && std::isfinite(row.logMarginal);
    row.status = csvWord(!finite                           ? FitStatus::Failed
                         : s.rmse > kAbsurdRmse * p.yScale ? FitStatus::Diverged
                                                           : FitStatus::Running);
}

std::vector<GpRow> runGp(const GpConfig& config,
                         const std::function<void(const GpProgress&)>& progress,
                         const std::atomic<bool>* cancel) {
    checkGpConfig(config);
    const RegressionData data = loadRegressionDataset(config.loader, config.dataset, config.target);
    return runShardTrials<GpRow>(
        config.trials, config.shard, config.threads, progress,
        [&](int trial, const auto& report) {
            const RegressionProblem p =
                splitRegression(data, config.trainFraction, config.seed, trial);
            std::vector<GpRow> rows;
            for (std::size_t k = 0; k < config.kernels.size(); ++k) {
                if (cancel && cancel->load())
                    return std::vector<GpRow>{}; // an unfinished trial gives no row
                if (report)
                    report({trial, config.trials, gpKernelName(config.kernels[k])});
                rows.push_back(fitKernel(config, p, data.name, trial, k));
            }
            return rows;
        },
        cancel);
}

} // namespace fa
