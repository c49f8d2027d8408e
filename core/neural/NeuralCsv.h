#pragma once
// The neural lab's CSVs (faexplorer-cli neural, the window's splits table and curves): headers
// and writers, and the columns a neural run's shards must agree on.
#include "core/io/CsvFormat.h"
#include "core/io/ShardMerge.h"
#include "core/neural/NeuralLive.h"
#include "core/neural/NeuralRegression.h"

#include <ostream>
#include <vector>

namespace fa::io {

/// dataset,method,hidden,split,nmll,rmse,seconds,status,coverage_95 (the share of test targets
/// inside the central 95 % predictive interval; appended by issue 27)
extern const char* const kNeuralHeader;
void writeNeuralCsv(std::ostream& out, const std::vector<NeuralRow>& rows);
/// dataset,method,hidden,split,epoch,train_nmll,train_rmse,test_nmll,test_rmse,test_coverage_95:
/// the neural lab's live curves (Ctrl+E), one row per method and recorded epoch, as drawn.
extern const char* const kNeuralCurveHeader;
void writeNeuralCurveCsv(std::ostream& out, const NeuralLiveSnapshot& snapshot, int split);
/// The columns every trial (split) of one run repeats: shards of one run agree on them.
MergeRule neuralMergeRule();

} // namespace fa::io
