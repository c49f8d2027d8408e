#pragma once
// CSV cells for the experiment tables: shortest round-trip doubles, "nan" for missing values.
#include "Benchmark.h"
#include "FaSweep.h"

#include <ostream>
#include <string>
#include <vector>

namespace fa::io {

std::string formatDouble(double v);

extern const char* const kFaSweepHeader;
void writeFaSweepCsv(std::ostream& out, const std::vector<FaSweepRow>& rows);

extern const char* const kBenchHeader;
void writeBenchCsv(std::ostream& out, const std::vector<BenchRow>& rows);

} // namespace fa::io
