// faexplorer-cli network-bench: the cost per SGD step of the SGD-iterate posteriors' updates
// (online EM, online SGA, SWAG) against the network's own step, at up to 10^6 weights.
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/bench/BenchCsv.h"
#include "core/bench/NetworkBench.h"
#include "core/io/AtomicFile.h"
#include "core/io/RegressionCsv.h"
#include "core/neural/NeuralParams.h"

#include <cstdio>

namespace fa::cli {

int runNetworkBenchCommand(int argc, char** argv) {
    const ArgParser args(
        argc, argv, 2, {"dataset", "hidden", "rank", "batch", "epochs", "seed", "data-dir", "out"});
    NetworkBenchConfig c;
    c.dataset = args.text("dataset", "concrete");
    c.hidden = hiddenLayers(args.integerList("hidden", {1000, 1000}), "--hidden");
    c.rank = args.integerIn("rank", 20, 1, 1000);
    c.batch = args.integerIn("batch", 32, 1, 100000);
    c.epochs = args.integerIn("epochs", 2, 1, 1000);
    c.seed = static_cast<std::uint64_t>(args.integerIn("seed", 0, 0, 1000000000));
    c.loader = io::datasetLoader(args.text("data-dir", ""));
    requireOutput(args);
    refuseOutputOverDataset(args, "concrete", false); // the results would replace the data
    io::AtomicFile out(args.text("out", ""));
    const auto rows = runNetworkBench(c, [](const BenchRow& r) {
        std::printf("%-34s D=%-8d K=%-4d %12.6g %s\n", r.name.c_str(), r.dim, r.latent, r.value,
                    r.unit.c_str());
        std::fflush(stdout);
    });
    io::writeBenchCsv(out.stream(), rows);
    out.commit();
    return 0;
}

} // namespace fa::cli
