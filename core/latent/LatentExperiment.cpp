#include "core/latent/LatentExperiment.h"
#include "core/latent/LatentParams.h"

#include "core/math/Rng.h"
#include "core/metrics/DenseMetrics.h"
#include "core/models/Imputation.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}
} // namespace

ImputationScore scoreImputation(const LatentFit& fit, const LatentData& data, double columnMean) {
    ImputationScore s;
    const auto fa = fit.faModel();
    if (data.hidden.empty() || !fa)
        return s;
    s.hidden = static_cast<long>(data.hidden.size());
    s.hideFraction = data.hideFraction;
    s.conditionalMean = imputationRmse(imputeConditionalMean(*fa, data.train), data.hidden);
    s.columnMean = columnMean;
    return s;
}

double columnMeanRmse(const LatentData& data) {
    return data.hidden.empty() ? kNaN : imputationRmse(imputeColumnMeans(data.train), data.hidden);
}

void checkLatentConfig(const LatentConfig& c) {
    checkLatentRun(c.data.model, c.methods, c.iterations);
    checkParams(latentParams(), c);
}

namespace {
/// One trial's rows; none when cancelled (the unfinished trial is dropped).
std::vector<LatentRow> runLatentTrial(const LatentConfig& c, int trial,
                                      const std::function<void(const LatentProgress&)>& progress,
                                      const std::atomic<bool>* cancel) {
    const std::vector<long> checkpoints = latentCheckpoints(c.iterations);
    std::vector<LatentRow> rows;
    {
        LatentDataSpec spec = c.data;
        spec.splitSeed = deriveSeed(c.seed, static_cast<std::uint64_t>(trial));
        spec.modelSeed = c.seed;
        const LatentData data = makeLatentData(spec, c.loader);
        const double meanFill = columnMeanRmse(data); // §3.6's baseline, the same for every fit
        std::vector<LatentRow> trialRows;
        for (std::size_t mi = 0; mi < c.methods.size(); ++mi) {
            const LatentMethod method = c.methods[mi];
            LatentFitOptions options = c.fit;
            options.seed = deriveSeed(c.seed, SeedStream::LatentMethodBase,
                                      static_cast<std::uint64_t>(trial) * 64 + mi);
            LatentRow base;
            base.dataset = data.name;
            base.model = latentModelName(spec.model);
            base.method = latentMethodName(method);
            base.latent = c.fit.latent;
            base.components = spec.model == LatentModel::Mppca ? c.fit.components : 1;
            base.trial = trial;
            const Clock::time_point start = Clock::now();
            double fitting = 0.0;
            const auto fit = makeLatentFit(spec.model, method, data.train, options);
            fitting += secondsSince(start);
            auto record = [&](long iteration, bool last) {
                LatentRow row = base;
                row.iteration = iteration;
                row.loglik = fit->loglikPerRow();
                row.heldout = data.test.rows() > 0 ? fit->loglikPerRow(data.test) : kNaN;
                row.elbo = fit->elboPerRow();
                row.relCovDist = kNaN;
                if (data.hasTruth()) {
                    Vector mean;
                    Matrix cov;
                    fit->moments(mean, cov);
                    row.relCovDist = relativeCovarianceDistance(cov, data.trueCovariance);
                }
                row.seconds = fitting;
                row.imputation = scoreImputation(*fit, data, meanFill);
                row.status = csvWord(fit->status(last));
                for (const Eigen::Index d : fit->flooredColumns())
                    row.floored.push_back(data.columns[static_cast<std::size_t>(d)]);
                trialRows.push_back(std::move(row));
            };
            // Reported after every iteration, not only at the log-spaced checkpoints (between
            // 5000 and 10000 the line would otherwise sit still for thousands of iterations):
            // the progress line throttles its own printing.
            LatentProgress report{trial, c.trials, base.method, 0, c.iterations};
            if (!fit->iterative()) {
                record(0, true);
                if (progress)
                    progress(report);
                continue;
            }
            std::size_t next = 0;
            for (long t = 1; t <= c.iterations; ++t) {
                if (cancel && cancel->load())
                    return {}; // the unfinished trial is dropped
                const Clock::time_point tick = Clock::now();
                fit->iterate();
                fitting += secondsSince(tick);
                if (next < checkpoints.size() && t == checkpoints[next]) {
                    record(t, t == c.iterations);
                    ++next;
                }
                if (progress) {
                    report.iteration = t;
                    progress(report);
                }
            }
            if (c.finished)
                c.finished(trial, *fit, data.columns);
        }
        rows.insert(rows.end(), trialRows.begin(), trialRows.end());
    }
    return rows;
}
} // namespace

std::vector<LatentRow> runLatent(const LatentConfig& c,
                                 const std::function<void(const LatentProgress&)>& progress,
                                 const std::atomic<bool>* cancel) {
    checkLatentConfig(c);
    return runShardTrials<LatentRow>(
        c.trials, c.shard, c.threads, progress,
        [&](int trial, const auto& report) { return runLatentTrial(c, trial, report, cancel); },
        cancel);
}

} // namespace fa
