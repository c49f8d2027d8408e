#include "core/explorer/FaSweepCsv.h"

#include <charconv>
#include <istream>
#include <limits>
#include <stdexcept>

namespace fa::io {

const char* const kFaSweepHeader =
    "dim,latent,spectrum_lo,spectrum_hi,generator,samples,trial,algorithm,"
    "rel_cov_dist,w2,w2_over_dim,rel_mean_dist,seconds,status";

void writeFaSweepCsv(std::ostream& out, const std::vector<FaSweepRow>& rows) {
    writeCsv(out, kFaSweepHeader, rows, [](std::ostream& o, const FaSweepRow& r) {
        csvLine(o, r.dim, r.latent, formatDouble(r.spectrumLo), formatDouble(r.spectrumHi),
                r.generator, r.samples, r.trial, r.algorithm, formatDouble(r.relCovDist),
                formatDouble(r.w2), formatDouble(r.w2OverDim), formatDouble(r.relMeanDist),
                formatDouble(r.seconds), r.status);
    });
}

std::vector<FaSweepRow> readFaSweepCsv(std::istream& in) {
    std::string line;
    if (!std::getline(in, line) || line != kFaSweepHeader)
        throw std::invalid_argument(
            "not an fa-sweep CSV (its first line is not fa-sweep's header)");
    std::vector<FaSweepRow> rows;
    long number = 1;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty())
            continue;
        std::vector<std::string> c;
        std::size_t start = 0;
        for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos;
             start = comma + 1)
            c.push_back(line.substr(start, comma - start));
        c.push_back(line.substr(start));
        const std::string where = "fa-sweep CSV line " + std::to_string(number);
        if (c.size() != 14)
            throw std::invalid_argument(where + ": 14 cells expected, " + std::to_string(c.size()) +
                                        " found");
        auto real = [&](const std::string& s) {
            if (s == "nan" || s.empty())
                return std::numeric_limits<double>::quiet_NaN();
            double v = 0.0;
            const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
            if (res.ec != std::errc() || res.ptr != s.data() + s.size())
                throw std::invalid_argument(where + ": '" + s + "' is not a number");
            return v;
        };
        auto whole = [&](const std::string& s) {
            long v = 0;
            const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
            if (res.ec != std::errc() || res.ptr != s.data() + s.size())
                throw std::invalid_argument(where + ": '" + s + "' is not a whole number");
            return v;
        };
        FaSweepRow r;
        r.dim = static_cast<int>(whole(c[0]));
        r.latent = static_cast<int>(whole(c[1]));
        r.spectrumLo = real(c[2]);
        r.spectrumHi = real(c[3]);
        r.generator = c[4];
        r.samples = whole(c[5]);
        r.trial = static_cast<int>(whole(c[6]));
        r.algorithm = c[7];
        r.relCovDist = real(c[8]);
        r.w2 = real(c[9]);
        r.w2OverDim = real(c[10]);
        r.relMeanDist = real(c[11]);
        r.seconds = real(c[12]);
        r.status = c[13];
        rows.push_back(std::move(r));
    }
    return rows;
}

MergeRule faSweepMergeRule() {
    return {kFaSweepHeader,
            {"dim", "latent", "spectrum_lo", "spectrum_hi", "generator", "samples", "algorithm"}};
}

} // namespace fa::io
