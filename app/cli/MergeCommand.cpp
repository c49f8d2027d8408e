#include "app/cli/Commands.h"
#include "core/explorer/FaSweepCsv.h"
#include "core/io/AtomicFile.h"
#include "core/io/FileChecks.h"
#include "core/io/ShardMerge.h"
#include "core/latent/LatentCsv.h"
#include "core/neural/NeuralCsv.h"
#include "core/posterior/GpCsv.h"
#include "core/posterior/PosteriorCsv.h"
#include "core/vae/VaeCsv.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace fa::cli {
namespace {
const char* const kMergeUsage =
    "usage: faexplorer-cli merge OUT.csv IN.csv [IN.csv ...]\n"
    "  the CSVs of the n shards of one run (--shard i/n) back into the CSV of the unsharded run;\n"
    "  refuses a missing, repeated or cut shard and shards of different runs\n";
constexpr std::size_t kMaxShardBytes = std::size_t(2) << 30; // 2 GiB a file
} // namespace

std::string mergeHelp() {
    return kMergeUsage;
}

int runMergeCommand(int argc, char** argv) {
    for (int i = 2; i < argc; ++i)
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::fputs(kMergeUsage, stdout);
            return 0;
        }
    // merge takes no options: a word starting with '-' is a mistyped one, never a file to
    // write (name such a file ./-x.csv).
    for (int i = 2; i < argc; ++i)
        if (argv[i][0] == '-')
            throw std::invalid_argument(std::string("unknown option '") + argv[i] +
                                        "' (usage: faexplorer-cli merge OUT.csv IN.csv ...)");
    if (argc < 4)
        throw std::invalid_argument("usage: faexplorer-cli merge OUT.csv IN.csv [IN.csv ...]");
    const std::string outPath = argv[2];
    const std::vector<std::string> paths(argv + 3, argv + argc);
    io::refuseOutputOverInputs(outPath, paths);
    std::vector<io::ShardText> inputs;
    for (const std::string& path : paths) {
        for (const io::ShardText& earlier : inputs) // ./a.csv and a.csv are one file
            if (io::sameFile(path, earlier.name))
                throw std::invalid_argument(path + " is given twice");
        inputs.push_back({path, io::readRegularFile(path, kMaxShardBytes)});
    }
    io::MergeSummary summary;
    // The sharded commands' CSVs, each with the columns its trials must agree on.
    const std::vector<io::MergeRule> rules = {io::faSweepMergeRule(), io::posteriorMergeRule(),
                                              io::neuralMergeRule(),  io::latentMergeRule(),
                                              io::vaeMergeRule(),     io::gpMergeRule()};
    const std::string merged = io::mergeShards(inputs, rules, &summary);
    io::AtomicFile out(outPath);
    out.stream() << merged;
    out.commit();
    std::printf("merge: %d file(s), %ss 0-%d (%d), %ld rows -> %s\n", summary.shards,
                summary.column.c_str(), summary.slices - 1, summary.slices, summary.rows,
                outPath.c_str());
    return 0;
}

} // namespace fa::cli
