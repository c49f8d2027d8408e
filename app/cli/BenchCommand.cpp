#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "core/bench/BenchCsv.h"
#include "core/io/AtomicFile.h"

#include <cstdio>
#include <stdexcept>

namespace fa::cli {

int runBenchCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, {"dim", "latent", "out", "min-seconds", "batch-samples"});
    BenchConfig c;
    c.dims.clear();
    for (const long d : args.integerList("dim", {100, 1000, 10000, 100000, 1000000})) {
        if (d < 2 || d > 100'000'000)
            throw std::invalid_argument("--dim: every dimension must be between 2 and 100000000");
        c.dims.push_back(static_cast<int>(d));
    }
    const long latent = args.integer("latent", 10);
    for (const int d : c.dims)
        if (latent < 1 || latent >= d)
            throw std::invalid_argument("--latent K must satisfy 1 <= K < D for every D");
    c.latent = static_cast<int>(latent);
    c.minSeconds = args.real("min-seconds", 1.0);
    if (!(c.minSeconds > 0.0))
        throw std::invalid_argument("--min-seconds must be positive");
    c.batchSamples = args.integer("batch-samples", 10000);
    if (c.batchSamples < 2)
        throw std::invalid_argument("--batch-samples must be at least 2");
    if (!args.has("out"))
        throw std::invalid_argument("--out FILE.csv is required");
    io::AtomicFile out(args.text("out", ""));
    const auto rows = runBench(c, [](const BenchRow& r) {
        std::printf("%-10s %-20s D=%-8d K=%-3d %12.6g %s\n", r.kind.c_str(), r.name.c_str(), r.dim,
                    r.latent, r.value, r.unit.c_str());
        std::fflush(stdout);
    });
    io::writeBenchCsv(out.stream(), rows);
    out.commit();
    return 0;
}

} // namespace fa::cli
