#pragma once
// faexplorer-cli gp's CSV: its header, its rows and the columns a sharded run's trials repeat.
#include "core/io/CsvFormat.h"
#include "core/io/ShardMerge.h"
#include "core/posterior/GpExperiment.h"

#include <ostream>
#include <vector>

namespace fa::io {

/// dataset,kernel,trial,nmll,rmse,log_marginal_likelihood,seconds,status (issue 28's contract)
extern const char* const kGpHeader;
void writeGpCsv(std::ostream& out, const std::vector<GpRow>& rows);
MergeRule gpMergeRule();

} // namespace fa::io
