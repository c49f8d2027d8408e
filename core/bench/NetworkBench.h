#pragma once
// The cost of the SGD-iterate posteriors at a network's scale (issue 27 item 2,
// docs/benchmarks.md): per SGD step of a network trained on a UCI set, the network's own
// forward/backward pass and update against one update of online EM, online SGA and SWAG fed
// that step's weights, and the memory each holds.
#include "core/bench/Benchmark.h"
#include "core/data/RegressionData.h"

#include <functional>
#include <vector>

namespace fa {

struct NetworkBenchConfig {
    std::string dataset = "concrete"; ///< a bundled UCI set or a CSV path
    DatasetLoader loader;             ///< fa::io::datasetLoader
    std::vector<int> hidden{1000, 1000};
    int rank = 20;  ///< K of the FA fitters and of SWAG
    int batch = 32; ///< rows per SGD step
    int epochs = 2; ///< of SGD: every step is timed, and fed to each fitter in turn
    std::uint64_t seed = 0;
};

/// Rows (kind "network"): weights/D, sgd_step (µs), em_update, sga_update, swag_update (µs per
/// iterate, the median over the run's steps), each update's ratio to the SGD step, and the peak
/// resident memory after each fitter was built (MiB).
std::vector<BenchRow> runNetworkBench(const NetworkBenchConfig& config,
                                      const std::function<void(const BenchRow&)>& onRow = {});

} // namespace fa
