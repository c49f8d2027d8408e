#pragma once
// The iterations (or epochs) of a run that get a CSV row: the latent lab's and the nonlinear-FA
// lab's experiments share them; the explorer's are spaced evenly on a log scale.
#include <vector>

namespace fa {

/// The iterations that get a row: 1, 2, 3, 5, then 1-2-3-5 times the powers of ten, and the
/// last one (a closed form's single row is iteration 0).
std::vector<long> latentCheckpoints(long iterations);

/// The explorer's checkpoints: 1, ..., total at pointsPerDecade per decade (rounded, unique,
/// ascending).
std::vector<long> logSpacedCheckpoints(long total, int pointsPerDecade);

} // namespace fa
