#pragma once
// The faexplorer-cli subcommands. Each returns the process exit code; bad arguments throw
// std::invalid_argument, which main turns into one line on stderr and exit code 2.

#include <string>
#include <vector>

namespace fa::cli {
/// One subcommand: its name, a one-line summary for the program's usage, its --help (printed by
/// `faexplorer-cli NAME --help`) and its run function (app/cli/CommandTable.cpp lists them).
struct Command {
    const char* name;
    const char* summary;
    std::string (*help)();
    int (*run)(int argc, char** argv);
};
const std::vector<Command>& commands();

std::string vaeHelp();
std::string faSweepHelp();
std::string latentHelp();
std::string neuralHelp();
std::string posteriorHelp();
std::string mergeHelp();

int runFaSweepCommand(int argc, char** argv);
int runBenchCommand(int argc, char** argv);
int runPosteriorCommand(int argc, char** argv);
int runPosteriorBenchCommand(int argc, char** argv);
int runNeuralCommand(int argc, char** argv);
int runLatentCommand(int argc, char** argv);
int runLatentBenchCommand(int argc, char** argv);
int runGradVarianceCommand(int argc, char** argv);
int runBoundCommand(int argc, char** argv);
int runVaeCommand(int argc, char** argv);
int runMergeCommand(int argc, char** argv);

/// The argument checks of fa-sweep, posterior, neural and latent alone, exactly as the commands run
/// them (no data is read, nothing runs): for the argument fuzzer (tests/fuzz/fuzz_args.cpp).
void checkFaSweepArguments(int argc, char** argv);
void checkPosteriorArguments(int argc, char** argv);
void checkNeuralArguments(int argc, char** argv);
void checkLatentArguments(int argc, char** argv);
void checkVaeArguments(int argc, char** argv);
} // namespace fa::cli
