#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/io/AtomicFile.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"
#include "core/lab/Methods.h"
#include "core/math/Summary.h"
#include "core/neural/NeuralCsv.h"
#include "core/neural/NeuralParams.h"
#include "core/neural/NeuralRegression.h"
#include "core/neural/PublishedNeural.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fa::cli {
namespace {

/// --prior-range LO,HI and the other search ranges (core/neural/SearchRanges.h).
void readRanges(const ArgParser& args, SearchRanges& ranges) {
    const auto& params = searchRangeParams();
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (!args.has(params[i].flag))
            continue;
        const std::string what = std::string("--") + params[i].flag;
        const std::vector<double> v = args.realList(params[i].flag, {});
        if (v.size() != 2)
            throw std::invalid_argument(what + " must be LO,HI with 0 < LO <= HI <= 1e8");
        setRangeAt(ranges, i, v[0], v[1], what);
    }
}

NeuralConfig parseConfig(const ArgParser& args) {
    NeuralConfig c;
    c.dataset = args.text("dataset", "boston");
    c.target = args.text("target", "");
    c.loader = io::readOnce(io::datasetLoader(args.text("data-dir", ""))); // read once
    setNeuralMethods(c, methodsArg(args, "vifa-gauss", Lab::Neural, neuralLabMethod));
    c.fit.hidden = hiddenLayers(args.integerList("hidden", {50}), "--hidden");
    readParams(args, neuralParams(), c); // the window's ranges too (core/neural/NeuralParams.h)
    if (!args.has("swa-start"))
        c.iterate.swaStart = c.fit.epochs / 2;
    if (!c.iterateMethods.empty() && c.iterate.swaStart >= c.fit.epochs)
        throw std::invalid_argument("--swa-start must be below --epochs (" +
                                    std::to_string(c.fit.epochs) + ")");
    c.threads = args.integerIn("threads", 2, 1, 256);
    const std::string opt = args.text("optimizer", "adam");
    if (opt != "sgd" && opt != "adam")
        throw std::invalid_argument("--optimizer must be sgd or adam");
    c.fit.optimiser = opt == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    c.fit.maxGradNorm = args.real("max-grad-norm", 10.0);
    if (!(c.fit.maxGradNorm >= 0.0))
        throw std::invalid_argument("--max-grad-norm must be 0 (off) or positive");
    const std::string init = args.text("init", "report");
    if (init != "report" && init != "scaled")
        throw std::invalid_argument("--init must be report or scaled");
    c.fit.reportInit = init == "report";
    const auto faStart = parseFaStart(args.text("fa-start", "thesis"));
    if (!faStart)
        throw std::invalid_argument("--fa-start must be thesis or iterates");
    c.iterate.faStart = *faStart;
    readRanges(args, c.ranges);
    c.trainFraction = args.real("train-fraction", 0.9);
    if (!(c.trainFraction > 0.0 && c.trainFraction < 1.0))
        throw std::invalid_argument("--train-fraction must lie strictly between 0 and 1");
    c.shard = shardOption(args, c.splits, "splits");
    return c;
}

void printSummary(const NeuralConfig& c, const std::vector<NeuralRow>& rows, bool interrupted) {
    std::printf("neural %s, hidden %s, %zu row(s)%s: mean ± standard error over splits\n",
                c.dataset.c_str(), rows.empty() ? "?" : rows.front().hidden.c_str(), rows.size(),
                interrupted ? " (interrupted: the finished (split, method) rows only)" : "");
    std::printf("%-15s  %-20s  %-20s  %-9s  %-10s  %s\n", "method", "test NMLL", "test RMSE",
                "95% cover", "ok/splits", "report (NMLL, RMSE)");
    for (const std::string& name : methodNames(c)) {
        std::vector<double> nmll, rmse, coverage;
        int ok = 0;
        for (const auto& r : rows)
            if (r.method == name) {
                nmll.push_back(r.nmll);
                rmse.push_back(r.rmse);
                coverage.push_back(r.coverage95);
                ok += r.status == csvWord(FitStatus::Running);
            }
        const MeanStdErr a = meanStdErr(nmll), b = meanStdErr(rmse);
        MlpShape shape;
        shape.hidden = c.fit.hidden;
        const auto published = publishedNeural(c.dataset, shape.name(), name);
        char ref[64] = "-";
        if (published)
            std::snprintf(ref, sizeof ref, "%.2f ± %.2f, %.2f ± %.2f", published->nmll,
                          published->nmllSe, published->rmse, published->rmseSe);
        char okText[32];
        std::snprintf(okText, sizeof okText, "%d/%zu", ok, nmll.size());
        std::printf("%-15s  %6.3f ± %-11.3f  %6.3f ± %-11.3f  %-9.3f  %-10s  %s\n", name.c_str(),
                    a.mean, a.stdErr, b.mean, b.stdErr, meanStdErr(coverage).mean, okText, ref);
    }
}

const char* const kSummary =
    "VIFA / VIPPCA and the posteriors from SGD iterates (SWA-FA, SWAG, ensembles) over a small "
    "network's weights (the report's protocol): per split a random search of the prior and noise "
    "precisions by cross-validation, a fit, and the test NMLL, RMSE and 95 % coverage; one row "
    "per (split, method).";

/// The options of this command alone (experimentOptions adds the shared ones).
const std::vector<OptionHelp>& ownOptions() {
    static const std::vector<OptionHelp> o = [] {
        std::vector<OptionHelp> v{
            {"dataset", "boston",
             "boston, concrete, energy, yacht, in-between (generated: one input, a gap between two "
             "clusters) or PATH.csv."},
            {"target", "", "A CSV's target column (default: the last)."},
            {"method", "vifa-gauss",
             "Comma list of vifa-gauss, vifa-laplace, vippca-gauss, vippca-laplace and the "
             "posteriors from the SGD iterates: map, swa-fa-em, swa-fa-sga, swag, ensemble, "
             "multiswag, multi-swa-fa-em (run after the others, each with its own search of the "
             "precisions)."},
            {"hidden", "50", "The network's hidden layers: 50 or 50,50 (each 1 to 100000 units)."},
            {"optimizer", "adam", "adam or sgd."},
            {"max-grad-norm", "10", "Gradient clipping norm; 0: off."},
            {"train-fraction", "0.9", "Share of the rows each split trains on (strictly 0 to 1)."},
            {"init", "report", "Start of q: report (c = 0, ψ = 1) or scaled (LeCun-style c)."}};
        const SearchRanges defaults;
        for (std::size_t i = 0; i < searchRangeParams().size(); ++i)
            v.push_back({searchRangeParams()[i].flag, rangeText(rangeAt(defaults, i)),
                         searchRangeParams()[i].help});
        v.push_back({"fa-start", "thesis",
                     "Start of SWA-FA's online EM / SGA: thesis (F₀ orthonormal, ψ = 1) or "
                     "iterates (F₀ and ψ at the iterates' spread over the epoch before "
                     "--swa-start)."});
        v.push_back(dataDirOption());
        return v;
    }();
    return o;
}

std::vector<OptionHelp> allOptions() {
    std::vector<OptionHelp> all = experimentOptions(ownOptions(), neuralParams());
    for (OptionHelp& o : all)
        if (o.flag == "threads")
            o = {"threads", "2", "The search's candidates side by side (1 to 256)."};
        else if (o.flag == "swa-start")
            o.value = "EPOCHS/2";
        else if (o.flag == "shard")
            o.help = "i/n: only the i-th of n slices of the splits (see merge).";
    return all;
}

int run(const ArgParser& args, const NeuralConfig& config) {
    requireOutput(args);
    refuseOutputOverDataset(args, "boston", false);
    // Bad files, an empty test part and too few rows for the folds are named before the run.
    const RegressionData data = loadRegressionDataset(config.loader, config.dataset, config.target);
    const RegressionProblem first = splitRegression(data, config.trainFraction, config.seed, 0);
    if (config.folds > first.Xtrain.rows())
        throw std::invalid_argument("--folds " + std::to_string(config.folds) + " exceeds the " +
                                    std::to_string(first.Xtrain.rows()) + " training rows");
    for (const IterateMethod m : config.iterateMethods) // e.g. a rank K not below the weights
        (void)IterateFit(first.Xtrain, first.ytrain,
                         iterateOptions(config.iterate, config.fit, m, {}, config.seed));
    using Rows = std::vector<NeuralRow>;
    return runExperiment<Rows>(
        args, {"neural", "split", config.splits, config.shard, true},
        [&](ProgressLine& progress, const std::atomic<bool>* cancel) {
            return runNeural(
                config, {},
                [&](const NeuralProgress& p) {
                    progress.report(p.split, p.splits, "%s: %s", p.method.c_str(), p.stage.c_str());
                },
                cancel);
        },
        [](std::ostream& csv, Rows& rows) {
            // Finite but absurd (an NMLL of 5.8e22 after --lr 10) is not ok either.
            for (NeuralRow& row : rows)
                if (row.status == csvWord(FitStatus::Running) &&
                    (!(std::abs(row.nmll) <= kDivergedBeyond) || !std::isfinite(row.rmse)))
                    row.status = csvWord(FitStatus::Diverged);
            io::writeNeuralCsv(csv, rows);
        },
        [&](const Rows& rows, bool interrupted) { printSummary(config, rows, interrupted); });
}

} // namespace

const CommandSpec& neuralCommand() {
    static const ExperimentCommand<NeuralConfig> command{"neural", kSummary, allOptions(),
                                                         parseConfig, run};
    return command;
}

} // namespace fa::cli
