// faexplorer-cli gp (issue 28): exact Gaussian-process regression with four kernels on the
// neural lab's splits; the engine is core/posterior/GpExperiment.h.
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"
#include "core/math/Summary.h"
#include "core/posterior/GpCsv.h"
#include "core/posterior/PosteriorParams.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fa::cli {
namespace {

GpConfig parseConfig(const ArgParser& args) {
    GpConfig c;
    c.dataset = args.text("dataset", "boston");
    c.target = args.text("target", "");
    c.loader = io::readOnce(io::datasetLoader(args.text("data-dir", ""))); // read once
    c.kernels = wordsArg(args, "kernel", {"se", "linear", "nn-erf", "nn-relu"}, "kernel",
                         parseGpKernel, gpKernelChoices());
    readParams(args, gpParams(), c);
    if (!(c.trainFraction > 0.0 && c.trainFraction < 1.0))
        throw std::invalid_argument("--train-fraction must lie strictly between 0 and 1");
    c.threads = threadsOption(args);
    c.shard = shardOption(args, c.trials);
    return c;
}

void printSummary(const GpConfig& c, const std::vector<GpRow>& rows, bool interrupted) {
    std::printf("gp %s, %zu row(s)%s: mean ± standard error over trials\n", c.dataset.c_str(),
                rows.size(), interrupted ? " (interrupted: the finished trials only)" : "");
    std::printf("%-8s  %-20s  %-20s  %-22s  %s\n", "kernel", "test NMLL", "test RMSE",
                "log marginal lik.", "ok/trials");
    for (const GpKernel k : c.kernels) {
        std::vector<double> nmll, rmse, lml;
        int ok = 0;
        for (const GpRow& r : rows)
            if (r.kernel == gpKernelName(k)) {
                nmll.push_back(r.nmll);
                rmse.push_back(r.rmse);
                lml.push_back(r.logMarginal);
                ok += r.status == csvWord(FitStatus::Running);
            }
        const MeanStdErr a = meanStdErr(nmll), b = meanStdErr(rmse), l = meanStdErr(lml);
        std::printf("%-8s  %6.3f ± %-11.3f  %6.3f ± %-11.3f  %9.2f ± %-10.2f  %d/%zu\n",
                    gpKernelName(k).c_str(), a.mean, a.stdErr, b.mean, b.stdErr, l.mean, l.stdErr,
                    ok, nmll.size());
    }
}

const char* const kSummary =
    "Exact Gaussian-process regression (docs/maths/gp.md): per trial, the neural lab's split "
    "(inputs and target standardised with the training rows), each kernel's hyperparameters by "
    "the log marginal likelihood (L-BFGS from a few starts), and the test NMLL and RMSE on the "
    "target's own scale; one row per (trial, kernel). The linear kernel is Bayesian linear "
    "regression with a bias: its log marginal likelihood is BLR's evidence.";

std::vector<OptionHelp> allOptions() {
    return experimentOptions(
        {{"dataset", "boston", "boston, concrete, energy, yacht, in-between or PATH.csv."},
         {"target", "", "A CSV's target column (default: the last)."},
         {"kernel", "se,linear,nn-erf,nn-relu",
          "Comma list of se (squared exponential, a length scale per input), linear (Bayesian "
          "linear regression), nn-erf (Williams 1997) and nn-relu (arc-cosine, Cho and Saul "
          "2009)."},
         dataDirOption()},
        gpParams());
}

int run(const ArgParser& args, const GpConfig& config) {
    requireOutput(args);
    refuseOutputOverDataset(args, "boston", false);
    // Bad files and an empty test part are named before the run.
    (void)splitRegression(loadRegressionDataset(config.loader, config.dataset, config.target),
                          config.trainFraction, config.seed, 0);
    using Rows = std::vector<GpRow>;
    return runExperiment<Rows>(
        args, {"gp", "trial", config.trials, config.shard, true},
        [&](ProgressLine& progress, const std::atomic<bool>* cancel) {
            return runGp(
                config,
                [&](const GpProgress& p) {
                    progress.report(p.trial, p.trials, "%s", p.kernel.c_str());
                },
                cancel);
        },
        [](std::ostream& csv, Rows& rows) {
            for (GpRow& row : rows) // finite but absurd is not ok either
                if (row.status == csvWord(FitStatus::Running) &&
                    !(std::abs(row.nmll) <= kDivergedBeyond))
                    row.status = csvWord(FitStatus::Diverged);
            io::writeGpCsv(csv, rows);
        },
        [&](const Rows& rows, bool interrupted) { printSummary(config, rows, interrupted); });
}

} // namespace

const CommandSpec& gpCommand() {
    static const ExperimentCommand<GpConfig> command{"gp", kSummary, allOptions(), parseConfig,
                                                     run};
    return command;
}

} // namespace fa::cli
