#pragma once
// faexplorer-cli merge: the CSVs of a sharded experiment (--shard i/n) back into the one file the
// unsharded command writes. Every experiment writes its rows trial by trial (or split by split),
// and a trial's rows come from one shard, so the merge is the shards' rows in order of their
// trial: byte for byte the unsharded output, apart from the seconds column.
//
// A shard's CSV says which slice it is: two columns after the command's own, `shard` (i/n, as
// given to --shard) and `run_trials` (`run_splits` for neural: the trials of the whole run), on
// every row. Readers that pick columns by name see the command's columns unchanged; merge drops
// the two again. So a missing slice (shard 2/2 forgotten) is seen, not taken as a short run.
#include "core/lab/TrialRunner.h"

#include <string>
#include <vector>

namespace fa::io {

struct ShardText {
    std::string name; ///< for messages: the file's path
    std::string text; ///< the whole CSV
};

/// The columns each trial of one command's CSV repeats identically (the run's settings and its
/// checkpoints): shards of one run agree on them, shards of different runs (another --latent,
/// --iterations, --epochs or method list) do not. Each lab's CSV declares its own
/// (core/latent/LatentCsv.h: latentMergeRule); merge knows no lab.
struct MergeRule {
    std::string header;                ///< the command's header, without the shard columns
    std::vector<std::string> agreeing; ///< the columns every trial repeats
};

struct MergeSummary {
    std::string column; ///< "trial" or "split"
    int shards = 0, slices = 0;
    long rows = 0;
};

/// The CSV of shard `shard` of a run of `runSlices` trials (or splits): `csv` (a header with a
/// trial or split column, then rows) with the `shard` and `run_trials` columns appended.
std::string withShardColumns(const std::string& csv, const Shard& shard, int runSlices);

/// Merges the CSVs of the n shards of one run (or one unsharded CSV alone, returned as it is);
/// `rules` say which columns a known header's trials must agree on (none for another header).
/// Throws std::invalid_argument naming the file and line for: a file cut mid-line (a row with
/// fewer or more cells than the header, or no line end at the end), a header that differs from
/// the first file's, no trial or split column, a slice cell that is not a whole number, files
/// without the shard columns (more than one), shards of different runs (another n or number of
/// trials, or a column that must agree across trials: the method, K, the checkpoints), a shard
/// given twice or missing, or a shard whose rows are not exactly its slice's trials.
std::string mergeShards(const std::vector<ShardText>& inputs, const std::vector<MergeRule>& rules,
                        MergeSummary* summary = nullptr);

} // namespace fa::io
