#pragma once
// The nonlinear-FA lab's CSV (faexplorer-cli vae, the window's export): header and writer, and
// the columns a vae run's shards must agree on.
#include "core/io/CsvFormat.h"
#include "core/io/ShardMerge.h"
#include "core/vae/VaeExperiment.h"

#include <ostream>
#include <vector>

namespace fa::io {

/// dataset,method,latent,hidden,trial,epoch,train_elbo_per_row,test_elbo_per_row,
/// test_iw_loglik_per_row,amortization_gap,approximation_gap,seconds,status; a cell that does
/// not apply (NaN) is empty; hidden ("50,50") is quoted.
extern const char* const kVaeHeader;
void writeVaeCsv(std::ostream& out, const std::vector<VaeRow>& rows);
/// The columns every trial (split) of one run repeats: shards of one run agree on them.
MergeRule vaeMergeRule();

/// faexplorer-cli vae --grad-variance-out: dataset,method,latent,hidden,trial,epoch,trained_with,
/// estimator,samples,draws,rows,mean_norm,variance (docs/maths/nonlinear.md §9.3).
extern const char* const kVaeGradHeader;
void writeVaeGradCsv(std::ostream& out, const std::vector<VaeGradRow>& rows);

} // namespace fa::io
