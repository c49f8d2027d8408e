#pragma once
// fa-sweep's CSV (faexplorer-cli fa-sweep, the explorer window's trials, faexplorer-sweep-figures):
// its header, writer and reader, and the columns its shards must agree on (core/io/ShardMerge.h).
#include "core/explorer/FaSweep.h"
#include "core/io/CsvFormat.h"
#include "core/io/ShardMerge.h"

#include <istream>
#include <ostream>
#include <vector>

namespace fa::io {

extern const char* const kFaSweepHeader;
void writeFaSweepCsv(std::ostream& out, const std::vector<FaSweepRow>& rows);
/// Reads what writeFaSweepCsv writes (fa-sweep's CSV, merged or not); throws
/// std::invalid_argument naming the line for another header or a cell that is not a number.
std::vector<FaSweepRow> readFaSweepCsv(std::istream& in);
/// The columns every trial (split) of one run repeats: shards of one run agree on them.
MergeRule faSweepMergeRule();

} // namespace fa::io
