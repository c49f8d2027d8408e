#include "core/latent/LatentCsv.h"

namespace fa::io {

const char* const kLatentHeader =
    "dataset,model,method,latent,components,trial,iteration,loglik_per_row,"
    "heldout_loglik_per_row,elbo_per_row,rel_cov_dist,seconds,status";

void writeLatentCsv(std::ostream& out, const std::vector<LatentRow>& rows) {
    writeCsv(out, kLatentHeader, rows, [](std::ostream& o, const LatentRow& r) {
        csvLine(o, textCell(r.dataset), r.model, r.method, r.latent, r.components, r.trial,
                r.iteration, optionalCell(r.loglik), optionalCell(r.heldout), optionalCell(r.elbo),
                optionalCell(r.relCovDist), formatDouble(r.seconds), r.status);
    });
}

MergeRule latentMergeRule() {
    return {kLatentHeader, {"dataset", "model", "method", "latent", "components", "iteration"}};
}

const char* const kImputationHeader =
    "dataset,model,method,latent,trial,iteration,hide_fraction,hidden,rmse_conditional_mean,"
    "rmse_column_mean";

void writeImputationCsv(std::ostream& out, const std::vector<LatentRow>& rows) {
    writeCsv(out, kImputationHeader, rows, [](std::ostream& o, const LatentRow& r) {
        const ImputationScore& s = r.imputation;
        if (s.hidden > 0) // only the rows with hidden entries
            csvLine(o, textCell(r.dataset), r.model, r.method, r.latent, r.trial, r.iteration,
                    formatDouble(s.hideFraction), s.hidden, optionalCell(s.conditionalMean),
                    optionalCell(s.columnMean));
    });
}

} // namespace fa::io
