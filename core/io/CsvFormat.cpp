#include "core/io/CsvFormat.h"

#include <charconv>
#include <cmath>
#include <istream>
#include <limits>
#include <stdexcept>
#include <string>

namespace fa::io {

const char* const kFaSweepHeader =
    "dim,latent,spectrum_lo,spectrum_hi,generator,samples,trial,algorithm,"
    "rel_cov_dist,w2,w2_over_dim,rel_mean_dist,seconds,status";
const char* const kPosteriorHeader =
    "dataset,method,latent,trial,epoch,rel_mean_dist,rel_cov_dist,w2,w2_over_dim,seconds,status";
const char* const kNeuralHeader = "dataset,method,hidden,split,nmll,rmse,seconds,status";
const char* const kNeuralCurveHeader =
    "dataset,method,hidden,split,epoch,train_nmll,train_rmse,test_nmll,test_rmse";
const char* const kLatentHeader =
    "dataset,model,method,latent,components,trial,iteration,loglik_per_row,"
    "heldout_loglik_per_row,elbo_per_row,rel_cov_dist,seconds,status";
const char* const kVaeHeader =
    "dataset,method,latent,hidden,trial,epoch,train_elbo_per_row,test_elbo_per_row,"
    "test_iw_loglik_per_row,amortization_gap,approximation_gap,seconds,status";
const char* const kBenchHeader = "kind,name,dim,latent,value,unit";

namespace {
/// A text cell: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string textCell(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char ch : text)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}
std::string optionalCell(double v) {
    return std::isnan(v) ? std::string() : formatDouble(v);
}
} // namespace

std::string formatDouble(double v) {
    if (std::isnan(v))
        return "nan";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v); // shortest exact round trip
    return std::string(buf, res.ptr);
}

void writeFaSweepCsv(std::ostream& out, const std::vector<FaSweepRow>& rows) {
    out << kFaSweepHeader << '\n';
    for (const auto& r : rows)
        out << r.dim << ',' << r.latent << ',' << formatDouble(r.spectrumLo) << ','
            << formatDouble(r.spectrumHi) << ',' << r.generator << ',' << r.samples << ','
            << r.trial << ',' << r.algorithm << ',' << formatDouble(r.relCovDist) << ','
            << formatDouble(r.w2) << ',' << formatDouble(r.w2OverDim) << ','
            << formatDouble(r.relMeanDist) << ',' << formatDouble(r.seconds) << ',' << r.status
            << '\n';
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

void writeBoundCsv(std::ostream& out, const std::string& dataset, const std::string& family,
                   const std::vector<BoundStep>& steps) {
    out << "dataset,family,iteration,alpha,beta,elbo,log_evidence,gap\n";
    for (const auto& s : steps)
        out << textCell(dataset) << ',' << family << ',' << s.iteration << ','
            << formatDouble(s.hyper.alpha) << ',' << formatDouble(s.hyper.beta) << ','
            << formatDouble(s.elbo) << ',' << formatDouble(s.logEvidence) << ','
            << formatDouble(s.logEvidence - s.elbo) << '\n';
}

void writeGradVarianceCsv(std::ostream& out, const std::vector<GradVarianceRow>& rows) {
    out << "dataset,method,estimator,samples,block,mean_norm,variance,seconds\n";
    for (const auto& r : rows)
        out << textCell(r.dataset) << ',' << r.method << ',' << r.estimator << ',' << r.samples
            << ',' << r.block << ',' << formatDouble(r.meanNorm) << ',' << formatDouble(r.variance)
            << ',' << formatDouble(r.seconds) << '\n';
}

void writePosteriorCsv(std::ostream& out, const std::vector<PosteriorRow>& rows) {
    out << kPosteriorHeader << '\n';
    for (const auto& r : rows)
        out << textCell(r.dataset) << ',' << r.method << ',' << r.latent << ',' << r.trial << ','
            << r.epoch << ',' << formatDouble(r.score.relMeanDist) << ','
            << formatDouble(r.score.relCovDist) << ',' << formatDouble(r.score.w2) << ','
            << formatDouble(r.score.w2OverDim) << ',' << formatDouble(r.seconds) << ',' << r.status
            << '\n';
}

void writeNeuralCsv(std::ostream& out, const std::vector<NeuralRow>& rows) {
    out << kNeuralHeader << '\n';
    for (const auto& r : rows) // the hidden sizes hold commas ("50,50"), so that cell is quoted
        out << textCell(r.dataset) << ',' << r.method << ",\"" << r.hidden << "\"," << r.split
            << ',' << formatDouble(r.nmll) << ',' << formatDouble(r.rmse) << ','
            << formatDouble(r.seconds) << ',' << r.status << '\n';
}

void writeNeuralCurveCsv(std::ostream& out, const NeuralLiveSnapshot& s, int split) {
    out << kNeuralCurveHeader << '\n';
    for (const auto& m : s.methods)
        for (const NeuralCurvePoint& p : m.curve)
            out << textCell(s.dataset) << ',' << neuralMethodName(m.method) << ",\"" << s.hidden
                << "\"," << split << ',' << p.epoch << ',' << formatDouble(p.trainNmll) << ','
                << formatDouble(p.trainRmse) << ',' << formatDouble(p.testNmll) << ','
                << formatDouble(p.testRmse) << '\n';
}

void writeBenchCsv(std::ostream& out, const std::vector<BenchRow>& rows) {
    out << kBenchHeader << '\n';
    for (const auto& r : rows)
        out << r.kind << ',' << r.name << ',' << r.dim << ',' << r.latent << ','
            << formatDouble(r.value) << ',' << r.unit << '\n';
}

void writeLatentCsv(std::ostream& out, const std::vector<LatentRow>& rows) {
    out << kLatentHeader << '\n';
    for (const auto& r : rows)
        out << textCell(r.dataset) << ',' << r.model << ',' << r.method << ',' << r.latent << ','
            << r.components << ',' << r.trial << ',' << r.iteration << ',' << optionalCell(r.loglik)
            << ',' << optionalCell(r.heldout) << ',' << optionalCell(r.elbo) << ','
            << optionalCell(r.relCovDist) << ',' << formatDouble(r.seconds) << ',' << r.status
            << '\n';
}

/// "50,50" quoted; nothing for an empty text.
std::string quotedCell(const std::string& text) {
    std::string out;
    if (!text.empty())
        out.append(1, '"').append(text).append(1, '"');
    return out;
}

void writeVaeCsv(std::ostream& out, const std::vector<VaeRow>& rows) {
    out << kVaeHeader << '\n';
    for (const auto& r : rows)
        out << textCell(r.dataset) << ',' << r.method << ',' << r.latent << ','
            << quotedCell(r.hidden) << ',' << r.trial << ',' << r.epoch << ','
            << optionalCell(r.trainElbo) << ',' << optionalCell(r.testElbo) << ','
            << optionalCell(r.iwLoglik) << ',' << optionalCell(r.amortisationGap) << ','
            << optionalCell(r.approximationGap) << ',' << formatDouble(r.seconds) << ',' << r.status
            << '\n';
}

} // namespace fa::io
