#pragma once
// The faexplorer-cli subcommands. Each returns the process exit code; bad arguments throw
// std::invalid_argument, which main turns into one line on stderr and exit code 2.

#include <string>
#include <vector>

namespace fa::cli {
class CommandSpec;

/// One subcommand: its name, a one-line summary for the program's usage, its --help (printed by
/// `faexplorer-cli NAME --help`) and its run function (app/cli/CommandTable.cpp lists them).
struct Command {
    const char* name;
    const char* summary;
    std::string (*help)();
    int (*run)(int argc, char** argv);
};
const std::vector<Command>& commands();

std::string mergeHelp();

int runBenchCommand(int argc, char** argv);
int runPosteriorBenchCommand(int argc, char** argv);
int runLatentBenchCommand(int argc, char** argv);
int runNetworkBenchCommand(int argc, char** argv);
int runGradVarianceCommand(int argc, char** argv);
int runBoundCommand(int argc, char** argv);
int runMergeCommand(int argc, char** argv);

/// The experiment commands (app/cli/ArgParser.h): their --help, their argument checks alone
/// (the argument fuzzer's, tests/fuzz/fuzz_args.cpp) and their runs.
const CommandSpec& faSweepCommand();
const CommandSpec& posteriorCommand();
const CommandSpec& neuralCommand();
const CommandSpec& latentCommand();
const CommandSpec& vaeCommand();
const CommandSpec& gpCommand();
} // namespace fa::cli
