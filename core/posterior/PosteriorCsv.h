#pragma once
// The posterior lab's CSVs (faexplorer-cli posterior, grad-variance, vi-bound; the window's
// export): headers and writers, and the columns a posterior run's shards must agree on.
#include "core/io/CsvFormat.h"
#include "core/io/ShardMerge.h"
#include "core/posterior/GradVariance.h"
#include "core/posterior/PosteriorLab.h"
#include "core/vi/BoundHyper.h"

#include <ostream>
#include <string>
#include <vector>

namespace fa::io {

/// dataset,method,latent,trial,epoch,rel_mean_dist,rel_cov_dist,w2,w2_over_dim,seconds,status
extern const char* const kPosteriorHeader;
void writePosteriorCsv(std::ostream& out, const std::vector<PosteriorRow>& rows);
/// dataset,method,estimator,samples,block,mean_norm,variance,seconds
void writeGradVarianceCsv(std::ostream& out, const std::vector<GradVarianceRow>& rows);
/// dataset,family,iteration,alpha,beta,elbo,log_evidence,gap
void writeBoundCsv(std::ostream& out, const std::string& dataset, const std::string& family,
                   const std::vector<BoundStep>& steps);
/// The columns every trial (split) of one run repeats: shards of one run agree on them.
MergeRule posteriorMergeRule();

} // namespace fa::io
