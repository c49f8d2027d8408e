#pragma once
// The posterior lab's speed figures (docs/benchmarks.md): exact posterior per UCI set (thesis
// and evidence rules), data preparation, and whole VIFA / SGD runs on the synthetic problem.
#include "Benchmark.h"

#include <functional>
#include <string>

namespace fa {

struct PosteriorBenchConfig {
    int repeats = 200;   ///< timings of the exact posterior (median reported)
    int runRepeats = 5;  ///< whole 5000-epoch runs (median reported)
    std::string dataDir; ///< empty = defaultDataDirectory()
};

std::vector<BenchRow> runPosteriorBench(const PosteriorBenchConfig& config,
                                        const std::function<void(const BenchRow&)>& onRow = {});

} // namespace fa
