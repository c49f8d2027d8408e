#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "core/bench/BenchCsv.h"
#include "core/bench/PosteriorBench.h"
#include "core/io/AtomicFile.h"
#include "core/io/RegressionCsv.h"

#include <cstdio>
#include <stdexcept>

namespace fa::cli {

int runPosteriorBenchCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, {"repeats", "run-repeats", "data-dir", "out"});
    PosteriorBenchConfig c;
    // Checked as the long they were typed as: 4294967297 is refused, not wrapped to 1.
    c.repeats = args.integerIn("repeats", 200, 1, 1000000);
    c.runRepeats = args.integerIn("run-repeats", 5, 1, 100000);
    c.loader = io::datasetLoader(args.text("data-dir", ""));
    c.datasets = io::builtinDatasetNames();
    if (!args.has("out"))
        throw std::invalid_argument("--out FILE.csv is required");
    io::AtomicFile out(args.text("out", ""));
    const auto rows = runPosteriorBench(c, [](const BenchRow& r) {
        std::printf("%-36s D=%-3d %12.6g %s\n", r.name.c_str(), r.dim, r.value, r.unit.c_str());
        std::fflush(stdout);
    });
    io::writeBenchCsv(out.stream(), rows);
    out.commit();
    return 0;
}

} // namespace fa::cli
