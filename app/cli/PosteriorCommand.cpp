#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "app/cli/PosteriorArgs.h"
#include "core/io/AtomicFile.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"
#include "core/lab/Methods.h"
#include "core/math/Summary.h"
#include "core/posterior/PosteriorCsv.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fa::cli {

double positive(const ArgParser& args, const std::string& name, double fallback) {
    const double v = args.real(name, fallback);
    if (!(v > 0.0))
        throw std::invalid_argument("--" + name + " must be positive");
    return v;
}

bool isGeneratedPosteriorSet(const std::string& dataset) {
    return dataset == "synthetic" || generatedTarget(dataset, 0).has_value();
}

PosteriorSetup parsePosteriorSetup(const ArgParser& args) {
    PosteriorSetup s;
    s.dataset = args.text("dataset", "synthetic");
    s.target = args.text("target", "");
    s.loader = io::readOnce(io::datasetLoader(args.text("data-dir", ""))); // read once
    s.synthetic.samples = args.integerIn("n", 1000, 2, 10'000'000);
    s.synthetic.inputs = args.integerIn("inputs", 2, 1, 100'000);
    s.synthetic.correlation = args.real("correlation", 0.5);
    if (args.has("train-fraction")) {
        s.trainFraction = args.real("train-fraction", 1.0);
        if (!(s.trainFraction > 0.0 && s.trainFraction <= 1.0))
            throw std::invalid_argument("--train-fraction must lie in (0, 1]");
    }
    if (args.has("bias")) {
        const std::string b = args.text("bias", "");
        if (b != "yes" && b != "no")
            throw std::invalid_argument("--bias must be yes or no");
        s.bias = b == "yes";
    }
    const std::string hyper =
        args.text("hyper", args.has("alpha") || args.has("beta") ? "manual" : "auto");
    if (hyper == "thesis")
        s.hyper = HyperMode::Thesis;
    else if (hyper == "evidence")
        s.hyper = HyperMode::Evidence;
    else if (hyper == "manual") {
        s.hyper = HyperMode::Manual;
        // A generated target has its own alpha and beta: either flag alone overrides its own.
        const auto preset = generatedTarget(s.dataset, 0);
        if (!preset && (!args.has("alpha") || !args.has("beta")))
            throw std::invalid_argument("--hyper manual needs both --alpha and --beta");
        s.alpha = positive(args, "alpha", preset ? preset->hyper.alpha : 1.0);
        s.beta = positive(args, "beta", preset ? preset->hyper.beta : 1.0);
    } else if (hyper != "auto")
        throw std::invalid_argument("--hyper must be auto, thesis, evidence or manual (got '" +
                                    hyper + "')");
    return s;
}

namespace {

PosteriorConfig parseConfig(const ArgParser& args) {
    PosteriorConfig c;
    c.setup = parsePosteriorSetup(args);

    c.methods.clear();
    bool anyVi = false;
    for (const auto& name : args.distinctList("method", {"vifa-gauss"})) {
        const auto m = parseMethod(name);
        if (!m)
            throw std::invalid_argument("--method: unknown method '" + name + "' (use " +
                                        methodChoices(Lab::Posterior) + ")");
        c.methods.push_back(*m);
        anyVi = anyVi || !isSgdMethod(*m);
    }
    c.epochs = args.integerIn("epochs", anyVi ? 5000 : 1000, 1, 100'000'000);
    c.every = args.integerIn("every", std::max(1, c.epochs / 10), 1, 100'000'000);
    c.trials = args.integerIn("trials", 10, 1, 100'000);
    const long seed = args.integer("seed", 0);
    if (seed < 0)
        throw std::invalid_argument("--seed must not be negative");
    c.seed = static_cast<std::uint64_t>(seed);
    c.threads = threadsOption(args);
    c.shard = shardOption(args, c.trials);

    // The posterior lab's fields' ranges (ui/posterior/PosteriorControls.cpp), so that a run
    // the CLI accepts is one the window can show.
    PosteriorRunOptions& r = c.run;
    r.latent = args.integerIn("latent", 1, 1, kPosteriorLatentMax);
    r.vifa.batch = args.integerIn("batch", 100, 1, 1'000'000);
    r.vifa.samples = args.integerIn("samples", 10, 1, 10'000);
    r.vifa.lrC = args.realIn("lr-c", 0.01, kVifaRateMin, kVifaRateMax);
    r.vifa.lrF = args.realIn("lr-f", 1e-4, kVifaRateMin, kVifaRateMax);
    r.vifa.lrGamma = args.realIn("lr-gamma", 0.01, kVifaRateMin, kVifaRateMax);
    const std::string opt = args.text("optimizer", "sgd");
    if (opt != "sgd" && opt != "adam")
        throw std::invalid_argument("--optimizer must be sgd or adam");
    r.vifa.optimiser = opt == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    r.vifa.maxGradNorm = args.realIn("max-grad-norm", 10.0, 0.0, 1e9);
    r.vippcaSigma = args.realIn("sigma", 0.01, kVippcaSigmaMin, kVippcaSigmaMax);
    const std::string estimator = args.text("estimator", "reparam");
    if (const auto e = parseEstimator(estimator))
        r.estimator = *e;
    else
        throw std::invalid_argument("--estimator must be reparam, score or score-baseline (got '" +
                                    estimator + "')");
    if (r.estimator == GradientEstimator::ScoreBaseline && r.vifa.samples < 2)
        throw std::invalid_argument(
            "--estimator score-baseline needs --samples 2 or more (a leave-one-out baseline)");
    r.sgd.learningRate = args.realIn("sgd-lr", 0.01, 1e-5, 1.0); // the window's slider
    r.sgd.batch = args.integerIn("sgd-batch", 32, 1, 1'000'000);
    if (args.has("lambda")) {
        r.lambdaOverride = args.real("lambda", 0.0);
        if (!(*r.lambdaOverride >= 0.0))
            throw std::invalid_argument("--lambda must not be negative");
    }
    r.warmupEpochs = args.integerIn("warmup-epochs", 10, 0, 100'000);
    r.faWarmup = args.integerIn("fa-warmup", 100, 0, 100'000'000);
    r.sgaLearningRate = positive(args, "sga-lr", 0.001);
    return c;
}

void printSummary(const PosteriorConfig& c, const PosteriorProblem& first,
                  const std::vector<PosteriorRow>& rows) {
    std::printf(
        "posterior %s: D=%ld, N_train=%ld, alpha=%.6g beta=%.6g (%s, trial 0), K=%d, %d epoch(s), "
        "%d trial(s): mean ± standard error at the last epoch\n",
        first.dataset.c_str(), static_cast<long>(first.dim()),
        static_cast<long>(first.data.Xtrain.rows()), first.hyper.alpha, first.hyper.beta,
        hyperModeName(first.hyperMode).c_str(), c.run.latent, c.epochs, c.trials);
    if (first.exactLaplace) { // how far apart the two priors' posteriors are (trial 0)
        const GaussianPosterior &g = first.exact, &l = *first.exactLaplace;
        std::printf("exact posteriors (trial 0), Laplace prior against Gaussian prior: "
                    "rel_mean_dist %.4g, rel_cov_dist %.4g, w2 %.4g\n",
                    (l.mean - g.mean).norm() /
                        std::max(g.mean.norm(), std::sqrt(g.cov.trace())), // as the rows
                    relativeCovarianceDistance(l.cov, g.cov),
                    denseW2(l.mean, l.cov, g.mean, g.cov));
    }
    const bool grid = first.dim() == 2; // KL(q || p) by quadrature on the exact grid
    std::printf("%-13s  %-22s  %-22s  %-22s  %-22s  %s%s\n", "method", "rel_mean_dist",
                "rel_cov_dist", "w2", "w2_over_dim", grid ? "kl_by_quadrature        " : "",
                "ok/trials");
    for (const PosteriorMethod m : c.methods) {
        std::vector<double> mean, cov, w2, w2d, kl;
        int ok = 0, count = 0;
        for (const auto& r : rows)
            if (r.method == methodName(m) && r.epoch == c.epochs) {
                ++count;
                ok += r.status == csvWord(FitStatus::Running);
                mean.push_back(r.score.relMeanDist);
                cov.push_back(r.score.relCovDist);
                w2.push_back(r.score.w2);
                w2d.push_back(r.score.w2OverDim);
                kl.push_back(r.score.kl);
            }
        auto cell = [](const std::vector<double>& v) {
            const MeanStdErr s = meanStdErr(v);
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.4g ± %.2g", s.mean, s.stdErr);
            return std::string(buf);
        };
        const bool hasKl = grid && first.gridFor(m);
        std::printf(
            "%-13s  %-22s  %-22s  %-22s  %-22s  %s%d/%d\n", methodName(m).c_str(),
            cell(mean).c_str(), cell(cov).c_str(), cell(w2).c_str(), cell(w2d).c_str(),
            grid ? (hasKl ? cell(kl) : std::string("-")).append(24, ' ').substr(0, 24).c_str() : "",
            ok, count);
    }
}

const std::set<std::string> kOptions{
    "dataset",        "target",    "data-dir", "n",         "inputs",    "correlation",
    "train-fraction", "bias",      "hyper",    "alpha",     "beta",      "method",
    "latent",         "epochs",    "every",    "trials",    "seed",      "batch",
    "samples",        "lr-c",      "lr-f",     "lr-gamma",  "optimizer", "max-grad-norm",
    "sigma",          "estimator", "sgd-lr",   "sgd-batch", "lambda",    "warmup-epochs",
    "fa-warmup",      "sga-lr",    "out",      "shard",     "threads"};

} // namespace

void checkPosteriorArguments(int argc, char** argv) {
    (void)parseConfig(ArgParser(argc, argv, 2, kOptions));
}

int runPosteriorCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, kOptions);
    const PosteriorConfig config = parseConfig(args);
    requireOutput(args);
    refuseOutputOverDataset(args, "synthetic", isGeneratedPosteriorSet(config.setup.dataset));
    // Data, prior and shapes are checked before the long run (bad CSV cells are named here).
    const PosteriorProblem first =
        preparePosteriorProblem(config.setup, deriveSeed(config.seed, SeedStream::FirstTrial));
    if (config.run.latent >= first.dim())
        throw std::invalid_argument("--latent K must satisfy 1 <= K < D = " +
                                    std::to_string(first.dim()));
    using Rows = std::vector<PosteriorRow>;
    return runExperiment<Rows>(
        args, {"posterior", "trial", config.trials, config.shard, false},
        [&](ProgressLine& progress, const std::atomic<bool>*) {
            return runPosterior(config, [&](const PosteriorProgress& p) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "posterior: trial %d/%d, %s, epoch %ld/%ld",
                              p.trial + 1, p.trials, p.method.c_str(), p.epoch, p.epochs);
                progress.update(buf);
            });
        },
        [](std::ostream& csv, Rows& rows) {
            // Finite but absurd (a relative distance of 5e127 after rates of 10 and no
            // clipping) is not ok either.
            for (PosteriorRow& row : rows)
                if (row.status == csvWord(FitStatus::Running) &&
                    (row.score.relMeanDist > kDivergedBeyond ||
                     row.score.relCovDist > kDivergedBeyond))
                    row.status = csvWord(FitStatus::Diverged);
            io::writePosteriorCsv(csv, rows);
        },
        [&](const Rows& rows, bool) { printSummary(config, first, rows); });
}

} // namespace fa::cli
