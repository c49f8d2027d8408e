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
std::vector<NeuralHyper> drawCandidates(int searchTrials, std::uint64_t seed, const SearchRanges& r,
                                        bool laplace) {
    if (searchTrials < 1)
        throw std::invalid_argument(
            "the search needs at least one trial and 2 <= folds <= training rows");
    checkSearchRanges(r);
    std::vector<NeuralHyper> candidates(static_cast<std::size_t>(searchTrials));
    Rng rng(seed);
    for (auto& h : candidates) {
        h.priorPrecision = logUniform(rng, r.prior.lo, r.prior.hi);
        h.noisePrecision = logUniform(rng, r.noise.lo, r.noise.hi);
        h.sigma = logUniform(rng, r.sigma.lo, r.sigma.hi);
        if (laplace && r.laplace) { // the rate b itself; the fit takes alpha with b = sqrt(2 alpha)
            const double b = logUniform(rng, r.laplace->lo, r.laplace->hi);
            h.priorPrecision = 0.5 * b * b;
        }
    }
    return candidates;
}

/// Candidate c's mean validation NMLL over the folds (infinite when a fit diverges); nullopt
/// when cancelled. makeFit(X, y, candidate, seed) gives a fit (NeuralFit, IterateFit) as a
/// unique_ptr, run for `epochs` epochs and scored with `draws` predictive draws.
template <class MakeFit>
std::optional<double> crossValidate(const RegressionProblem& train, const MakeFit& makeFit,
                                    int epochs, int draws, int folds, std::uint64_t seed,
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
        const auto fit = makeFit(X, y, candidate,
                                 deriveSeed(seed, SeedStream::NeuralTuningFitBase,
                                            c * 100 + static_cast<std::size_t>(f)));
        for (int e = 0; e < epochs && !fit->diverged(); ++e) {
            if (cancel && cancel->load())
                return std::nullopt; // an epoch at most after Ctrl-C, however long the fit
            fit->runEpoch();
        }
        if (fit->diverged())
            return std::numeric_limits<double>::infinity();
        // Validation NMLL on the standardised scale: the same ranking as the original one.
        const Predictive p = fit->evaluate(
            rows(train.Xtrain, lo, hi - lo), train.ytrain.segment(lo, hi - lo), 0.0, 1.0, draws,
            deriveSeed(seed, SeedStream::NeuralValidationDraws), ScoringPoll{cancel, {}});
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

/// The random search of tuneNeural for any fit makeFit gives (see crossValidate).
template <class MakeFit>
TuneResult searchBy(const RegressionProblem& train, const MakeFit& makeFit, int epochs, int draws,
                    int searchTrials, int folds, std::uint64_t seed, int threads,
                    const std::atomic<bool>* cancel, const std::vector<NeuralHyper>& candidates) {
    const Eigen::Index n = train.Xtrain.rows();
    if (searchTrials < 1 || folds < 2 || folds > n)
        throw std::invalid_argument(
            "the search needs at least one trial and 2 <= folds <= training rows");
    std::vector<double> score(candidates.size(), std::numeric_limits<double>::infinity());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t c = next++; c < candidates.size(); c = next++) {
            const std::optional<double> total =
                crossValidate(train, makeFit, epochs, draws, folds, seed, c, candidates[c], cancel);
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

} // namespace

TuneResult tuneNeural(const RegressionProblem& train, NeuralMethod method,
                      const NeuralFitOptions& options, int searchTrials, int folds,
                      std::uint64_t seed, int threads, const std::atomic<bool>* cancel,
                      const SearchRanges& ranges) {
    const auto makeFit = [&](const Matrix& X, const Vector& y, const NeuralHyper& h,
                             std::uint64_t fitSeed) {
        return std::make_unique<NeuralFit>(X, y, method, h, options, fitSeed);
    };
    return searchBy(
        train, makeFit, options.epochs, options.predictiveSamples, searchTrials, folds, seed,
        threads, cancel,
        drawCandidates(searchTrials, seed, ranges, neuralPrior(method) == PriorKind::Laplace));
}

TuneResult tuneIterates(const RegressionProblem& train, const NeuralConfig& config,
                        IterateMethod method, std::uint64_t seed, const std::atomic<bool>* cancel) {
    const auto makeFit = [&](const Matrix& X, const Vector& y, const NeuralHyper& h,
                             std::uint64_t fitSeed) {
        auto fit = std::make_unique<IterateFit>(
            X, y, iterateOptions(config.iterate, config.fit, method, h, fitSeed));
        fit->abandonOn(cancel);
        return fit;
    };
    return searchBy(train, makeFit, config.fit.epochs, config.fit.predictiveSamples,
                    config.searchTrials, config.folds, seed, config.threads, cancel,
                    drawCandidates(config.searchTrials, seed, config.ranges, false));
}

} // namespace fa
