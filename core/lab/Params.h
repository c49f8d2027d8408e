#pragma once
// One description per parameter of a lab's configuration (issue 26): its CLI flag, its key in a
// session file, the window's label, whole or real, its one range and one line of help.
// The CLI's parser and --help (app/cli/ArgParser.h), the session readers and writers
// (ui/session/JsonFields.h), the window's fields (ui/common/ParamFields.h) and the core's own
// validation (checkParams) all read the same list, so a range cannot disagree between them.
// The default is the configuration's own: get(Config{}) (withDefaults keeps it).
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fa {

enum class ParamKind { Whole, Real };

/// Seeds up to 2^53 - 1: what a session file (a JSON number) holds exactly.
constexpr double kMaxSeed = 9007199254740991.0;

/// What every reader needs but the value's place in a configuration.
struct ParamInfo {
    std::string flag;    ///< the CLI option without "--" ("lr"); empty: not a CLI option
    std::string session; ///< "section.key" in a session file ("run.learningRate"); empty: none
    std::string label;   ///< the window's field label and the name in core messages
    ParamKind kind = ParamKind::Real;
    double lo = 0.0, hi = 0.0; ///< the one closed range
    std::string help;          ///< one line: the field's tooltip and the --help entry
    /// A session without the key (written before the parameter existed) keeps the default.
    bool sessionOptional = false;
};

/// "between 1 and 100" for a whole number, "in [1e-08, 10]" for a real one.
std::string rangeText(const ParamInfo& p);
/// Within the range (and whole where it must be).
bool accepts(const ParamInfo& p, double value);
/// The value as the CLI and --help print it: 100, 0.003, 1e-08.
std::string valueText(double value);

template <class Config> struct Param : ParamInfo {
    std::function<double(const Config&)> get;
    std::function<void(Config&, double)> set;
    double fallback = 0.0; ///< get(Config{}), kept by withDefaults
};

template <class Config> using Schema = std::vector<Param<Config>>;

/// A parameter held in a member of the configuration (an int, a long, a double, a seed).
template <class Config, class T> Param<Config> field(ParamInfo info, T Config::*member) {
    Param<Config> p;
    static_cast<ParamInfo&>(p) = std::move(info);
    p.get = [member](const Config& c) { return static_cast<double>(c.*member); };
    p.set = [member](Config& c, double v) { c.*member = static_cast<T>(v); };
    return p;
}

/// The same parameters seen from a configuration that holds Inner as `member`.
template <class Outer, class Inner>
void appendNested(Schema<Outer>& into, const Schema<Inner>& inner, Inner Outer::*member) {
    for (const Param<Inner>& p : inner) {
        Param<Outer> q;
        static_cast<ParamInfo&>(q) = p;
        q.get = [get = p.get, member](const Outer& o) { return get(o.*member); };
        q.set = [set = p.set, member](Outer& o, double v) { set(o.*member, v); };
        into.push_back(std::move(q));
    }
}

/// The schema with each parameter's default taken from a default configuration.
template <class Config> Schema<Config> withDefaults(Schema<Config> s) {
    // (on the heap: GCC 12 -O3 takes a stacked one's strings for uninitialised, wrongly)
    const auto defaults = std::make_unique<const Config>();
    for (Param<Config>& p : s)
        p.fallback = p.get(*defaults);
    return s;
}

/// The parameter with this CLI flag; throws std::logic_error if the schema has none.
template <class Config>
const Param<Config>& paramByFlag(const Schema<Config>& s, const std::string& flag) {
    for (const Param<Config>& p : s)
        if (p.flag == flag)
            return p;
    throw std::logic_error("no parameter --" + flag);
}

/// The parameter with this CLI flag or, for one the CLI does not take, this session key.
template <class Config>
const Param<Config>& paramByKey(const Schema<Config>& s, const std::string& key) {
    for (const Param<Config>& p : s)
        if (p.flag == key || (p.flag.empty() && p.session == key))
            return p;
    throw std::logic_error("no parameter " + key);
}

/// Throws std::invalid_argument ("latent K must be between 1 and 100; it is 0") for the first
/// value outside its range: the core's validation of a configuration.
template <class Config> void checkParams(const Schema<Config>& s, const Config& c) {
    for (const Param<Config>& p : s)
        if (const double v = p.get(c); !accepts(p, v))
            throw std::invalid_argument(p.label + " must be " + rangeText(p) + "; it is " +
                                        valueText(v));
}

} // namespace fa
