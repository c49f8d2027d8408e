// The report's protocol for the neural lab (faexplorer-cli neural): per split, a random search
// of the prior and noise precisions, a fit on all training rows, and the test rows' predictive
// scores, for VIFA / VIPPCA and for the posteriors from the SGD iterates (docs/maths/neural.md).
#include "core/neural/NeuralParams.h"
#include "core/neural/NeuralRegression.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace fa {
namespace {

/// The poll of the test rows' predictive: the cancel before each draw, and `report` given to
/// progress before the first draw and then at most every 0.1 s (a draw can take microseconds, and
/// a report may be a message to a window's thread).
ScoringPoll evaluationPoll(const std::atomic<bool>* cancel,
                           const std::function<void(const NeuralProgress&)>& progress,
                           NeuralProgress report) {
    using Clock = std::chrono::steady_clock;
    ScoringPoll poll{cancel, {}};
    if (progress)
        poll.tick = [&progress, report = std::move(report),
                     last = std::optional<Clock::time_point>()]() mutable {
            const Clock::time_point now = Clock::now();
            if (last && now - *last < std::chrono::milliseconds(100))
                return;
            last = now;
            progress(report);
        };
    return poll;
}

/// Runs a fit (NeuralFit or IterateFit: runEpoch, diverged, evaluate) for `epochs` epochs and
/// scores the test rows into row; false when cancelled (the unfinished split gives no row).
template <class Fit>
bool fitAndScore(Fit& fit, int epochs, const RegressionProblem& p, const NeuralConfig& config,
                 std::uint64_t seed, const std::atomic<bool>* cancel,
                 const std::function<void(const NeuralProgress&)>& progress,
                 const NeuralProgress& at, NeuralRow& row) {
    for (int e = 0; e < epochs && !fit.diverged(); ++e) {
        if (cancel && cancel->load())
            return false;
        fit.runEpoch();
    }
    if (fit.diverged()) {
        row.nmll = row.rmse = std::numeric_limits<double>::quiet_NaN();
        row.status = csvWord(FitStatus::Diverged);
        return true;
    }
    // The test rows' S draws, each a pass over every row, can outlast the fit: the stage says
    // so, and a cancel is seen before each draw.
    const Vector yTest = p.ytest.array() * p.yScale + p.yMean;
    NeuralProgress evaluating = at;
    evaluating.stage = "evaluating on the test rows";
    const ScoringPoll poll = evaluationPoll(cancel, progress, evaluating);
    const Predictive pr =
        fit.evaluate(p.Xtest, yTest, p.yMean, p.yScale, config.fit.predictiveSamples,
                     deriveSeed(seed, SeedStream::NeuralTestDraws), poll);
    if (poll.cancelled())
        return false;
    row.nmll = pr.nmll;
    row.rmse = pr.rmse;
    row.coverage95 = pr.coverage95;
    // Never "ok" beside a number that is not finite, nor beside an absurd one: a predictive
    // mean off by more than kAbsurdRmse standard deviations of the training target on average
    // is a fit that blew up without leaving a non-finite number (docs/maths/neural.md §3).
    const bool finite = std::isfinite(pr.nmll) && std::isfinite(pr.rmse);
    row.status = csvWord(!finite                            ? FitStatus::Failed
                         : pr.rmse > kAbsurdRmse * p.yScale ? FitStatus::Diverged
                                                            : FitStatus::Running);
    return true;
}

/// The (split, method) seed: a VIFA method's enum value, an iterate method's 100 + its value.
std::uint64_t methodSeed(const NeuralConfig& config, int split, std::uint64_t method) {
    return deriveSeed(
        deriveSeed(config.seed, SeedStream::NeuralSplitBase, static_cast<std::uint64_t>(split)),
        method);
}

/// One split of the protocol: its rows, one method at a time.
class SplitRun {
  public:
    using Progress = std::function<void(const NeuralProgress&)>;
    SplitRun(const NeuralConfig& config, const RegressionData& data, int split,
             const Progress& progress, const std::atomic<bool>* cancel)
        : m_config(config), m_data(data), m_split(split), m_progress(progress), m_cancel(cancel),
          m_p(splitRegression(data, config.trainFraction, config.seed, split)) {}

    /// The row of a VIFA / VIPPCA fit; none when cancelled.
    std::optional<NeuralRow> vifa(NeuralMethod method) {
        const std::string name = neuralMethodName(method);
        const std::optional<TuneResult> tuned = search(method, name);
        if (!tuned)
            return std::nullopt;
        report(name, "final fit");
        const std::uint64_t seed =
            methodSeed(m_config, m_split, static_cast<std::uint64_t>(method));
        NeuralFit fit(m_p.Xtrain, m_p.ytrain, method, tuned->best, m_config.fit,
                      deriveSeed(seed, SeedStream::NeuralFinalFit));
        return scored(fit, m_config.fit.epochs, seed, name, "final fit", tuned->best);
    }

    /// The row of a posterior from the SGD iterates, with its own search; none when cancelled.
    std::optional<NeuralRow> iterates(IterateMethod method) {
        const std::string name = iterateMethodName(method);
        if (cancelled())
            return std::nullopt;
        report(name, "tuning");
        const std::uint64_t seed =
            methodSeed(m_config, m_split, 100 + static_cast<std::uint64_t>(method));
        const std::optional<TuneResult> tuned = tuneIterates(m_p, m_config, method, seed, m_cancel);
        if (cancelled())
            return std::nullopt;
        report(name, "SGD");
        const IterateFitOptions o =
            iterateOptions(m_config.iterate, m_config.fit, method, tuned->best,
                           deriveSeed(seed, SeedStream::NeuralFinalFit));
        IterateFit fit(m_p.Xtrain, m_p.ytrain, o);
        fit.abandonOn(m_cancel);
        auto row = scored(fit, o.epochs, seed, name, "SGD", tuned->best);
        return cancelled() ? std::nullopt : row;
    }

  private:
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    void report(const std::string& name, const char* stage) const {
        if (m_progress)
            m_progress({m_split, m_config.splits, name, stage});
    }
    /// The method's search of the precisions.
    std::optional<TuneResult> search(NeuralMethod method, const std::string& name) {
        if (cancelled())
            return std::nullopt;
        report(name, "tuning");
        const TuneResult tuned =
            tuneNeural(m_p, method, m_config.fit, m_config.searchTrials, m_config.folds,
                       methodSeed(m_config, m_split, static_cast<std::uint64_t>(method)),
                       m_config.threads, m_cancel, m_config.ranges);
        if (cancelled())
            return std::nullopt;
        return tuned;
    }
    template <class Fit>
    std::optional<NeuralRow> scored(Fit& fit, int epochs, std::uint64_t seed,
                                    const std::string& name, const char* stage,
                                    const NeuralHyper& hyper) const {
        NeuralRow row;
        row.dataset = m_data.name;
        row.method = name;
        MlpShape shape;
        shape.hidden = m_config.fit.hidden;
        row.hidden = shape.name();
        row.split = m_split;
        row.hyper = hyper;
        if (!fitAndScore(fit, epochs, m_p, m_config, seed, m_cancel, m_progress,
                         {m_split, m_config.splits, name, stage}, row))
            return std::nullopt;
        return row;
    }

    const NeuralConfig& m_config;
    const RegressionData& m_data;
    int m_split;
    const Progress& m_progress;
    const std::atomic<bool>* m_cancel;
    RegressionProblem m_p;
};

} // namespace

std::vector<std::string> methodNames(const NeuralConfig& config) {
    std::vector<std::string> names;
    for (const NeuralMethod m : config.methods)
        names.push_back(neuralMethodName(m));
    for (const IterateMethod m : config.iterateMethods)
        names.push_back(iterateMethodName(m));
    return names;
}

IterateFitOptions iterateOptions(const IterateFitOptions& settings, const NeuralFitOptions& fit,
                                 IterateMethod method, const NeuralHyper& hyper,
                                 std::uint64_t seed) {
    IterateFitOptions o = settings;
    o.method = method;
    o.hidden = fit.hidden;
    o.epochs = fit.epochs;
    o.members = isMultiMethod(method) ? settings.members : 1;
    o.priorPrecision = hyper.priorPrecision;
    o.noisePrecision = hyper.noisePrecision;
    // The rate is given on the squared error of the standardised target, so that one rate
    // suits every searched beta: MapSgd's step on the negative log-likelihood is rate / beta
    // (docs/maths/neural.md §8).
    o.learningRate = settings.learningRate / hyper.noisePrecision;
    o.seed = seed;
    return o;
}

std::vector<NeuralRow> runNeural(const NeuralConfig& config,
                                 const std::function<void(const NeuralRow&)>& onRow,
                                 const std::function<void(const NeuralProgress&)>& progress,
                                 const std::atomic<bool>* cancel) {
    if (config.splits < 1 || (config.methods.empty() && config.iterateMethods.empty()))
        throw std::invalid_argument("need at least one split and one method");
    if (!(config.trainFraction > 0.0 && config.trainFraction < 1.0))
        throw std::invalid_argument("the training fraction must lie strictly between 0 and 1");
    checkParams(neuralParams(), config);
    checkSearchRanges(config.ranges);
    const RegressionData data = loadRegressionDataset(config.loader, config.dataset, config.target);
    std::vector<NeuralRow> out;
    // A cancelled (split, method) gives no row, and the run stops there.
    const auto keep = [&](std::optional<NeuralRow> row,
                          std::chrono::steady_clock::time_point start) {
        if (!row)
            return false;
        row->seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (onRow)
            onRow(*row);
        out.push_back(std::move(*row));
        return true;
    };
    for (const int s : shardTrials(config.splits, config.shard)) {
        SplitRun split(config, data, s, progress, cancel);
        using Clock = std::chrono::steady_clock;
        for (const NeuralMethod method : config.methods) {
            const Clock::time_point start = Clock::now();
            if (!keep(split.vifa(method), start))
                return out;
        }
        for (const IterateMethod method : config.iterateMethods) {
            const Clock::time_point start = Clock::now();
            if (!keep(split.iterates(method), start))
                return out;
        }
    }
    return out;
}

} // namespace fa
