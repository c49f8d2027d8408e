// faexplorer-cli: the headless front end of the FA engine, for sweeps, benchmarks and figures.
#include "app/HugePages.h"
#include "app/cli/Commands.h"
#include "core/io/AtomicFile.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace {
/// The program's usage, from the command table.
std::string usage() {
    std::string out = "usage: faexplorer-cli COMMAND [--option value ...]\n"
                      "       faexplorer-cli COMMAND --help   (the command's options)\n\n"
                      "commands:\n";
    for (const fa::cli::Command& c : fa::cli::commands()) {
        const std::string name = c.name;
        out += "  " + name + std::string(name.size() < 16 ? 16 - name.size() : 1, ' ') + c.summary +
               "\n";
    }
    return out +
           "\nfa-sweep, posterior, latent and vae run their trials side by side on --threads N "
           "(default:\nevery core; the output does not depend on N). fa-sweep, posterior, "
           "latent, vae and neural\ntake --shard i/n: run only the i-th of n slices of the "
           "trials (splits), for a cluster's job\narray; a shard's CSV ends with two more "
           "columns, shard (i/n) and run_trials (run_splits),\nso that 'merge' sees a missing "
           "slice; merge the n CSVs with 'merge'. See docs/cluster.md.\n";
}
/// Writing a FIFO that no program reads yet waits for a reader, as a shell's redirection
/// would; the CLI says so rather than wait without a word.
void sayFifoWaits(const std::string& path) {
    std::fprintf(stderr, "faexplorer-cli: '%s' is a FIFO: waiting for a program to read it\n",
                 path.c_str());
}
} // namespace

int main(int argc, char** argv) {
    restartWithHugePages(argv);
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(usage().c_str(), argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    // Ctrl-C, kill or a closed terminal leave no OUT.tmp-PID behind.
    fa::io::removeTemporariesOnSignals();
    fa::io::setFifoWaitNotice(sayFifoWaits);
    try {
        for (const fa::cli::Command& c : fa::cli::commands()) {
            if (std::strcmp(argv[1], c.name) != 0)
                continue;
            if (argc == 3 && (!std::strcmp(argv[2], "--help") || !std::strcmp(argv[2], "-h"))) {
                std::fputs(c.help().c_str(), stdout);
                return 0;
            }
            return c.run(argc, argv);
        }
        std::fprintf(stderr, "faexplorer-cli: unknown command '%s' (try --help)\n", argv[1]);
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "faexplorer-cli %s: %s\n", argv[1], e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr,
                     "faexplorer-cli %s: not enough memory for this run (lower the dimension, the "
                     "samples or the threads)\n",
                     argv[1]);
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faexplorer-cli %s: error: %s\n", argv[1], e.what());
        return 1;
    }
}
