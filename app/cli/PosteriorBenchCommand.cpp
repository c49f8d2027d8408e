#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "core/bench/PosteriorBench.h"
#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
#include "core/io/RegressionCsv.h"

#include <cstdio>
#include <stdexcept>

namespace fa::cli {

int runPosteriorBenchCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, {"repeats", "run-repeats", "data-dir", "out"});
    PosteriorBenchConfig c;
    c.repeats = static_cast<int>(args.integer("repeats", 200));
    c.runRepeats = static_cast<int>(args.integer("run-repeats", 5));
    if (c.repeats < 1 || c.runRepeats < 1)
        throw std::invalid_argument("--repeats and --run-repeats must be at least 1");
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
