// faexplorer-cli grad-variance: the spread of each gradient estimator at one q (issue 13's
// contract: columns dataset,method,estimator,samples,block,mean_norm,variance,seconds).
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "app/cli/PosteriorArgs.h"
#include "core/io/AtomicFile.h"
#include "core/posterior/GradVariance.h"
#include "core/posterior/PosteriorCsv.h"
#include "core/posterior/PosteriorParams.h"

#include <cstdio>
#include <set>
#include <stdexcept>

namespace fa::cli {
namespace {

const std::set<std::string> kOptions{
    "latent",    "sigma",         "dataset",        "target",  "data-dir", "n",
    "inputs",    "correlation",   "train-fraction", "bias",    "hyper",    "alpha",
    "beta",      "method",        "estimator",      "samples", "at",       "trials",
    "seed",      "epochs",        "batch",          "lr-c",    "lr-f",     "lr-gamma",
    "optimizer", "max-grad-norm", "fit-samples",    "out"};

std::vector<GradientEstimator> estimatorsOf(const ArgParser& args) {
    return wordsArg(args, "estimator", {"reparam", "score", "score-baseline"}, "estimator",
                    parseEstimator, "reparam, score, score-baseline");
}

std::vector<int> samplesOf(const ArgParser& args) {
    std::vector<int> samples;
    for (const long s : args.integerList("samples", {1, 10, 100})) {
        if (s < 1 || s > 1'000'000)
            throw std::invalid_argument("--samples: every S must lie in [1, 1000000]");
        samples.push_back(static_cast<int>(s));
    }
    return samples;
}

std::uint64_t seedOf(const ArgParser& args) {
    const long seed = args.integer("seed", 0);
    if (seed < 0)
        throw std::invalid_argument("--seed must not be negative");
    return static_cast<std::uint64_t>(seed);
}

/// poisson-synthetic and bernoulli-latent: the families beyond the Gaussian, at the optimum or
/// the start; the Gaussian fits' options do not apply.
ScalarGradVarianceConfig parseScalarConfig(const ArgParser& args) {
    for (const char* flag :
         {"latent",      "sigma",          "target",        "n",           "inputs",
          "correlation", "train-fraction", "bias",          "hyper",       "alpha",
          "beta",        "epochs",         "batch",         "lr-c",        "lr-f",
          "lr-gamma",    "optimizer",      "max-grad-norm", "fit-samples", "data-dir"})
        if (args.has(flag))
            throw std::invalid_argument(std::string("--") + flag + " does not apply to " +
                                        args.text("dataset", ""));
    ScalarGradVarianceConfig c;
    c.dataset = args.text("dataset", "");
    c.method = args.text("method", c.dataset == "bernoulli-latent" ? "vi-bernoulli" : "vi-gamma");
    c.estimators = estimatorsOf(args);
    if (c.dataset == "bernoulli-latent" && !args.has("estimator")) // no reparameterisation
        c.estimators = {GradientEstimator::Score, GradientEstimator::ScoreBaseline};
    c.samples = samplesOf(args);
    const std::string at = args.text("at", "optimum");
    if (at != "optimum" && at != "start")
        throw std::invalid_argument("--at must be optimum or start for " + c.dataset);
    c.atOptimum = at == "optimum";
    c.trials = static_cast<int>(args.integerIn("trials", 1000, 2, 10'000'000));
    c.seed = seedOf(args);
    return c;
}

GradVarianceConfig parseConfig(const ArgParser& args) {
    GradVarianceConfig c;
    c.setup = parsePosteriorSetup(args);
    refuseOutputOverDataset(args, "synthetic", isGeneratedPosteriorSet(c.setup.dataset));
    const std::string method = args.text("method", "vi-full");
    const auto m = parseMethod(method);
    if (!m || isSgdMethod(*m))
        throw std::invalid_argument(
            "--method must be vi-full, vi-meanfield, vifa-gauss, vifa-laplace or vippca (got '" +
            method + "')");
    c.method = *m;
    c.estimators = estimatorsOf(args);
    c.samples = samplesOf(args);
    const std::string at = args.text("at", "optimum");
    c.epoch = args.integerIn("epochs", 5000, 0, 100'000'000);
    if (at == "optimum")
        c.at = GradVarianceConfig::At::Optimum;
    else if (at == "start")
        c.at = GradVarianceConfig::At::Start;
    else if (at.rfind("epoch:", 0) == 0) {
        c.at = GradVarianceConfig::At::Epoch;
        try {
            std::size_t used = 0;
            c.epoch = std::stol(at.substr(6), &used);
            if (used != at.size() - 6 || c.epoch < 0 || c.epoch > 100'000'000)
                throw std::invalid_argument("");
        } catch (const std::exception&) {
            // Bounded as --epochs: epoch:100000000000 ran for ever.
            throw std::invalid_argument("--at epoch:N needs a whole N between 0 and 100000000 "
                                        "(got '" +
                                        at + "')");
        }
    } else
        throw std::invalid_argument("--at must be optimum, start or epoch:N (got '" + at + "')");
    c.trials = args.integerIn("trials", 1000, 2, 10'000'000);
    c.seed = seedOf(args);
    // How the fit that brings q to epoch:N (or to the optimum of a target with no closed form)
    // runs: the posterior command's VI options, in their ranges (core/posterior/PosteriorParams.h);
    // its --samples is the fit's --fit-samples here.
    for (const char* flag :
         {"latent", "sigma", "batch", "lr-c", "lr-f", "lr-gamma", "max-grad-norm", "samples"}) {
        Param<PosteriorRunOptions> p = paramByFlag(posteriorRunParams(), flag);
        if (p.flag == "samples")
            p.flag = "fit-samples";
        if (args.has(p.flag))
            p.set(c.run, args.param(p));
    }
    const std::string opt = args.text("optimizer", "sgd");
    if (opt != "sgd" && opt != "adam")
        throw std::invalid_argument("--optimizer must be sgd or adam");
    c.run.vifa.optimiser = opt == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    return c;
}

void printSummary(int trials, const std::vector<GradVarianceRow>& rows) {
    std::printf("grad-variance %s, %s, %d estimates each: total variance of the -ELBO gradient\n",
                rows.front().dataset.c_str(), rows.front().method.c_str(), trials);
    std::printf("%-15s %8s  %-6s %14s %14s\n", "estimator", "S", "block", "mean_norm", "variance");
    for (const auto& r : rows)
        std::printf("%-15s %8d  %-6s %14.6g %14.6g\n", r.estimator.c_str(), r.samples,
                    r.block.c_str(), r.meanNorm, r.variance);
}

} // namespace

int runGradVarianceCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, kOptions);
    const bool scalar = isScalarFamilySet(args.text("dataset", ""));
    const ScalarGradVarianceConfig scalarConfig =
        scalar ? parseScalarConfig(args) : ScalarGradVarianceConfig{};
    const GradVarianceConfig config = scalar ? GradVarianceConfig{} : parseConfig(args);
    const auto& estimators = scalar ? scalarConfig.estimators : config.estimators;
    const auto& samples = scalar ? scalarConfig.samples : config.samples;
    const int trials = scalar ? scalarConfig.trials : config.trials;
    using Rows = std::vector<GradVarianceRow>;
    return runExperiment<Rows>(
        args, {"grad-variance", "run", 1, {}, false},
        [&](ProgressLine&, const std::atomic<bool>*) {
            Rows rows = scalar ? runScalarGradVariance(scalarConfig) : runGradVariance(config);
            for (const GradientEstimator e : estimators)
                for (const int s : samples)
                    if (e == GradientEstimator::ScoreBaseline && s < 2)
                        std::fprintf(stderr,
                                     "grad-variance: score-baseline at S = %d has no "
                                     "leave-one-out baseline: no rows\n",
                                     s);
            return rows;
        },
        [](std::ostream& csv, Rows& rows) { io::writeGradVarianceCsv(csv, rows); },
        [&](const Rows& rows, bool) { printSummary(trials, rows); });
}

} // namespace fa::cli
