#pragma once
// faexplorer-cli merge: the CSVs of a sharded experiment (--shard i/n) back into the one file the
// unsharded command writes. Every experiment writes its rows trial by trial (or split by split),
// and a trial's rows come from one shard, so the merge is the shards' rows in order of their
// trial: byte for byte the unsharded output, apart from the seconds column.
#include <string>
#include <vector>

namespace fa::io {

struct ShardText {
    std::string name; ///< for messages: the file's path
    std::string text; ///< the whole CSV
};

struct MergeSummary {
    std::string column; ///< "trial" or "split"
    int shards = 0, slices = 0;
    long rows = 0;
};

/// Merges CSVs with one header; the slice column is "trial" or "split". Throws
/// std::invalid_argument naming the file when a header differs from the first file's, a file has
/// no such column or a cell there is not a whole number, two files hold the same trial, or
/// some trial below the largest is in none of them (a shard missing).
std::string mergeShards(const std::vector<ShardText>& inputs, MergeSummary* summary = nullptr);

} // namespace fa::io
