#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"
#include "core/lab/Methods.h"
#include "core/math/Summary.h"
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

NeuralConfig parseConfig(const ArgParser& args) {
    NeuralConfig c;
    c.dataset = args.text("dataset", "boston");
    c.target = args.text("target", "");
    c.loader = io::readOnce(io::datasetLoader(args.text("data-dir", ""))); // read once
    c.methods.clear();
    for (const auto& name : args.distinctList("method", {"vifa-gauss"})) {
        const auto m = parseNeuralMethod(name);
        if (!m)
            throw std::invalid_argument("--method: unknown method '" + name + "' (use " +
                                        methodChoices(Lab::Neural) + ")");
        c.methods.push_back(*m);
    }
    c.fit.hidden.clear();
    for (const long h : args.integerList("hidden", {50})) {
        if (h < 1 || h > 100000)
            throw std::invalid_argument("--hidden: every layer needs between 1 and 100000 units");
        c.fit.hidden.push_back(static_cast<int>(h));
    }
    c.splits = args.integerIn("splits", 20, 1, 1000);
    c.fit.epochs = args.integerIn("epochs", 120, 1, 10'000'000);
    c.searchTrials = args.integerIn("search-trials", 10, 1, 100000);
    c.folds = args.integerIn("folds", 5, 2, 100);
    // K, M, L and the learning rate in the neural lab's ranges (ui/neural/NeuralPage.cpp).
    c.fit.latent = args.integerIn("latent", 1, 1, 100);
    c.fit.batch = args.integerIn("batch", 10, 1, 100'000);
    c.fit.samples = args.integerIn("samples", 4, 1, 1000);
    c.fit.predictiveSamples = args.integerIn("predictive-samples", 100, 1, 100000);
    c.threads = args.integerIn("threads", 2, 1, 256);
    c.fit.learningRate = args.realIn("lr", 0.01, 1e-6, 1.0);
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
    c.trainFraction = args.real("train-fraction", 0.9);
    if (!(c.trainFraction > 0.0 && c.trainFraction < 1.0))
        throw std::invalid_argument("--train-fraction must lie strictly between 0 and 1");
    const long seed = args.integer("seed", 0);
    if (seed < 0)
        throw std::invalid_argument("--seed must not be negative");
    c.seed = static_cast<std::uint64_t>(seed);
    c.shard = shardOption(args, c.splits, "splits");
    return c;
}

void printSummary(const NeuralConfig& c, const std::vector<NeuralRow>& rows, bool interrupted) {
    std::printf("neural %s, hidden %s, %zu row(s)%s: mean ± standard error over splits\n",
                c.dataset.c_str(), rows.empty() ? "?" : rows.front().hidden.c_str(), rows.size(),
                interrupted ? " (interrupted: finished splits only)" : "");
    std::printf("%-15s  %-20s  %-20s  %-10s  %s\n", "method", "test NMLL", "test RMSE", "ok/splits",
                "report (NMLL, RMSE)");
    for (const NeuralMethod m : c.methods) {
        std::vector<double> nmll, rmse;
        int ok = 0;
        for (const auto& r : rows)
            if (r.method == neuralMethodName(m)) {
                nmll.push_back(r.nmll);
                rmse.push_back(r.rmse);
                ok += r.status == csvWord(FitStatus::Running);
            }
        const MeanStdErr a = meanStdErr(nmll), b = meanStdErr(rmse);
        MlpShape shape;
        shape.hidden = c.fit.hidden;
        const auto published = publishedNeural(c.dataset, shape.name(), neuralMethodName(m));
        char ref[64] = "-";
        if (published)
            std::snprintf(ref, sizeof ref, "%.2f ± %.2f, %.2f ± %.2f", published->nmll,
                          published->nmllSe, published->rmse, published->rmseSe);
        char okText[32];
        std::snprintf(okText, sizeof okText, "%d/%zu", ok, nmll.size());
        std::printf("%-15s  %6.3f ± %-11.3f  %6.3f ± %-11.3f  %-10s  %s\n",
                    neuralMethodName(m).c_str(), a.mean, a.stdErr, b.mean, b.stdErr, okText, ref);
    }
}

const std::set<std::string> kOptions{
    "dataset",   "target",        "data-dir",           "method",  "hidden",
    "splits",    "epochs",        "search-trials",      "folds",   "latent",
    "batch",     "samples",       "predictive-samples", "threads", "lr",
    "optimizer", "max-grad-norm", "train-fraction",     "init",    "seed",
    "out",       "shard"};

} // namespace

void checkNeuralArguments(int argc, char** argv) {
    (void)parseConfig(ArgParser(argc, argv, 2, kOptions));
}

int runNeuralCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, kOptions);
    const NeuralConfig config = parseConfig(args);
    requireOutput(args);
    refuseOutputOverDataset(args, "boston", false);
    // Bad files, an empty test part and too few rows for the folds are named before the run.
    const RegressionData data = loadNeuralDataset(config.loader, config.dataset, config.target);
    const RegressionProblem first = neuralSplit(data, config.trainFraction, config.seed, 0);
    if (config.folds > first.Xtrain.rows())
        throw std::invalid_argument("--folds " + std::to_string(config.folds) + " exceeds the " +
                                    std::to_string(first.Xtrain.rows()) + " training rows");
    using Rows = std::vector<NeuralRow>;
    return runExperiment<Rows>(
        args, {"neural", "split", config.splits, config.shard, true},
        [&](ProgressLine& progress, const std::atomic<bool>* cancel) {
            return runNeural(
                config, {},
                [&](const NeuralProgress& p) {
                    char buf[160];
                    std::snprintf(
                        buf, sizeof buf,
                        "neural: split %d/%d, %s: %s (Ctrl-C stops and keeps finished splits)",
                        p.split + 1, p.splits, p.method.c_str(), p.stage.c_str());
                    progress.update(buf);
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

} // namespace fa::cli
