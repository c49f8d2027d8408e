#include "core/posterior/PosteriorCsv.h"

namespace fa::io {

const char* const kPosteriorHeader =
    "dataset,method,latent,trial,epoch,rel_mean_dist,rel_cov_dist,w2,w2_over_dim,seconds,status";

void writeBoundCsv(std::ostream& out, const std::string& dataset, const std::string& family,
                   const std::vector<BoundStep>& steps) {
    out << "dataset,family,iteration,alpha,beta,elbo,log_evidence,gap\n";
    for (const auto& s : steps)
        out << textCell(dataset) << ',' << family << ',' << s.iteration << ','
            << formatDouble(s.hyper.alpha) << ',' << formatDouble(s.hyper.beta) << ','
            << formatDouble(s.elbo) << ',' << formatDouble(s.logEvidence) << ','
            << formatDouble(s.logEvidence - s.elbo) << '\n';
}

void writeGradVarianceCsv(std::ostream& out, const std::vector<GradVarianceRow>& rows) {
    writeCsv(out, "dataset,method,estimator,samples,block,mean_norm,variance,seconds", rows,
             [](std::ostream& o, const GradVarianceRow& r) {
                 csvLine(o, textCell(r.dataset), r.method, r.estimator, r.samples, r.block,
                         formatDouble(r.meanNorm), formatDouble(r.variance),
                         formatDouble(r.seconds));
             });
}

void writePosteriorCsv(std::ostream& out, const std::vector<PosteriorRow>& rows) {
    writeCsv(out, kPosteriorHeader, rows, [](std::ostream& o, const PosteriorRow& r) {
        csvLine(o, textCell(r.dataset), r.method, r.latent, r.trial, r.epoch,
                formatDouble(r.score.relMeanDist), formatDouble(r.score.relCovDist),
                formatDouble(r.score.w2), formatDouble(r.score.w2OverDim), formatDouble(r.seconds),
                r.status);
    });
}

MergeRule posteriorMergeRule() {
    return {kPosteriorHeader, {"dataset", "method", "latent", "epoch"}};
}

} // namespace fa::io
