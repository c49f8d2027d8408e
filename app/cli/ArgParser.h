#pragma once
// --name value options for the CLI, with typed getters that throw one clear message, and the
// checks every command shares (shards, an output over an input, diverged fits).
#include "core/data/ImageData.h"
#include "core/lab/Methods.h"
#include "core/lab/Params.h"
#include "core/lab/TrialRunner.h"

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fa::cli {

class ArgParser {
  public:
    /// Parses argv[first..]; every option takes a value. Throws std::invalid_argument for an
    /// unknown option, a missing value or a repeated option.
    ArgParser(int argc, char** argv, int first, const std::set<std::string>& known);

    bool has(const std::string& name) const { return m_values.count(name) > 0; }
    std::string text(const std::string& name, const std::string& fallback) const;
    long integer(const std::string& name, long fallback) const;
    /// A whole number in [lo, hi]; outside it throws "--name must be between lo and hi".
    int integerIn(const std::string& name, long fallback, long lo, long hi) const;
    double real(const std::string& name, double fallback) const;
    /// A number in [lo, hi] (the window's range for the same field); outside it throws
    /// "--name must lie in [lo, hi]".
    double realIn(const std::string& name, double fallback, double lo, double hi) const;
    std::vector<long> integerList(const std::string& name, const std::vector<long>& fallback) const;
    std::vector<double> realList(const std::string& name,
                                 const std::vector<double>& fallback) const;
    std::vector<std::string> textList(const std::string& name,
                                      const std::vector<std::string>& fallback) const;
    /// textList whose entries must differ (a method list): "--method: 'em' is listed twice".
    std::vector<std::string> distinctList(const std::string& name,
                                          const std::vector<std::string>& fallback) const;
    /// "lo:hi" pair such as the spectrum 1:10.
    std::pair<double, double> range(const std::string& name,
                                    std::pair<double, double> fallback) const;
    /// A schema parameter's value (core/lab/Params.h), within its range: "--latent must be
    /// between 1 and 100", "--lr must lie in [1e-08, 10]".
    double param(const ParamInfo& p) const;

  private:
    std::map<std::string, std::string> m_values;
};

/// Reads every parameter of the schema that the command line gives into `config`; the others
/// keep the configuration's values (the schema's defaults).
template <class Config>
void readParams(const ArgParser& args, const Schema<Config>& schema, Config& config) {
    for (const Param<Config>& p : schema)
        if (!p.flag.empty() && args.has(p.flag))
            p.set(config, args.param(p));
}

/// A comma list of words (`fallback` without it; no word twice), each read by `parse` (a name
/// table); an unknown one is refused: "--kernel: unknown kernel 'x' (use se, linear, ...)".
template <class Parse>
auto wordsArg(const ArgParser& args, const std::string& flag,
              const std::vector<std::string>& fallback, const std::string& what, Parse parse,
              const std::string& choices) {
    std::vector<typename decltype(parse(std::string{}))::value_type> values;
    for (const std::string& name : args.distinctList(flag, fallback)) {
        const auto v = parse(name);
        if (!v)
            throw std::invalid_argument("--" + flag + ": unknown " + what + " '" + name +
                                        "' (use " + choices + ")");
        values.push_back(*v);
    }
    return values;
}

/// --method's comma list: each a method the lab offers, read by `parse` (its name table).
template <class Parse>
auto methodsArg(const ArgParser& args, const std::string& fallback, Lab lab, Parse parse) {
    return wordsArg(
        args, "method", {fallback}, "method",
        [&](const std::string& name) { return findMethod(name, lab) ? parse(name) : std::nullopt; },
        methodChoices(lab));
}

/// One line of a command's --help beside its schema's: "--dataset NAME  what it is".
struct OptionHelp {
    std::string flag, value, help;
};

/// The schema's options for --help, with their defaults and ranges.
template <class Config> std::vector<OptionHelp> optionHelp(const Schema<Config>& schema) {
    std::vector<OptionHelp> lines;
    for (const Param<Config>& p : schema)
        if (!p.flag.empty())
            lines.push_back({p.flag, valueText(p.fallback),
                             p.help + " (" + (p.kind == ParamKind::Whole ? "whole, " : "") +
                                 valueText(p.lo) + " to " + valueText(p.hi) + ")"});
    return lines;
}

/// --data-dir, for the commands that read bundled data sets.
inline OptionHelp dataDirOption() {
    return {"data-dir", "", "Where the bundled data sets are (default: beside the program)."};
}

/// --classes, for the commands that read the image data sets.
inline OptionHelp classesOption() {
    return {"classes", "",
            "fashion-mnist, digits: comma list of the classes to take (0 to 9; "
            "default all). --samples N takes at most N images of them."};
}

/// An image data set's --samples N (at most N images; all without it) and --classes; throws
/// std::invalid_argument for --classes, --hide-block or a listed class twice elsewhere.
ImageQuery imageQueryOption(const ArgParser& args, bool imageSet, long samples);

/// The known options of a command: the flags its --help lists.
inline std::set<std::string> optionNames(const std::vector<OptionHelp>& options) {
    std::set<std::string> names;
    for (const OptionHelp& o : options)
        names.insert(o.flag);
    return names;
}

/// "usage: faexplorer-cli NAME [options]", the summary, then one aligned, wrapped entry per
/// option.
std::string commandHelp(const std::string& name, const std::string& summary,
                        const std::vector<OptionHelp>& options);

/// An experiment command's options: --out, its own, those of every experiment command with
/// trials (--threads, --shard), then its schema's.
template <class Config>
std::vector<OptionHelp> experimentOptions(const std::vector<OptionHelp>& own,
                                          const Schema<Config>& schema) {
    std::vector<OptionHelp> all{
        {"out", "", "The CSV to write (required; replaced only when the run ends)."}};
    all.insert(all.end(), own.begin(), own.end());
    all.push_back(
        {"threads", "0", "Trials side by side; 0: every core (the output does not depend on it)."});
    all.push_back({"shard", "", "i/n: only the i-th of n slices of the trials (see merge)."});
    for (const OptionHelp& o : optionHelp(schema))
        all.push_back(o);
    return all;
}

/// A subcommand as the command table (app/cli/CommandTable.cpp) and the argument fuzzer see it.
class CommandSpec {
  public:
    virtual ~CommandSpec() = default;
    virtual std::string help() const = 0;
    /// The argument checks alone: no data is read, nothing runs; throws std::invalid_argument.
    virtual void check(int argc, char** argv) const = 0;
    /// The exit code; bad arguments throw std::invalid_argument.
    virtual int run(int argc, char** argv) const = 0;
};

/// An experiment command said once: its name, summary and options (own, shared and its
/// schema's: experimentOptions), a note closing its --help, the parser of its configuration and
/// its run from the parsed arguments. --help, the fuzzer's check and the run all read it.
template <class Config> class ExperimentCommand final : public CommandSpec {
  public:
    using Parse = Config (*)(const ArgParser&);
    using Run = int (*)(const ArgParser&, const Config&);
    ExperimentCommand(std::string name, std::string summary, std::vector<OptionHelp> options,
                      Parse parse, Run run, std::string note = {})
        : m_name(std::move(name)), m_summary(std::move(summary)), m_options(std::move(options)),
          m_known(optionNames(m_options)), m_parse(parse), m_run(run), m_note(std::move(note)) {}
    std::string help() const override { return commandHelp(m_name, m_summary, m_options) + m_note; }
    void check(int argc, char** argv) const override {
        (void)m_parse(ArgParser(argc, argv, 2, m_known));
    }
    int run(int argc, char** argv) const override {
        const ArgParser args(argc, argv, 2, m_known);
        return m_run(args, m_parse(args));
    }

  private:
    std::string m_name, m_summary;
    std::vector<OptionHelp> m_options;
    std::set<std::string> m_known;
    Parse m_parse;
    Run m_run;
    std::string m_note;
};

/// --threads N for the experiment commands: 0 or absent = every core.
int threadsOption(const ArgParser& args);
/// --shard i/n: the i-th of n slices of the `slices` trials or splits (`what`: "trials" or
/// "splits", for the message); absent = all of them. n above the slices is refused (an empty
/// shard could not say which slice it is).
Shard shardOption(const ArgParser& args, int slices, const char* what = "trials");
/// The CSV as written to --out: with the shard columns (core/io/ShardMerge.h) when --shard
/// was given, so that merge can tell a missing slice.
std::string outputCsv(const ArgParser& args, const std::string& csv, const Shard& shard,
                      int slices);

/// A fit whose numbers left every sensible range has diverged even while they are finite: a
/// relative distance to the exact posterior (posterior) or an NMLL per test point (neural), or
/// a log-likelihood or ELBO per row in nats (vae), beyond this magnitude. The commands mark such
/// rows `diverged` instead of `ok` (docs/reliability.md).
constexpr double kDivergedBeyond = 1e6;

/// Refuses (std::invalid_argument), before anything runs, an --out or any of `moreOutputs`
/// (the flags of a command's further output files, e.g. "imputation") that is the file --dataset
/// reads (the same path, a symbolic or hard link to it, or a bundled set's CSV in --data-dir:
/// the run would replace the data with its results; nothing to compare for generated data), and
/// two of them naming one file (the second written would replace the first). The outputs
/// beside --out are also checked for writing now (io::probeOutput), not after the run.
void refuseOutputOverDataset(const ArgParser& args, const std::string& fallbackDataset,
                             bool generated, const std::vector<std::string>& moreOutputs = {});

} // namespace fa::cli
