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
#include "core/posterior/PosteriorParams.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace fa::cli {

bool isGeneratedPosteriorSet(const std::string& dataset) {
    return dataset == "synthetic" || generatedTarget(dataset, 0).has_value();
}

PosteriorSetup parsePosteriorSetup(const ArgParser& args) {
    PosteriorSetup s;
    s.dataset = args.text("dataset", "synthetic");
    s.target = args.text("target", "");
    s.loader = io::readOnce(io::datasetLoader(args.text("data-dir", ""))); // read once
    // --n, --inputs, --correlation, --train-fraction (0: automatic), --alpha, --beta: the lab's
    // ranges (core/posterior/PosteriorParams.h).
    readParams(args, posteriorDataCliParams(), s);
    if (args.has("bias")) {
        const std::string b = args.text("bias", "");
        if (b != "yes" && b != "no")
            throw std::invalid_argument("--bias must be yes or no");
        s.bias = b == "yes";
    }
    const std::string hyper =
        args.text("hyper", args.has("alpha") || args.has("beta") ? "manual" : "auto");
    s.hyper = parseHyperMode(hyper);
    if (!s.hyper && hyper != "auto")
        throw std::invalid_argument("--hyper must be auto, thesis, evidence or manual (got '" +
                                    hyper + "')");
    if (s.hyper == HyperMode::Manual) {
        // A generated target has its own alpha and beta: either flag alone overrides its own.
        const auto preset = generatedTarget(s.dataset, 0);
        if (!preset && (!args.has("alpha") || !args.has("beta")))
            throw std::invalid_argument("--hyper manual needs both --alpha and --beta");
        if (preset && !args.has("alpha"))
            s.alpha = preset->hyper.alpha;
        if (preset && !args.has("beta"))
            s.beta = preset->hyper.beta;
    }
    return s;
}

namespace {

/// The run's options that are words, not numbers, and λ (unset: α/β).
void parseRunWords(const ArgParser& args, PosteriorRunOptions& r) {
    const std::string opt = args.text("optimizer", "sgd");
    if (opt != "sgd" && opt != "adam")
        throw std::invalid_argument("--optimizer must be sgd or adam");
    r.vifa.optimiser = opt == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    const std::string estimator = args.text("estimator", "reparam");
    if (const auto e = parseEstimator(estimator))
        r.estimator = *e;
    else
        throw std::invalid_argument("--estimator must be reparam, score or score-baseline (got '" +
                                    estimator + "')");
    if (r.estimator == GradientEstimator::ScoreBaseline && r.vifa.samples < 2)
        throw std::invalid_argument(
            "--estimator score-baseline needs --samples 2 or more (a leave-one-out baseline)");
    if (args.has("lambda")) {
        r.lambdaOverride = args.real("lambda", 0.0);
        if (!(*r.lambdaOverride >= 0.0))
            throw std::invalid_argument("--lambda must not be negative");
    }
}

PosteriorConfig parseConfig(const ArgParser& args) {
    PosteriorConfig c;
    c.setup = parsePosteriorSetup(args);

    c.methods = methodsArg(args, "vifa-gauss", Lab::Posterior, parseMethod);
    const bool anyVi = !std::all_of(c.methods.begin(), c.methods.end(), isSgdMethod);
    c.epochs = anyVi ? 5000 : 1000; // SGD methods alone: 1000 epochs unless --epochs says
    // The window's and the sessions' ranges too (core/posterior/PosteriorParams.h), so that a
    // run the CLI accepts is one the window can show.
    readParams(args, posteriorParams(), c);
    if (!args.has("every"))
        c.every = std::max(1, c.epochs / 10);
    c.threads = threadsOption(args);
    c.shard = shardOption(args, c.trials);
    parseRunWords(args, c.run);
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

const char* const kSummary =
    "Bayesian regression: Gaussian approximations (VIFA, VIPPCA, full and mean-field VI, and FA "
    "fits of SGD iterates) against the exact posterior; one row per (trial, method, checkpoint) "
    "with the relative distances of mean and covariance, W2 and, where the posterior is a grid, "
    "the KL.";

/// The options of this command alone (experimentOptions adds the shared ones).
const std::vector<OptionHelp>& ownOptions() {
    static const std::vector<OptionHelp> o{
        {"dataset", "synthetic",
         "synthetic, logistic-synthetic, bimodal-synthetic, boston, concrete, energy, yacht or "
         "PATH.csv."},
        {"target", "", "A CSV's target column (default: the last)."},
        {"method", "vifa-gauss",
         "Comma list of vifa-gauss, vifa-laplace, vippca, sgd-em, sgd-sga, swag, vi-full, "
         "vi-meanfield."},
        {"estimator", "reparam",
         "The variational fits' gradient: reparam, score or score-baseline (--samples 2 or "
         "more)."},
        {"hyper", "auto",
         "α, β: auto (generated data: its own; real data: evidence), thesis, evidence or manual "
         "(--alpha, --beta)."},
        {"bias", "", "yes or no: a bias column (default: for real data only)."},
        {"optimizer", "sgd", "VIFA's and VI's optimiser: sgd (the report's) or adam."},
        {"lambda", "", "SGD's L2 strength λ, 0 or more (default: α/β, the posterior's mean)."},
        dataDirOption()};
    return o;
}

std::vector<OptionHelp> allOptions() {
    std::vector<OptionHelp> all = experimentOptions(ownOptions(), posteriorParams());
    for (OptionHelp& o : all)
        if (o.flag == "alpha" || o.flag == "beta")
            o.value.clear(); // manual α, β have no default but a generated target's own
        else if (o.flag == "every")
            o.value = "EPOCHS/10";
    return all;
}

int run(const ArgParser& args, const PosteriorConfig& config) {
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
                progress.report(p.trial, p.trials, "%s, epoch %ld/%ld", p.method.c_str(), p.epoch,
                                p.epochs);
            });
        },
        [](std::ostream& csv, Rows& rows) {
            // Finite but absurd (a relative distance of 5e127 after rates of 10 and no
            // clipping) is not ok either; one at 1.3e6 was `ok` again at 3.2e5.
            markDivergedRows(rows, kDivergedBeyond);
            io::writePosteriorCsv(csv, rows);
        },
        [&](const Rows& rows, bool) { printSummary(config, first, rows); });
}

} // namespace

const CommandSpec& posteriorCommand() {
    static const ExperimentCommand<PosteriorConfig> command{"posterior", kSummary, allOptions(),
                                                            parseConfig, run};
    return command;
}

} // namespace fa::cli
