#pragma once
// The bench experiment: online throughput, batch fit time and metric cost per dimension.
#include <functional>
#include <string>
#include <vector>

namespace fa {

struct BenchRow {
    std::string kind, name; ///< throughput/em, bandwidth/triad, bound/em_fraction, fit/batch, ...
    int dim = 0, latent = 0;
    double value = 0.0;
    std::string unit;
};

struct BenchConfig {
    std::vector<int> dims{100, 1000, 10000, 100000, 1000000};
    int latent = 10;
    double minSeconds = 1.0;   ///< each throughput figure observes for at least this long
    long batchSamples = 10000; ///< samples per batch fit (D <= 1000 only)
    std::uint64_t seed = 0;
};

void validate(const BenchConfig& config);

/// Models come from the haar generator (the exact one is O(D^3)); sampling is included in the
/// throughput figures. onRow (optional) sees each row as it is measured.
std::vector<BenchRow> runBench(const BenchConfig& config,
                               const std::function<void(const BenchRow&)>& onRow = {});

/// Peak resident set size of this process so far, in MiB.
double peakRssMiB();

} // namespace fa
