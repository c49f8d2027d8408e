#include "app/cli/ArgParser.h"

#include "core/io/AtomicFile.h"
#include "core/io/FileChecks.h"
#include "core/io/RegressionCsv.h"
#include "core/io/ShardMerge.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace fa::cli {
namespace {
long parseInteger(const std::string& name, const std::string& s) {
    long v = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || res.ptr != s.data() + s.size())
        throw std::invalid_argument("--" + name + ": '" + s + "' is not a whole number");
    return v;
}
double parseReal(const std::string& name, const std::string& s) {
    std::size_t used = 0;
    double v = 0.0;
    try {
        v = std::stod(s, &used);
    } catch (const std::out_of_range&) { // 1e400, 1e-400: a number, but none a double holds
        if (s.find_first_not_of("0123456789+-.eE") == std::string::npos)
            throw std::invalid_argument("--" + name + ": '" + s +
                                        "' is beyond the range of a double");
        used = 0;
    } catch (const std::exception&) {
        used = 0;
    }
    // Decimal only, as the whole numbers: std::stod also reads hex ("0x10"), "inf", "nan" and
    // leading spaces.
    if (s.find_first_not_of("0123456789+-.eE") != std::string::npos)
        used = 0;
    if (used != s.size() || s.empty() || !std::isfinite(v))
        throw std::invalid_argument("--" + name + ": '" + s + "' is not a number");
    return v;
}
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::stringstream ss(s);
    std::string part;
    while (std::getline(ss, part, sep))
        parts.push_back(part);
    if (!s.empty() && s.back() == sep)
        parts.push_back("");
    return parts;
}
/// The parts of a list option; an empty value ("--method ''") names nothing and is refused.
std::vector<std::string> listParts(const std::string& name, const std::string& s) {
    if (s.empty())
        throw std::invalid_argument("--" + name + " needs at least one value (got an empty one)");
    return split(s, ',');
}

/// The comma list --name gives, each part through parse(name, part).
template <class Parse>
auto parsedList(const std::string& name, const std::string& value, Parse parse) {
    std::vector<decltype(parse(name, value))> values;
    for (const auto& part : listParts(name, value))
        values.push_back(parse(name, part));
    return values;
}
} // namespace

double ArgParser::param(const ParamInfo& p) const {
    if (p.kind == ParamKind::Whole) {
        const long v = integer(p.flag, 0);
        if (!accepts(p, static_cast<double>(v)))
            throw std::invalid_argument("--" + p.flag + " must be " + rangeText(p));
        return static_cast<double>(v);
    }
    const double v = real(p.flag, 0.0);
    if (!accepts(p, v))
        throw std::invalid_argument("--" + p.flag + " must lie " + rangeText(p));
    return v;
}

namespace {
/// The words of `text` in lines of at most `width` columns, every line after the first
/// starting at column `indent` (the first continues from `used`).
std::string wrapped(const std::string& text, std::size_t indent, std::size_t used,
                    std::size_t width = 100) {
    std::string out;
    std::istringstream words(text);
    std::string word;
    bool first = true;
    while (words >> word) {
        if (!first && used + 1 + word.size() > width) {
            out += '\n';
            out.append(indent, ' ');
            used = indent;
            first = true;
        }
        if (!first)
            out += ' ';
        out += word;
        used += word.size() + (first ? 0 : 1);
        first = false;
    }
    return out;
}
} // namespace

std::string commandHelp(const std::string& name, const std::string& summary,
                        const std::vector<OptionHelp>& options) {
    std::string out = "usage: faexplorer-cli " + name + " [--option value ...]\n\n" +
                      wrapped(summary, 0, 0) + "\n\noptions (default in brackets):\n";
    const std::size_t column = 30;
    for (const OptionHelp& o : options) {
        const std::string head = "  --" + o.flag + (o.value.empty() ? "" : " [" + o.value + "]");
        out += head;
        if (head.size() + 2 > column)
            out.append("\n").append(column, ' ');
        else
            out.append(column - head.size(), ' ');
        out += wrapped(o.help, column, column) + "\n";
    }
    return out;
}

ArgParser::ArgParser(int argc, char** argv, int first, const std::set<std::string>& known) {
    for (int i = first; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0)
            throw std::invalid_argument("unexpected argument '" + arg + "'");
        const std::string name = arg.substr(2);
        if (!known.count(name))
            throw std::invalid_argument("unknown option '" + arg + "'");
        if (i + 1 >= argc)
            throw std::invalid_argument("option '" + arg + "' needs a value");
        if (!m_values.emplace(name, argv[++i]).second)
            throw std::invalid_argument("option '" + arg + "' given twice");
    }
}

std::string ArgParser::text(const std::string& name, const std::string& fallback) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

long ArgParser::integer(const std::string& name, long fallback) const {
    return has(name) ? parseInteger(name, m_values.at(name)) : fallback;
}

int ArgParser::integerIn(const std::string& name, long fallback, long lo, long hi) const {
    const long v = integer(name, fallback);
    if (v < lo || v > hi)
        throw std::invalid_argument("--" + name + " must be between " + std::to_string(lo) +
                                    " and " + std::to_string(hi));
    return static_cast<int>(v);
}

double ArgParser::real(const std::string& name, double fallback) const {
    return has(name) ? parseReal(name, m_values.at(name)) : fallback;
}

double ArgParser::realIn(const std::string& name, double fallback, double lo, double hi) const {
    const double v = real(name, fallback);
    if (!(v >= lo && v <= hi)) {
        char text[96];
        std::snprintf(text, sizeof text, " must lie in [%g, %g]", lo, hi);
        throw std::invalid_argument("--" + name + text);
    }
    return v;
}

std::vector<long> ArgParser::integerList(const std::string& name,
                                         const std::vector<long>& fallback) const {
    return has(name) ? parsedList(name, m_values.at(name), parseInteger) : fallback;
}

std::vector<double> ArgParser::realList(const std::string& name,
                                        const std::vector<double>& fallback) const {
    return has(name) ? parsedList(name, m_values.at(name), parseReal) : fallback;
}

std::vector<std::string> ArgParser::textList(const std::string& name,
                                             const std::vector<std::string>& fallback) const {
    return has(name) ? listParts(name, m_values.at(name)) : fallback;
}

std::vector<std::string> ArgParser::distinctList(const std::string& name,
                                                 const std::vector<std::string>& fallback) const {
    const std::vector<std::string> values = textList(name, fallback);
    for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (values[i] == values[j])
                throw std::invalid_argument("--" + name + ": '" + values[i] + "' is listed twice");
    return values;
}

std::pair<double, double> ArgParser::range(const std::string& name,
                                           std::pair<double, double> fallback) const {
    if (!has(name))
        return fallback;
    const auto parts = split(m_values.at(name), ':');
    if (parts.size() != 2)
        throw std::invalid_argument("--" + name + ": expected lo:hi, got '" + m_values.at(name) +
                                    "'");
    return {parseReal(name, parts[0]), parseReal(name, parts[1])};
}

int threadsOption(const ArgParser& args) {
    return args.integerIn("threads", 0, 0, 1024);
}

Shard shardOption(const ArgParser& args, int slices, const char* what) {
    if (!args.has("shard"))
        return {};
    const Shard shard = parseShard(args.text("shard", ""));
    // Every shard's file says which slice it is on its rows (merge sees a missing one): a shard
    // with no trial would have no row to say it.
    if (shard.count > slices)
        throw std::invalid_argument(
            "--shard " + args.text("shard", "") + ": " + std::to_string(slices) + " " + what +
            " cannot make " + std::to_string(shard.count) +
            " slices (a shard would be empty); use at most " + std::to_string(slices));
    return shard;
}

std::string outputCsv(const ArgParser& args, const std::string& csv, const Shard& shard,
                      int slices) {
    return args.has("shard") ? io::withShardColumns(csv, shard, slices) : csv;
}

void refuseOutputOverDataset(const ArgParser& args, const std::string& fallbackDataset,
                             bool generated, const std::vector<std::string>& moreOutputs) {
    std::vector<std::string> flags{"out"};
    flags.insert(flags.end(), moreOutputs.begin(), moreOutputs.end());
    std::vector<std::string> inputs;
    if (!generated)
        inputs.push_back(
            io::datasetFile(args.text("dataset", fallbackDataset), args.text("data-dir", "")));
    for (std::size_t i = 0; i < flags.size(); ++i) {
        if (!args.has(flags[i]))
            continue;
        const std::string path = args.text(flags[i], "");
        io::refuseOutputOverInputs(path, inputs);
        if (i > 0) // --out is opened before the run; the others are written after it
            io::probeOutput(path);
        for (std::size_t j = 0; j < i; ++j)
            if (args.has(flags[j]) && io::sameFile(path, args.text(flags[j], "")))
                throw std::invalid_argument("--" + flags[j] + " and --" + flags[i] +
                                            " name one file ('" + path +
                                            "'): the second written would replace the first");
    }
}

ImageQuery imageQueryOption(const ArgParser& args, bool imageSet, long samples) {
    ImageQuery q;
    if (!imageSet) {
        for (const char* flag : {"classes", "hide-block"})
            if (args.has(flag))
                throw std::invalid_argument(std::string("--") + flag +
                                            " applies to the image data sets (fashion-mnist, "
                                            "digits) only");
        return q;
    }
    q.samples = args.has("samples") ? samples : 0;
    for (const long c : args.integerList("classes", {}))
        q.classes.push_back(int(std::clamp<long>(c, INT_MIN, INT_MAX)));
    try { // core/data/ImageData.h: the sessions and the window's field refuse alike
        checkImageClasses(q.classes);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--classes: ") + e.what());
    }
    return q;
}

} // namespace fa::cli
