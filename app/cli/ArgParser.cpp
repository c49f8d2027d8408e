#include "app/cli/ArgParser.h"

#include <charconv>
#include <cmath>
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
    } catch (const std::exception&) {
        used = 0;
    }
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
} // namespace

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

std::vector<long> ArgParser::integerList(const std::string& name,
                                         const std::vector<long>& fallback) const {
    if (!has(name))
        return fallback;
    std::vector<long> values;
    for (const auto& part : listParts(name, m_values.at(name)))
        values.push_back(parseInteger(name, part));
    return values;
}

std::vector<std::string> ArgParser::textList(const std::string& name,
                                             const std::vector<std::string>& fallback) const {
    return has(name) ? listParts(name, m_values.at(name)) : fallback;
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

Shard shardOption(const ArgParser& args) {
    return args.has("shard") ? parseShard(args.text("shard", "")) : Shard{};
}

} // namespace fa::cli
