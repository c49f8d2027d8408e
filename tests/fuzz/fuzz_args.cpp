// libFuzzer target: the CLI's argument checks on arbitrary argument lists. The first byte picks
// the command (fa-sweep, posterior, neural, latent, vae, gp), the rest is split at NUL bytes into
// arguments, and the command's own parser and checks run on them, exactly as before a run (no data
// is read, nothing runs). A bad argument is refused with std::invalid_argument, which the program
// turns into exit code 2; anything else (another exception, a crash, undefined behaviour) is a
// finding.
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"

#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    struct Entry {
        const char* name;
        const fa::cli::CommandSpec& (*spec)();
    };
    static const Entry kCommands[] = {
        {"fa-sweep", fa::cli::faSweepCommand}, {"posterior", fa::cli::posteriorCommand},
        {"neural", fa::cli::neuralCommand},    {"latent", fa::cli::latentCommand},
        {"vae", fa::cli::vaeCommand},          {"gp", fa::cli::gpCommand}};
    const Entry& command = kCommands[data[0] % std::size(kCommands)];
    std::vector<std::string> parts{"faexplorer-cli", command.name};
    std::string current;
    for (std::size_t i = 1; i < size; ++i) {
        if (data[i] == 0) {
            parts.push_back(current);
            current.clear();
        } else {
            current.push_back(static_cast<char>(data[i]));
        }
    }
    if (size > 1)
        parts.push_back(current);
    std::vector<char*> argv;
    for (auto& p : parts)
        argv.push_back(p.data());
    argv.push_back(nullptr);
    try {
        command.spec().check(static_cast<int>(parts.size()), argv.data());
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
