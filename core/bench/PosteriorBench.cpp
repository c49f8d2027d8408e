#include "core/bench/PosteriorBench.h"

#include "core/neural/NeuralRegression.h"
#include "core/posterior/PosteriorLab.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace fa {
namespace {

template <class F> double medianSeconds(int repeats, F&& work) {
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r) {
        const auto start = std::chrono::steady_clock::now();
        work();
        t.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::nth_element(t.begin(), t.begin() + static_cast<long>(t.size() / 2), t.end());
    return t[t.size() / 2];
}

/// The rows so far, each handed to `onRow` as it is added.
struct BenchRows {
    const std::function<void(const BenchRow&)>& onRow;
    std::vector<BenchRow> rows;
    void add(BenchRow r) {
        if (onRow)
            onRow(r);
        rows.push_back(std::move(r));
    }
};

/// Keeps the timed work from being optimised away.
using Sink = volatile double;

/// A data set's preparation, and its exact posterior with the thesis' and the evidence's
/// hyperparameters.
void benchDataset(const PosteriorBenchConfig& config, const std::string& name, BenchRows& out,
                  Sink& sink) {
    RegressionProblem prob;
    const double prepare = medianSeconds(std::max(1, config.repeats / 20), [&] {
        PrepareOptions o;
        o.trainFraction = 0.5;
        prob = prepareRegression(config.loader(name, ""), o);
    });
    const int d = static_cast<int>(prob.dim());
    out.add({"posterior", "load_prepare/" + name, d, 0, 1e3 * prepare, "ms"});
    const Hyperparameters thesis = thesisHyperparameters(prob.Xtrain, prob.ytrain);
    out.add({"posterior", "exact_thesis/" + name, d, 0,
             1e3 * medianSeconds(config.repeats,
                                 [&] {
                                     sink =
                                         sink +
                                         exactPosterior(prob.Xtrain, prob.ytrain, thesis).cov(0, 0);
                                 }),
             "ms"});
    out.add({"posterior", "exact_evidence/" + name, d, 0,
             1e3 * medianSeconds(config.repeats,
                                 [&] {
                                     const Hyperparameters h =
                                         evidenceHyperparameters(prob.Xtrain, prob.ytrain).hyper;
                                     sink = sink +
                                            exactPosterior(prob.Xtrain, prob.ytrain, h).cov(0, 0);
                                 }),
             "ms"});
}

/// Whole posterior runs: each fitter on the report's synthetic settings, and full-covariance VI
/// on Boston when it is loaded.
void benchRuns(const PosteriorBenchConfig& config, BenchRows& out, Sink& sink) {
    for (const PosteriorMethod method : {PosteriorMethod::VifaGauss, PosteriorMethod::VifaLaplace,
                                         PosteriorMethod::SgdEm, PosteriorMethod::Swag}) {
        PosteriorConfig c; // the report's synthetic settings
        c.methods = {method};
        c.epochs = isSgdMethod(method) ? 1000 : 5000;
        c.every = c.epochs;
        c.trials = 1;
        const double s = medianSeconds(config.runRepeats,
                                       [&] { sink = sink + runPosterior(c).back().score.w2; });
        out.add({"posterior",
                 methodName(method) + "/synthetic_" + std::to_string(c.epochs) + "_epochs", 2, 1, s,
                 "s"});
    }
    // Issue 13's targets: full-covariance VI on Boston (D = 14), 10^4 epochs (< 2 s), whole
    // run with its data preparation; a 400 x 400 grid posterior (< 50 ms, benchGrids).
    if (config.loader && std::find(config.datasets.begin(), config.datasets.end(), "boston") !=
                             config.datasets.end()) {
        PosteriorConfig c;
        c.setup.dataset = "boston";
        c.setup.loader = config.loader;
        c.methods = {PosteriorMethod::ViFull};
        c.epochs = c.every = 10000;
        c.trials = 1;
        const double s = medianSeconds(config.runRepeats,
                                       [&] { sink = sink + runPosterior(c).back().score.w2; });
        out.add({"posterior", "vi-full/boston_10000_epochs", 14, 14, s, "s"});
    }
}

/// A 400 x 400 grid posterior of the linear (O(1) per cell) and logistic (O(N) per cell,
/// N = 60) targets.
void benchGrids(const PosteriorBenchConfig& config, BenchRows& out, Sink& sink) {
    for (const char* target : {"synthetic", "logistic-synthetic"}) {
        PosteriorSetup setup;
        setup.dataset = target;
        const PosteriorProblem p = preparePosteriorProblem(setup, 0);
        const LogDensity2 f = logJoint2(p.target, p.data.Xtrain, p.data.ytrain, p.hyper.beta,
                                        PriorKind::Gaussian, p.hyper.alpha);
        const GridBox box = boxAround(p.exact.mean, p.exact.cov, 8.0, 400);
        const double s = medianSeconds(std::max(1, config.repeats / 10),
                                       [&] { sink = sink + gridPosterior(f, box).logZ; });
        out.add({"posterior", std::string("grid_400x400/") + target, 2, 0, 1e3 * s, "ms"});
    }
}

/// Neural VIFA, one split of Boston with the report's settings for it (1 x 50, K = 3, M = 10,
/// L = 4, 200 epochs, Adam 0.01): one training run, then the 100-draw test predictive.
void benchNeural(const PosteriorBenchConfig& config, BenchRows& out, Sink& sink) {
    const RegressionData boston = config.loader("boston", "");
    const RegressionProblem split = splitRegression(boston, 0.9, 0, 0);
    NeuralFitOptions nf;
    nf.latent = 3;
    nf.epochs = 200;
    for (const int layers : {1, 2}) {
        nf.hidden.assign(static_cast<std::size_t>(layers), 50);
        double predictSeconds = 0.0;
        const double train = medianSeconds(config.runRepeats, [&] {
            NeuralFit fit(split.Xtrain, split.ytrain, NeuralMethod::VifaGauss, NeuralHyper{}, nf,
                          1);
            for (int e = 0; e < nf.epochs; ++e)
                fit.runEpoch();
            const auto start = std::chrono::steady_clock::now();
            sink = sink +
                   fit.evaluate(split.Xtest, split.ytest, split.yMean, split.yScale, 100, 2).nmll;
            predictSeconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
        const std::string net = layers == 1 ? "50" : "50x50";
        out.add({"neural", "vifa-gauss/boston_" + net + "_200_epochs_train",
                 static_cast<int>(split.Xtrain.cols()), 3, train - predictSeconds, "s"});
        out.add({"neural", "vifa-gauss/boston_" + net + "_predictive_100_draws",
                 static_cast<int>(split.Xtrain.cols()), 3, 1e3 * predictSeconds, "ms"});
    }
}

} // namespace

std::vector<BenchRow> runPosteriorBench(const PosteriorBenchConfig& config,
                                        const std::function<void(const BenchRow&)>& onRow) {
    if (config.repeats < 1 || config.runRepeats < 1)
        throw std::invalid_argument("repeat counts must be at least 1");
    BenchRows out{onRow, {}};
    if (!config.loader && !config.datasets.empty())
        throw std::invalid_argument("no data loader for the data sets");
    Sink sink = 0.0;
    for (const std::string& name : config.datasets)
        benchDataset(config, name, out, sink);
    benchRuns(config, out, sink);
    benchGrids(config, out, sink);
    if (config.loader)
        benchNeural(config, out, sink);
    return std::move(out.rows);
}

} // namespace fa
