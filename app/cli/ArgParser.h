#pragma once
// --name value options for the CLI, with typed getters that throw one clear message.
#include "core/lab/TrialRunner.h"

#include <map>
#include <set>
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
    std::vector<long> integerList(const std::string& name, const std::vector<long>& fallback) const;
    std::vector<std::string> textList(const std::string& name,
                                      const std::vector<std::string>& fallback) const;
    /// "lo:hi" pair such as the spectrum 1:10.
    std::pair<double, double> range(const std::string& name,
                                    std::pair<double, double> fallback) const;

  private:
    std::map<std::string, std::string> m_values;
};

/// --threads N for the experiment commands: 0 or absent = every core.
int threadsOption(const ArgParser& args);
/// --shard i/n: the i-th of n slices of the trials or splits; absent = all of them.
Shard shardOption(const ArgParser& args);

} // namespace fa::cli
