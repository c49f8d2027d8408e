#include "core/neural/NeuralCsv.h"

namespace fa::io {

const char* const kNeuralHeader =
    "dataset,method,hidden,split,nmll,rmse,seconds,status,coverage_95";
const char* const kNeuralCurveHeader =
    "dataset,method,hidden,split,epoch,train_nmll,train_rmse,test_nmll,test_rmse,test_coverage_95";

void writeNeuralCsv(std::ostream& out, const std::vector<NeuralRow>& rows) {
    writeCsv(out, kNeuralHeader, rows, [](std::ostream& o, const NeuralRow& r) {
        // the hidden sizes hold commas ("50,50"), so that cell is quoted
        csvLine(o, textCell(r.dataset), r.method, '"' + r.hidden + '"', r.split,
                formatDouble(r.nmll), formatDouble(r.rmse), formatDouble(r.seconds), r.status,
                formatDouble(r.coverage95));
    });
}

void writeNeuralCurveCsv(std::ostream& out, const NeuralLiveSnapshot& s, int split) {
    out << kNeuralCurveHeader << '\n';
    for (const auto& m : s.methods)
        for (const NeuralCurvePoint& p : m.curve)
            out << textCell(s.dataset) << ',' << m.id << ",\"" << s.hidden << "\"," << split << ','
                << p.epoch << ',' << formatDouble(p.trainNmll) << ',' << formatDouble(p.trainRmse)
                << ',' << formatDouble(p.testNmll) << ',' << formatDouble(p.testRmse) << ','
                << formatDouble(p.testCoverage) << '\n';
}

MergeRule neuralMergeRule() {
    return {kNeuralHeader, {"dataset", "method", "hidden"}};
}

} // namespace fa::io
