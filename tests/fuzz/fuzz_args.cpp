// libFuzzer target: the CLI's argument checks on arbitrary argument lists. The first byte picks
// the command (fa-sweep, posterior, neural, latent, vae), the rest is split at NUL bytes into
// arguments, and the command's own parser and checks run on them, exactly as before a run (no data
// is read, nothing runs). A bad argument is refused with std::invalid_argument, which the program
// turns into exit code 2; anything else (another exception, a crash, undefined behaviour) is a
// finding.
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    static const char* const kCommands[] = {"fa-sweep", "posterior", "neural", "latent", "vae"};
    const int command = data[0] % 5;
    std::vector<std::string> parts{"faexplorer-cli", kCommands[command]};
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
    const int argc = static_cast<int>(parts.size());
    try {
        switch (command) {
        case 0:
            fa::cli::faSweepCommand().check(argc, argv.data());
            break;
        case 1:
            fa::cli::posteriorCommand().check(argc, argv.data());
            break;
        case 2:
            fa::cli::neuralCommand().check(argc, argv.data());
            break;
        case 3:
            fa::cli::latentCommand().check(argc, argv.data());
            break;
        default:
            fa::cli::vaeCommand().check(argc, argv.data());
        }
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
