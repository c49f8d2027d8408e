#include "core/bench/BenchCsv.h"

namespace fa::io {

const char* const kBenchHeader = "kind,name,dim,latent,value,unit";

void writeBenchCsv(std::ostream& out, const std::vector<BenchRow>& rows) {
    out << kBenchHeader << '\n';
    for (const auto& r : rows)
        out << r.kind << ',' << r.name << ',' << r.dim << ',' << r.latent << ','
            << formatDouble(r.value) << ',' << r.unit << '\n';
}

} // namespace fa::io
