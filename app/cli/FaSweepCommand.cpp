#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/explorer/ExplorerParams.h"
#include "core/explorer/FaSweepCsv.h"
#include "core/fa/PassThreads.h"
#include "core/io/AtomicFile.h"
#include "core/lab/Methods.h"
#include "core/math/Summary.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fa::cli {
namespace {

FaSweepConfig parseConfig(const ArgParser& args) {
    FaSweepConfig c;
    readParams(args, faSweepParams(),
               c); // the window's ranges too (core/explorer/ExplorerParams.h)
    const int dim = c.generator.dim, latent = c.generator.latent;
    if (latent >= dim)
        throw std::invalid_argument("--latent K must satisfy 1 <= K < D (got K = " +
                                    std::to_string(latent) + ", D = " + std::to_string(dim) + ")");
    const auto [lo, hi] = args.range("spectrum", {1.0, 10.0});
    if (!(lo > 0.0))
        throw std::invalid_argument("--spectrum: the lower bound must be positive");
    if (lo > hi)
        throw std::invalid_argument("--spectrum: the lower bound must not exceed the upper bound");
    c.generator.spectrumLo = lo;
    c.generator.spectrumHi = hi;
    const auto gen = parseGeneratorKind(args.text("generator", "exact"));
    if (!gen)
        throw std::invalid_argument("--generator must be exact or haar (got '" +
                                    args.text("generator", "") + "')");
    c.generator.kind = *gen;
    c.checkpoints = args.integerList("samples", {100, 1000, 10000, 100000});
    for (const long t : c.checkpoints)
        if (t <= 0)
            throw std::invalid_argument("--samples: every sample count must be positive");
    std::sort(c.checkpoints.begin(), c.checkpoints.end());
    c.checkpoints.erase(std::unique(c.checkpoints.begin(), c.checkpoints.end()),
                        c.checkpoints.end());
    c.threads = threadsOption(args);
    c.shard = shardOption(args, c.trials);
    c.runBatch = c.runEm = c.runSga = false;
    for (const auto& a : args.distinctList("algorithms", methodIds(Lab::Explorer))) {
        if (!findMethod(a, Lab::Explorer))
            throw std::invalid_argument("--algorithms: unknown algorithm '" + a + "' (use " +
                                        methodChoices(Lab::Explorer) + ")");
        c.runBatch = c.runBatch || a == "batch";
        c.runEm = c.runEm || a == "em";
        c.runSga = c.runSga || a == "sga";
    }
    const std::string svd = args.text("batch-svd", "randomized");
    if (svd != "randomized" && svd != "exact")
        throw std::invalid_argument("--batch-svd must be randomized or exact (got '" + svd + "')");
    c.batchSvd = svd == "exact" ? SvdMethod::Exact : SvdMethod::Randomized;
    validate(c); // anything the engine refuses beyond the checks above
    return c;
}

void printSummary(const FaSweepConfig& c, const std::vector<FaSweepRow>& rows) {
    std::printf(
        "fa-sweep D=%d K=%d spectrum [%g, %g] generator %s, %d trial(s): mean ± standard error\n",
        c.generator.dim, c.generator.latent, c.generator.spectrumLo, c.generator.spectrumHi,
        generatorName(c.generator.kind).c_str(), c.trials);
    std::printf("%10s  %-6s  %-22s  %-22s  %-22s  %s\n", "samples", "algo", "rel_cov_dist",
                "w2_over_dim", "rel_mean_dist", "ok/trials");
    for (const long t : c.checkpoints)
        for (const std::string& algo : methodIds(Lab::Explorer)) {
            std::vector<double> cov, w2d, mean;
            int ok = 0, count = 0;
            for (const auto& r : rows)
                if (r.samples == t && r.algorithm == algo) {
                    ++count;
                    ok += r.status == csvWord(FitStatus::Running);
                    cov.push_back(r.relCovDist);
                    w2d.push_back(r.w2OverDim);
                    mean.push_back(r.relMeanDist);
                }
            if (count == 0)
                continue;
            auto cell = [](const std::vector<double>& v) {
                const MeanStdErr m = meanStdErr(v);
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.4g ± %.2g", m.mean, m.stdErr);
                return std::string(buf);
            };
            std::printf("%10ld  %-6s  %-22s  %-22s  %-22s  %d/%d\n", t, algo.c_str(),
                        cell(cov).c_str(), cell(w2d).c_str(), cell(mean).c_str(), ok, count);
        }
}

const char* const kSummary =
    "Fit generated FA models with batch FA, online EM and online SGA (the thesis's sweep): one row "
    "per (trial, algorithm, sample count T) with the distances to the true covariance.";

/// The options of this command alone (experimentOptions adds the shared ones).
const std::vector<OptionHelp>& ownOptions() {
    static const std::vector<OptionHelp> o{
        {"samples", "100,1000,10000,100000", "Comma list of the sample counts T to score at."},
        {"spectrum", "1:10", "The generator's range a:b of s² (within 0.0001 to 1e9)."},
        {"generator", "exact", "exact (D up to 2000) or haar."},
        {"algorithms", "batch,em,sga", "Comma list of batch, em, sga."},
        {"batch-svd", "randomized", "Batch FA's SVD: randomized (scikit-learn's) or exact."}};
    return o;
}

/// The shared options with --threads saying what fa-sweep does with threads beyond its trials.
std::vector<OptionHelp> allOptions() {
    std::vector<OptionHelp> all = experimentOptions(ownOptions(), faSweepParams());
    for (OptionHelp& o : all)
        if (o.flag == "threads")
            o.help = "Trials side by side; 0: every core. Threads beyond the trials run (one trial "
                     "on --threads 2) split each online fit's pass over its rows from D >= " +
                     std::to_string(stream::kSplitMinRows) +
                     " (the rows do not depend on it; docs/threads.md).";
    return all;
}

int run(const ArgParser& args, const FaSweepConfig& config) {
    using Rows = std::vector<FaSweepRow>;
    return runExperiment<Rows>(
        args, {"fa-sweep", "trial", config.trials, config.shard, false},
        [&](ProgressLine& progress, const std::atomic<bool>*) {
            return runFaSweep(config, [&](const FaSweepProgress& p) {
                progress.report(p.trial, p.trials, "%ld/%ld samples", p.samples, p.totalSamples);
            });
        },
        [](std::ostream& csv, Rows& rows) { io::writeFaSweepCsv(csv, rows); },
        [&](const Rows& rows, bool) { printSummary(config, rows); });
}

} // namespace

const CommandSpec& faSweepCommand() {
    static const ExperimentCommand<FaSweepConfig> command{"fa-sweep", kSummary, allOptions(),
                                                          parseConfig, run};
    return command;
}

} // namespace fa::cli
