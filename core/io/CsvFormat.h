#pragma once
// CSV cells for the experiment tables: shortest round-trip doubles, "nan" for missing values.
#include "core/bench/Benchmark.h"
#include "core/explorer/FaSweep.h"
#include "core/latent/LatentExperiment.h"
#include "core/neural/NeuralLive.h"
#include "core/neural/NeuralRegression.h"
#include "core/posterior/GradVariance.h"
#include "core/posterior/PosteriorLab.h"
#include "core/vae/VaeExperiment.h"
#include "core/vi/BoundHyper.h"

#include <ostream>
#include <string>
#include <vector>

namespace fa::io {

std::string formatDouble(double v);

extern const char* const kFaSweepHeader;
void writeFaSweepCsv(std::ostream& out, const std::vector<FaSweepRow>& rows);
/// Reads what writeFaSweepCsv writes (fa-sweep's CSV, merged or not); throws
/// std::invalid_argument naming the line for another header or a cell that is not a number.
std::vector<FaSweepRow> readFaSweepCsv(std::istream& in);

/// dataset,method,latent,trial,epoch,rel_mean_dist,rel_cov_dist,w2,w2_over_dim,seconds,status
extern const char* const kPosteriorHeader;
void writePosteriorCsv(std::ostream& out, const std::vector<PosteriorRow>& rows);
/// dataset,method,estimator,samples,block,mean_norm,variance,seconds
void writeGradVarianceCsv(std::ostream& out, const std::vector<GradVarianceRow>& rows);
/// dataset,family,iteration,alpha,beta,elbo,log_evidence,gap
void writeBoundCsv(std::ostream& out, const std::string& dataset, const std::string& family,
                   const std::vector<BoundStep>& steps);

/// dataset,method,hidden,split,nmll,rmse,seconds,status
extern const char* const kNeuralHeader;
void writeNeuralCsv(std::ostream& out, const std::vector<NeuralRow>& rows);
/// dataset,method,hidden,split,epoch,train_nmll,train_rmse,test_nmll,test_rmse: the neural
/// lab's live curves (Ctrl+E), one row per method and recorded epoch, as drawn.
extern const char* const kNeuralCurveHeader;
void writeNeuralCurveCsv(std::ostream& out, const NeuralLiveSnapshot& snapshot, int split);

/// dataset,model,method,latent,components,trial,iteration,loglik_per_row,
/// heldout_loglik_per_row,elbo_per_row,rel_cov_dist,seconds,status; a cell that does not apply
/// (NaN) is empty, a name with a comma or quote is quoted.
extern const char* const kLatentHeader;
void writeLatentCsv(std::ostream& out, const std::vector<LatentRow>& rows);

/// dataset,method,latent,hidden,trial,epoch,train_elbo_per_row,test_elbo_per_row,
/// test_iw_loglik_per_row,amortization_gap,approximation_gap,seconds,status; a cell that does
/// not apply (NaN) is empty; hidden ("50,50") is quoted.
extern const char* const kVaeHeader;
void writeVaeCsv(std::ostream& out, const std::vector<VaeRow>& rows);

extern const char* const kBenchHeader;
void writeBenchCsv(std::ostream& out, const std::vector<BenchRow>& rows);

} // namespace fa::io
