#pragma once
// The benchmarks' CSV (faexplorer-cli bench, posterior-bench, latent-bench): header and writer.
#include "core/bench/Benchmark.h"
#include "core/io/CsvFormat.h"

#include <ostream>
#include <vector>

namespace fa::io {

extern const char* const kBenchHeader;
void writeBenchCsv(std::ostream& out, const std::vector<BenchRow>& rows);

} // namespace fa::io
