#include "core/latent/LatentCsv.h"

namespace fa::io {

const char* const kLatentHeader =
    "dataset,model,method,latent,components,trial,iteration,loglik_per_row,"
    "heldout_loglik_per_row,elbo_per_row,rel_cov_dist,seconds,status";

void writeLatentCsv(std::ostream& out, const std::vector<LatentRow>& rows) {
    out << kLatentHeader << '\n';
    for (const auto& r : rows)
        out << textCell(r.dataset) << ',' << r.model << ',' << r.method << ',' << r.latent << ','
            << r.components << ',' << r.trial << ',' << r.iteration << ',' << optionalCell(r.loglik)
            << ',' << optionalCell(r.heldout) << ',' << optionalCell(r.elbo) << ','
            << optionalCell(r.relCovDist) << ',' << formatDouble(r.seconds) << ',' << r.status
            << '\n';
}

MergeRule latentMergeRule() {
    return {kLatentHeader, {"dataset", "model", "method", "latent", "components", "iteration"}};
}

const char* const kImputationHeader =
    "dataset,model,method,latent,trial,iteration,hide_fraction,hidden,rmse_conditional_mean,"
    "rmse_column_mean";

void writeImputationCsv(std::ostream& out, const std::vector<LatentRow>& rows) {
    out << kImputationHeader << '\n';
    for (const auto& r : rows) {
        const ImputationScore& s = r.imputation;
        if (s.hidden > 0)
            out << textCell(r.dataset) << ',' << r.model << ',' << r.method << ',' << r.latent
                << ',' << r.trial << ',' << r.iteration << ',' << formatDouble(s.hideFraction)
                << ',' << s.hidden << ',' << optionalCell(s.conditionalMean) << ','
                << optionalCell(s.columnMean) << '\n';
    }
}

} // namespace fa::io
