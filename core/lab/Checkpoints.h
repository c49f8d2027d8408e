#pragma once
// The iterations (or epochs) of a run that get a CSV row: the latent lab's and the nonlinear-FA
// lab's experiments share them.
#include <vector>

namespace fa {

/// The iterations that get a row: 1, 2, 3, 5, then 1-2-3-5 times the powers of ten, and the
/// last one (a closed form's single row is iteration 0).
std::vector<long> latentCheckpoints(long iterations);

} // namespace fa
