#include "core/explorer/FaSweep.h"
#include "core/explorer/ExplorerParams.h"

#include "core/fa/BatchFA.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/TrialRunner.h"
#include "core/lab/WorkPool.h"
#include "core/metrics/ModelScorer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

namespace fa {

void validate(const FaSweepConfig& config) {
    checkParams(faSweepParams(), config);
    validate(config.generator);
    if (config.checkpoints.empty())
        throw std::invalid_argument("at least one sample count is needed");
    for (std::size_t i = 0; i < config.checkpoints.size(); ++i) {
        if (config.checkpoints[i] <= 0)
            throw std::invalid_argument("sample counts must be positive");
        if (i > 0 && config.checkpoints[i] <= config.checkpoints[i - 1])
            throw std::invalid_argument("sample counts must be strictly increasing");
    }
    if (config.trials < 1)
        throw std::invalid_argument("trials must be at least 1");
    checkLearningRate(config.learningRate);
    if (config.warmup < 0)
        throw std::invalid_argument("warm-up must not be negative");
    if (config.fitLatent < 0 || config.fitLatent >= config.generator.dim)
        throw std::invalid_argument("fitted K must satisfy 1 <= K < D (or 0 for the true K)");
    if (!config.runBatch && !config.runEm && !config.runSga)
        throw std::invalid_argument("choose at least one algorithm");
    const double stored =
        8.0 * config.generator.dim * static_cast<double>(config.checkpoints.back());
    if (config.runBatch && config.generator.dim <= kBatchMaxDim && stored > kMaxStoredBytes)
        throw std::invalid_argument(storedSamplesTooLarge(config.checkpoints.back(), stored));
    const int fitK = config.fitLatent > 0 ? config.fitLatent : config.generator.latent;
    const double state = faStateBytes(config.generator.dim, config.generator.latent, fitK,
                                      (config.runEm ? 1 : 0) + (config.runSga ? 1 : 0));
    if (state > kMaxModelBytes)
        throw std::invalid_argument(modelTooLarge(state));
}

int sweepThreads(const FaSweepConfig& config) {
    // Side-by-side trials never hold more memory than one trial of the largest size allowed.
    const int fitK = config.fitLatent > 0 ? config.fitLatent : config.generator.latent;
    const bool storing = config.runBatch && config.generator.dim <= kBatchMaxDim;
    const double perTrial =
        (storing ? 8.0 * config.generator.dim * static_cast<double>(config.checkpoints.back())
                 : 0.0) +
        faStateBytes(config.generator.dim, config.generator.latent, fitK, 2);
    const int byMemory = static_cast<int>(std::max(
        1.0, std::floor(std::max(kMaxStoredBytes, kMaxModelBytes) / std::max(perTrial, 1.0))));
    return std::min(resolveThreads(config.threads, config.trials), byMemory);
}

int sweepPassThreads(const FaSweepConfig& config) {
    const int total = resolveThreads(config.threads, std::numeric_limits<int>::max());
    const auto trials = static_cast<int>(shardTrials(config.trials, config.shard).size());
    const int side = std::max(1, std::min(sweepThreads(config), trials));
    return std::max(1, total / side);
}

FaSweepRow makeSweepRow(const GeneratorSpec& g, long samples, int trial,
                        const std::string& algorithm) {
    FaSweepRow r;
    r.dim = g.dim;
    r.latent = g.latent;
    r.spectrumLo = g.spectrumLo;
    r.spectrumHi = g.spectrumHi;
    r.generator = generatorName(g.kind);
    r.samples = samples;
    r.trial = trial;
    r.algorithm = algorithm;
    r.relCovDist = r.w2 = r.w2OverDim = r.relMeanDist = std::numeric_limits<double>::quiet_NaN();
    return r;
}

TrialSeeds trialSeeds(std::uint64_t seed, int trial) {
    const std::uint64_t t = deriveSeed(seed, static_cast<std::uint64_t>(trial));
    return {deriveSeed(t, SeedStream::SweepModel), deriveSeed(t, SeedStream::SweepSamples),
            deriveSeed(t, SeedStream::SweepInit), deriveSeed(t, SeedStream::SweepBatch)};
}

namespace {
using Clock = std::chrono::steady_clock;
constexpr long kChunk = 256; // samples drawn, then fed to each fitter, per timed block

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct TimedFit {
    std::unique_ptr<BatchFit> fit;
    double seconds = 0.0;
};

struct OnlineRun {
    const char* name;
    std::unique_ptr<OnlineFitter> fitter;
    double seconds = 0.0;
};
} // namespace

namespace {
/// What the pieces of one trial share: the run's settings and the scorer against the truth.
struct SweepTrial {
    const FaSweepConfig& config;
    int trial;
    int fitLatent;
    int passThreads; // each online fitter's pass split over this many threads
    bool batchFits;  // the samples are stored for batch refits
    const ModelScorer& scorer;
    const std::atomic<bool>* cancel;
};

void setScores(FaSweepRow& r, const Scores& s) {
    r.relCovDist = s.relCovDist;
    r.w2 = s.w2;
    r.w2OverDim = s.w2OverDim;
    r.relMeanDist = s.relMeanDist;
}

/// The online fitters the config asks for; EM and SGA start from the same F.
std::vector<OnlineRun> makeOnlineRuns(const SweepTrial& t, Eigen::Index D, std::uint64_t initSeed) {
    OnlineOptions opts;
    opts.latent = t.fitLatent;
    opts.warmup = t.config.warmup;
    opts.learningRate = t.config.learningRate;
    opts.initSeed = initSeed;
    std::vector<OnlineRun> online;
    if (t.config.runEm)
        online.push_back({"em", std::make_unique<OnlineEM>(D, opts)});
    if (t.config.runSga)
        online.push_back({"sga", std::make_unique<OnlineSGA>(D, opts)});
    for (OnlineRun& run : online)
        run.fitter->setPassThreads(t.passThreads);
    return online;
}

/// The stream of samples: drawn in blocks of kChunk, kept (one per column) when batch refits
/// need them, else drawn into one reused block.
struct SampleStream {
    FASampler& sampler;
    Rng& rng;
    Matrix& stored;
    Matrix& chunk;
    long seen = 0;
};

/// Draws samples up to `checkpoint` and feeds them, timed, to each online fitter; false when
/// cancelled.
bool feedUntil(const SweepTrial& t, long checkpoint, SampleStream& s,
               std::vector<OnlineRun>& online,
               const std::function<void(const FaSweepProgress&)>& progress) {
    const long total = t.config.checkpoints.back();
    while (s.seen < checkpoint) {
        if (t.cancel && t.cancel->load())
            return false;
        const long n = std::min(kChunk, checkpoint - s.seen);
        auto block = t.batchFits ? s.stored.middleCols(s.seen, n) : s.chunk.leftCols(n);
        for (long j = 0; j < n; ++j)
            s.sampler.draw(s.rng, block.col(j));
        for (auto& run : online) {
            const auto t0 = Clock::now();
            for (long j = 0; j < n; ++j)
                run.fitter->observe(block.col(j));
            run.seconds += secondsSince(t0);
        }
        s.seen += n;
        if (progress)
            progress({t.trial, t.config.trials, s.seen, total});
    }
    return true;
}

/// The batch row at `checkpoint`: a refit on the samples so far, scored (skipped when they are
/// not stored); nullopt when cancelled. The refit is abandoned (not waited for) on a cancel: a
/// cancel never waits for a matrix product of seconds.
std::optional<FaSweepRow> batchRow(const SweepTrial& t, long checkpoint, std::uint64_t batchSeed,
                                   std::shared_ptr<const Matrix> data) {
    FaSweepRow r = makeSweepRow(t.config.generator, checkpoint, t.trial, "batch");
    if (!t.batchFits || checkpoint < 2) {
        r.status = csvWord(FitStatus::Skipped);
        return r;
    }
    try {
        BatchFAOptions bo;
        bo.latent = t.fitLatent;
        bo.svd = t.config.batchSvd;
        bo.seed = deriveSeed(batchSeed, static_cast<std::uint64_t>(checkpoint));
        PoolTask<TimedFit> task = WorkPool::shared().submit<TimedFit>(
            [data, bo, checkpoint](const std::atomic<bool>& stop) mutable {
                bo.cancel = &stop;
                const auto t0 = Clock::now();
                auto fit = std::make_unique<BatchFit>(data->leftCols(checkpoint), bo);
                return TimedFit{std::move(fit), secondsSince(t0)};
            });
        if (!task.wait(t.cancel))
            return std::nullopt;
        const TimedFit timed = task.get();
        const BatchFit& fit = *timed.fit;
        r.seconds = timed.seconds;
        if (fit.result().cancelled)
            return std::nullopt;
        setScores(r, t.scorer.score(fit.result().model));
        const bool finite = fit.status() == FitStatus::Running && std::isfinite(r.relCovDist);
        r.status = csvWord(finite ? FitStatus::Running : FitStatus::Diverged);
    } catch (const std::exception&) {
        r.status = csvWord(FitStatus::Failed);
    }
    return r;
}

/// An online fitter's row at `checkpoint`. Warm-up rows say "ok": the sweep scores every fit at
/// every checkpoint.
FaSweepRow onlineRow(const SweepTrial& t, long checkpoint, const OnlineRun& run) {
    FaSweepRow r = makeSweepRow(t.config.generator, checkpoint, t.trial, run.name);
    r.seconds = run.seconds;
    if (run.fitter->diverged()) {
        r.status = csvWord(FitStatus::Diverged);
    } else {
        setScores(r, t.scorer.score(run.fitter->model()));
        r.status = csvWord(FitStatus::Running);
    }
    return r;
}

/// One trial's rows (the checkpoints reached, when cancelled).
std::vector<FaSweepRow> runSweepTrial(const FaSweepConfig& config, int trial, int passThreads,
                                      const std::function<void(const FaSweepProgress&)>& progress,
                                      const std::atomic<bool>* cancel) {
    const GeneratorSpec& gen = config.generator;
    const Eigen::Index D = gen.dim;
    const long total = config.checkpoints.back();
    const bool batchFits = config.runBatch && gen.dim <= kBatchMaxDim;
    const int fitLatent = config.fitLatent > 0 ? config.fitLatent : gen.latent;
    std::vector<FaSweepRow> rows;

    const TrialSeeds seeds = trialSeeds(config.seed, trial);
    const FAModel truth = generateModel(gen, seeds.model);
    const ModelScorer scorer(truth, gen.dim <= kDenseMetricsMaxDim);
    FASampler sampler(truth);
    Rng sampleRng(seeds.samples);
    const SweepTrial t{config, trial, fitLatent, passThreads, batchFits, scorer, cancel};
    std::vector<OnlineRun> online = makeOnlineRuns(t, D, seeds.init);

    // One sample per column, shared with a batch refit, which may outlive this trial.
    const auto storedData = std::make_shared<Matrix>(batchFits ? D : 0, batchFits ? total : 0);
    Matrix chunk(D, kChunk);
    SampleStream stream{sampler, sampleRng, *storedData, chunk};
    for (const long checkpoint : config.checkpoints) {
        if (!feedUntil(t, checkpoint, stream, online, progress))
            return rows;
        if (config.runBatch) {
            std::optional<FaSweepRow> r = batchRow(t, checkpoint, seeds.batch, storedData);
            if (!r)
                return rows;
            rows.push_back(*r);
        }
        for (const auto& run : online)
            rows.push_back(onlineRow(t, checkpoint, run));
    }
    return rows;
}
} // namespace

std::vector<FaSweepRow> runFaSweep(const FaSweepConfig& config,
                                   const std::function<void(const FaSweepProgress&)>& progress,
                                   const std::atomic<bool>* cancel) {
    validate(config);
    const int passThreads = sweepPassThreads(config);
    return runShardTrials<FaSweepRow>(
        config.trials, config.shard, sweepThreads(config), progress,
        [&](int trial, const auto& report) {
            return runSweepTrial(config, trial, passThreads, report, cancel);
        },
        cancel);
}

} // namespace fa
