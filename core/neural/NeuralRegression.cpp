#include "core/neural/NeuralRegression.h"
#include "core/neural/NeuralParams.h"

#include "core/lab/Methods.h"
#include "core/math/Rng.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace fa {
namespace {

// The lab's names for its methods; labels, colours and the order come from the method
// registry (core/lab/Methods.h), which a test keeps in step with this table.
constexpr Named<NeuralMethod> kMethods[] = {{NeuralMethod::VifaGauss, "vifa-gauss"},
                                            {NeuralMethod::VifaLaplace, "vifa-laplace"},
                                            {NeuralMethod::VippcaGauss, "vippca-gauss"},
                                            {NeuralMethod::VippcaLaplace, "vippca-laplace"}};

double logUniform(Rng& rng, double lo, double hi) {
    return std::exp(rng.uniform(std::log(lo), std::log(hi)));
}

Matrix rows(const Matrix& X, Eigen::Index first, Eigen::Index count) {
    return X.middleRows(first, count);
}

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

} // namespace

std::string neuralMethodName(NeuralMethod method) {
    return nameIn(kMethods, method);
}

std::optional<NeuralMethod> parseNeuralMethod(const std::string& name) {
    return labMethod(kMethods, name, Lab::Neural);
}

std::vector<NeuralMethod> allNeuralMethods() {
    return labMethods(kMethods, Lab::Neural);
}

bool isPpca(NeuralMethod method) {
    return method == NeuralMethod::VippcaGauss || method == NeuralMethod::VippcaLaplace;
}

PriorKind neuralPrior(NeuralMethod method) {
    return method == NeuralMethod::VifaLaplace || method == NeuralMethod::VippcaLaplace
               ? PriorKind::Laplace
               : PriorKind::Gaussian;
}

NeuralFit::NeuralFit(const Matrix& X, const Vector& y, NeuralMethod method,
                     const NeuralHyper& hyper, const NeuralFitOptions& options,
                     std::uint64_t seed) {
    MlpShape shape;
    shape.inputs = static_cast<int>(X.cols());
    shape.hidden = options.hidden;
    m_net = std::make_unique<MlpLikelihood>(X, y, shape, hyper.noisePrecision);
    VifaOptions v;
    v.latent = options.latent;
    v.prior = neuralPrior(method);
    v.precision = hyper.priorPrecision;
    v.ppca = isPpca(method);
    v.sigma = hyper.sigma;
    v.batch = options.batch;
    v.samples = options.samples;
    v.optimiser = options.optimiser;
    v.lrC = v.lrF = v.lrGamma = options.learningRate;
    v.maxGradNorm = options.maxGradNorm;
    v.seed = seed;
    m_vifa = std::make_unique<Vifa>(*m_net, v);
    if (options.reportInit)
        return;
    // Start q at a usable network: the mean at a 1/fan_in-scaled (LeCun) initialisation, small
    // factors and noise, rather than the linear-regression start (c = 0, psi = 1), under which
    // every sampled network is wildly scaled.
    FAModel start = m_vifa->model();
    start.c =
        MlpLikelihood::initialWeights(shape, deriveSeed(seed, SeedStream::NeuralNetworkStart));
    start.F *= 0.1;
    start.psi.setConstant(v.ppca ? hyper.sigma : 0.01);
    m_vifa->setState(start);
}

Predictive NeuralFit::evaluate(const ConstMatrixRef& X, const ConstVectorRef& yOriginal,
                               double yMean, double yScale, int samples, std::uint64_t seed,
                               const ScoringPoll& poll) const {
    return predictive(*m_net, m_vifa->model(), X, yOriginal, yMean, yScale, samples, seed, poll);
}

namespace {

/// The search's candidates, all drawn up front, so the result does not depend on the thread
/// count.
std::vector<NeuralHyper> drawCandidates(int searchTrials, std::uint64_t seed) {
    std::vector<NeuralHyper> candidates(static_cast<std::size_t>(searchTrials));
    Rng rng(seed);
    for (auto& h : candidates) {
        h.priorPrecision = logUniform(rng, 0.01, 10.0);
        h.noisePrecision = logUniform(rng, 1.0, 100.0);
        h.sigma = logUniform(rng, 0.01, 1.0);
    }
    return candidates;
}

/// Candidate c's mean validation NMLL over the folds (infinite when a fit diverges); nullopt
/// when cancelled.
std::optional<double> crossValidate(const RegressionProblem& train, NeuralMethod method,
                                    const NeuralFitOptions& options, int folds, std::uint64_t seed,
                                    std::size_t c, const NeuralHyper& candidate,
                                    const std::atomic<bool>* cancel) {
    const Eigen::Index n = train.Xtrain.rows();
    double total = 0.0;
    for (int f = 0; f < folds; ++f) {
        if (cancel && cancel->load())
            return std::nullopt;
        const Eigen::Index lo = n * f / folds, hi = n * (f + 1) / folds;
        Matrix X(n - (hi - lo), train.Xtrain.cols());
        Vector y(n - (hi - lo));
        X << rows(train.Xtrain, 0, lo), rows(train.Xtrain, hi, n - hi);
        y << train.ytrain.head(lo), train.ytrain.tail(n - hi);
        NeuralFit fit(X, y, method, candidate, options,
                      deriveSeed(seed, SeedStream::NeuralTuningFitBase,
                                 c * 100 + static_cast<std::size_t>(f)));
        for (int e = 0; e < options.epochs && !fit.diverged(); ++e) {
            if (cancel && cancel->load())
                return std::nullopt; // an epoch at most after Ctrl-C, however long the fit
            fit.runEpoch();
        }
        if (fit.diverged())
            return std::numeric_limits<double>::infinity();
        // Validation NMLL on the standardised scale: the same ranking as the original one.
        const Predictive p = fit.evaluate(
            rows(train.Xtrain, lo, hi - lo), train.ytrain.segment(lo, hi - lo), 0.0, 1.0,
            options.predictiveSamples, deriveSeed(seed, SeedStream::NeuralValidationDraws),
            ScoringPoll{cancel, {}});
        if (cancel && cancel->load())
            return std::nullopt; // a draw at most after Ctrl-C, however many draws
        total += p.nmll / folds;
    }
    return total;
}

/// Runs `work` on `threads` threads, this one among them. An exception (memory) in any thread
/// calls `stopOthers` and is rethrown here, on the caller's thread: one escaping a std::thread
/// would end the program.
template <class Work, class Stop> void runOnThreads(int threads, Work&& work, Stop&& stopOthers) {
    std::exception_ptr error;
    std::mutex errorLock;
    auto guarded = [&] {
        try {
            work();
        } catch (...) {
            const std::lock_guard<std::mutex> lock(errorLock);
            if (!error)
                error = std::current_exception();
            stopOthers();
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::max(1, threads); ++t)
        pool.emplace_back(guarded);
    guarded();
    for (auto& t : pool)
        t.join();
    if (error)
        std::rethrow_exception(error);
}

} // namespace

TuneResult tuneNeural(const RegressionProblem& train, NeuralMethod method,
                      const NeuralFitOptions& options, int searchTrials, int folds,
                      std::uint64_t seed, int threads, const std::atomic<bool>* cancel) {
    const Eigen::Index n = train.Xtrain.rows();
    if (searchTrials < 1 || folds < 2 || folds > n)
        throw std::invalid_argument(
            "the search needs at least one trial and 2 <= folds <= training rows");
    const std::vector<NeuralHyper> candidates = drawCandidates(searchTrials, seed);
    std::vector<double> score(candidates.size(), std::numeric_limits<double>::infinity());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t c = next++; c < candidates.size(); c = next++) {
            const std::optional<double> total =
                crossValidate(train, method, options, folds, seed, c, candidates[c], cancel);
            if (!total)
                return;
            score[c] = std::isfinite(*total) ? *total : std::numeric_limits<double>::infinity();
        }
    };
    runOnThreads(threads, worker, [&] { next = candidates.size(); }); // no further candidates
    TuneResult r;
    r.trials = searchTrials;
    std::size_t best = 0;
    for (std::size_t c = 1; c < candidates.size(); ++c)
        if (score[c] < score[best])
            best = c;
    r.best = candidates[best];
    r.validationNmll = score[best];
    return r;
}

RegressionData loadNeuralDataset(const DatasetLoader& loader, const std::string& dataset,
                                 const std::string& target) {
    if (!loader)
        throw std::invalid_argument("no data loader for the data set '" + dataset + "'");
    return loader(dataset, target);
}

RegressionProblem neuralSplit(const RegressionData& data, double trainFraction, std::uint64_t seed,
                              int split) {
    PrepareOptions o;
    o.bias = false;
    o.trainFraction = trainFraction;
    o.splitSeed = deriveSeed(seed, static_cast<std::uint64_t>(split));
    RegressionProblem p = prepareRegression(data, o);
    if (p.Xtest.rows() == 0) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "the test part is empty: %ld rows with a training fraction of %g leave "
                      "none to score; lower the training fraction or use more rows",
                      static_cast<long>(data.size()), trainFraction);
        throw std::invalid_argument(text);
    }
    return p;
}

std::vector<NeuralRow> runNeural(const NeuralConfig& config,
                                 const std::function<void(const NeuralRow&)>& onRow,
                                 const std::function<void(const NeuralProgress&)>& progress,
                                 const std::atomic<bool>* cancel) {
    if (config.splits < 1 || config.methods.empty())
        throw std::invalid_argument("need at least one split and one method");
    if (!(config.trainFraction > 0.0 && config.trainFraction < 1.0))
        throw std::invalid_argument("the training fraction must lie strictly between 0 and 1");
    checkParams(neuralParams(), config);
    const RegressionData data = loadNeuralDataset(config.loader, config.dataset, config.target);
    const std::string dataset = data.name;
    std::vector<NeuralRow> out;
    for (const int s : shardTrials(config.splits, config.shard)) {
        const RegressionProblem p = neuralSplit(data, config.trainFraction, config.seed, s);
        for (const NeuralMethod method : config.methods) {
            if (cancel && cancel->load())
                return out;
            const std::string name = neuralMethodName(method);
            const auto start = std::chrono::steady_clock::now();
            if (progress)
                progress({s, config.splits, name, "tuning"});
            const std::uint64_t seed = deriveSeed(
                deriveSeed(config.seed, SeedStream::NeuralSplitBase, static_cast<std::uint64_t>(s)),
                static_cast<std::uint64_t>(method));
            const TuneResult tuned = tuneNeural(p, method, config.fit, config.searchTrials,
                                                config.folds, seed, config.threads, cancel);
            if (cancel && cancel->load())
                return out;
            if (progress)
                progress({s, config.splits, name, "final fit"});
            NeuralFit fit(p.Xtrain, p.ytrain, method, tuned.best, config.fit,
                          deriveSeed(seed, SeedStream::NeuralFinalFit));
            for (int e = 0; e < config.fit.epochs && !fit.diverged(); ++e) {
                if (cancel && cancel->load())
                    return out; // the unfinished split gives no row
                fit.runEpoch();
            }
            NeuralRow row;
            row.dataset = dataset;
            row.method = name;
            MlpShape shape;
            shape.hidden = config.fit.hidden;
            row.hidden = shape.name();
            row.split = s;
            row.hyper = tuned.best;
            if (fit.diverged()) {
                row.nmll = row.rmse = std::numeric_limits<double>::quiet_NaN();
                row.status = csvWord(FitStatus::Diverged);
            } else {
                // The test rows' S draws, each a pass over every row, can outlast the fit: the
                // stage says so, and a cancel is seen before each draw.
                const Vector yTest = p.ytest.array() * p.yScale + p.yMean;
                const ScoringPoll poll = evaluationPoll(
                    cancel, progress, {s, config.splits, name, "evaluating on the test rows"});
                const Predictive pr =
                    fit.evaluate(p.Xtest, yTest, p.yMean, p.yScale, config.fit.predictiveSamples,
                                 deriveSeed(seed, SeedStream::NeuralTestDraws), poll);
                if (poll.cancelled())
                    return out; // the unfinished split gives no row
                row.nmll = pr.nmll;
                row.rmse = pr.rmse;
                row.coverage95 = pr.coverage95;
                // Never "ok" beside a number that is not finite.
                row.status =
                    csvWord(std::isfinite(pr.nmll) && std::isfinite(pr.rmse) ? FitStatus::Running
                                                                             : FitStatus::Failed);
            }
            row.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (onRow)
                onRow(row);
            out.push_back(std::move(row));
        }
    }
    return out;
}

} // namespace fa
