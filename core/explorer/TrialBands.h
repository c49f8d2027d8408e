#pragma once
// Mean +- standard-error bands over trials, per algorithm and sample count: what the thesis
// figures draw and the window's multi-trial mode shows.
#include "core/explorer/FaSweep.h"
#include "core/explorer/LiveExplorer.h"
#include "core/math/Summary.h"

#include <string>
#include <vector>

namespace fa {

struct BandPoint {
    long samples = 0;
    MeanStdErr relCovDist, w2OverDim;
};

struct AlgorithmBand {
    std::string algorithm;         ///< batch, em or sga
    std::vector<BandPoint> points; ///< ascending samples
};

/// Groups fa-sweep rows by algorithm (in order of first appearance) and sample count.
/// Rows that are not "ok" count as missing values.
std::vector<AlgorithmBand> trialBands(const std::vector<FaSweepRow>& rows);

/// Sample counts for a multi-trial run: 10, 20, 50, 100, ... up to total, and total itself.
std::vector<long> trialCheckpoints(long total);

/// The fa-sweep that repeats a live run's parameters over n trials (trial 0 is the live run's
/// model and stream). Live learning-rate changes are not replayed: the current rate is used.
FaSweepConfig trialsSweep(const ExplorerConfig& config, int trials);

} // namespace fa
