#include "core/vae/VaeCsv.h"

namespace fa::io {

const char* const kVaeHeader =
    "dataset,method,latent,hidden,trial,epoch,train_elbo_per_row,test_elbo_per_row,"
    "test_iw_loglik_per_row,amortization_gap,approximation_gap,seconds,status";

void writeVaeCsv(std::ostream& out, const std::vector<VaeRow>& rows) {
    writeCsv(out, kVaeHeader, rows, [](std::ostream& o, const VaeRow& r) {
        csvLine(o, textCell(r.dataset), r.method, r.latent, quotedCell(r.hidden), r.trial, r.epoch,
                optionalCell(r.trainElbo), optionalCell(r.testElbo), optionalCell(r.iwLoglik),
                optionalCell(r.amortisationGap), optionalCell(r.approximationGap),
                formatDouble(r.seconds), r.status);
    });
}

const char* const kVaeGradHeader = "dataset,method,latent,hidden,trial,epoch,trained_with,"
                                   "estimator,samples,draws,rows,mean_norm,variance";

void writeVaeGradCsv(std::ostream& out, const std::vector<VaeGradRow>& rows) {
    writeCsv(out, kVaeGradHeader, rows, [](std::ostream& o, const VaeGradRow& r) {
        csvLine(o, textCell(r.dataset), r.method, r.latent, quotedCell(r.hidden), r.trial, r.epoch,
                r.trainedWith, r.estimator, r.samples, r.draws, r.rows, formatDouble(r.meanNorm),
                formatDouble(r.variance));
    });
}

MergeRule vaeMergeRule() {
    return {kVaeHeader, {"dataset", "method", "latent", "hidden", "epoch"}};
}

} // namespace fa::io
