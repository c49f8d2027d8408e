#pragma once
// The latent lab's CSV (faexplorer-cli latent, the window's export): header and writer, and
// the columns a latent run's shards must agree on.
#include "core/io/CsvFormat.h"
#include "core/io/ShardMerge.h"
#include "core/latent/LatentExperiment.h"

#include <ostream>
#include <vector>

namespace fa::io {

/// dataset,model,method,latent,components,trial,iteration,loglik_per_row,
/// heldout_loglik_per_row,elbo_per_row,rel_cov_dist,seconds,status; a cell that does not apply
/// (NaN) is empty, a name with a comma or quote is quoted.
extern const char* const kLatentHeader;
void writeLatentCsv(std::ostream& out, const std::vector<LatentRow>& rows);
/// The columns every trial (split) of one run repeats: shards of one run agree on them.
MergeRule latentMergeRule();

/// dataset,model,method,latent,trial,iteration,hide_fraction,hidden,rmse_conditional_mean,
/// rmse_column_mean: the imputation scores of the rows with hidden entries (`latent
/// --imputation`, the window's imputation table), the others left out.
extern const char* const kImputationHeader;
void writeImputationCsv(std::ostream& out, const std::vector<LatentRow>& rows);

} // namespace fa::io
