#pragma once
// Mean and standard error over trials, for the CLI summaries and the GUI's bands.
#include <string>
#include <vector>

namespace fa {

struct MeanStdErr {
    double mean = 0.0;
    double stdErr = 0.0; ///< sample standard deviation / sqrt(n); 0 for n < 2
    int count = 0;       ///< finite values used; NaN (diverged, skipped) are left out
};

MeanStdErr meanStdErr(const std::vector<double>& values);

} // namespace fa
