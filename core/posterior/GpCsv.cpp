#include "core/posterior/GpCsv.h"

namespace fa::io {

const char* const kGpHeader =
    "dataset,kernel,trial,nmll,rmse,log_marginal_likelihood,seconds,status";

void writeGpCsv(std::ostream& out, const std::vector<GpRow>& rows) {
    writeCsv(out, kGpHeader, rows, [](std::ostream& o, const GpRow& r) {
        csvLine(o, textCell(r.dataset), r.kernel, r.trial, formatDouble(r.nmll),
                formatDouble(r.rmse), formatDouble(r.logMarginal), formatDouble(r.seconds),
                r.status);
    });
}

MergeRule gpMergeRule() {
    return {kGpHeader, {"dataset", "kernel"}};
}

} // namespace fa::io
