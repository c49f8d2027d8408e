#include "app/cli/Commands.h"
#include "core/io/AtomicFile.h"
#include "core/io/ShardMerge.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace fa::cli {

int runMergeCommand(int argc, char** argv) {
    if (argc < 4)
        throw std::invalid_argument("usage: faexplorer-cli merge OUT.csv IN.csv [IN.csv ...]");
    const std::string outPath = argv[2];
    std::vector<io::ShardText> inputs;
    for (int i = 3; i < argc; ++i) {
        const std::string path = argv[i];
        std::error_code ec; // the same file under two names (./a.csv, a.csv) counts as one
        if (path == outPath || std::filesystem::equivalent(path, outPath, ec))
            throw std::invalid_argument("the output '" + outPath + "' is also an input");
        for (const io::ShardText& earlier : inputs)
            if (std::filesystem::equivalent(path, earlier.name, ec))
                throw std::invalid_argument(path + " is given twice");
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw std::invalid_argument("cannot read '" + path + "': " + std::strerror(errno));
        std::ostringstream text;
        text << in.rdbuf();
        inputs.push_back({path, text.str()});
    }
    io::MergeSummary summary;
    const std::string merged = io::mergeShards(inputs, &summary);
    io::AtomicFile out(outPath);
    out.stream() << merged;
    out.commit();
    std::printf("merge: %d file(s), %ss 0-%d (%d), %ld rows -> %s\n", summary.shards,
                summary.column.c_str(), summary.slices - 1, summary.slices, summary.rows,
                outPath.c_str());
    return 0;
}

} // namespace fa::cli
