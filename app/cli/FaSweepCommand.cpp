#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
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
    const long dim = args.integer("dim", 100), latent = args.integer("latent", 10);
    if (dim < 2 || dim > 100'000'000)
        throw std::invalid_argument("--dim must be between 2 and 100000000");
    if (latent < 1 || latent >= dim)
        throw std::invalid_argument("--latent K must satisfy 1 <= K < D (got K = " +
                                    std::to_string(latent) + ", D = " + std::to_string(dim) + ")");
    c.generator.dim = static_cast<int>(dim);
    c.generator.latent = static_cast<int>(latent);
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
    const long trials = args.integer("trials", 10);
    if (trials < 1 || trials > 100000)
        throw std::invalid_argument("--trials must be between 1 and 100000");
    c.trials = static_cast<int>(trials);
    const long seed = args.integer("seed", 0);
    if (seed < 0)
        throw std::invalid_argument("--seed must not be negative");
    c.seed = static_cast<std::uint64_t>(seed);
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
    c.learningRate = args.real("lr", 0.001);
    if (!(c.learningRate > 0.0))
        throw std::invalid_argument("--lr must be positive");
    c.warmup = args.integer("warmup", 100);
    if (c.warmup < 0)
        throw std::invalid_argument("--warmup must not be negative");
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

const std::set<std::string> kOptions{"dim",       "latent",     "spectrum", "samples", "trials",
                                     "seed",      "algorithms", "lr",       "warmup",  "generator",
                                     "batch-svd", "out",        "shard",    "threads"};

} // namespace

void checkFaSweepArguments(int argc, char** argv) {
    (void)parseConfig(ArgParser(argc, argv, 2, kOptions));
}

int runFaSweepCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, kOptions);
    const FaSweepConfig config = parseConfig(args);
    using Rows = std::vector<FaSweepRow>;
    return runExperiment<Rows>(
        args, {"fa-sweep", "trial", config.trials, config.shard, false},
        [&](ProgressLine& progress, const std::atomic<bool>*) {
            return runFaSweep(config, [&](const FaSweepProgress& p) {
                char buf[128];
                std::snprintf(buf, sizeof buf, "fa-sweep: trial %d/%d, %ld/%ld samples",
                              p.trial + 1, p.trials, p.samples, p.totalSamples);
                progress.update(buf);
            });
        },
        [](std::ostream& csv, Rows& rows) { io::writeFaSweepCsv(csv, rows); },
        [&](const Rows& rows, bool) { printSummary(config, rows); });
}

} // namespace fa::cli
