// faexplorer-cli: the headless front end of the FA engine, for sweeps, benchmarks and figures.
#include "Commands.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>

namespace {
const char* const kUsage =
    "usage: faexplorer-cli COMMAND [--option value ...]\n"
    "\n"
    "commands:\n"
    "  fa-sweep  fit generated FA models with batch FA, online EM and online SGA\n"
    "            --dim 100 --latent 10 --spectrum 1:10 --samples 100,1000,10000,100000\n"
    "            --trials 10 --seed 0 --algorithms batch,em,sga --lr 0.001 --warmup 100\n"
    "            --generator exact|haar --batch-svd randomized|exact --out results.csv\n"
    "  bench     throughput and metric cost per dimension\n"
    "            --dim 100,1000,10000,100000,1000000 --latent 10 --min-seconds 1\n"
    "            --batch-samples 10000 --out bench.csv\n";
}

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    try {
        if (!std::strcmp(argv[1], "fa-sweep"))
            return fa::cli::runFaSweepCommand(argc, argv);
        if (!std::strcmp(argv[1], "bench"))
            return fa::cli::runBenchCommand(argc, argv);
        std::fprintf(stderr, "faexplorer-cli: unknown command '%s' (try --help)\n", argv[1]);
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "faexplorer-cli %s: %s\n", argv[1], e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faexplorer-cli %s: error: %s\n", argv[1], e.what());
        return 1;
    }
}
