#pragma once
// The posterior lab's speed figures (docs/benchmarks.md): exact posterior per UCI set (thesis
// and evidence rules), data preparation, and whole VIFA / SGD runs on the synthetic problem.
#include "core/bench/Benchmark.h"
#include "core/data/RegressionData.h"

#include <functional>
#include <string>

namespace fa {

struct PosteriorBenchConfig {
    int repeats = 200;                 ///< timings of the exact posterior (median reported)
    int runRepeats = 5;                ///< whole 5000-epoch runs (median reported)
    DatasetLoader loader;              ///< fa::io::datasetLoader; without one only synthetic runs
    std::vector<std::string> datasets; ///< timed with the exact posterior (the bundled UCI sets)
};

std::vector<BenchRow> runPosteriorBench(const PosteriorBenchConfig& config,
                                        const std::function<void(const BenchRow&)>& onRow = {});

} // namespace fa
