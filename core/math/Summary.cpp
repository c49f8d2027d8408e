#include "core/math/Summary.h"

#include <cmath>

namespace fa {

MeanStdErr meanStdErr(const std::vector<double>& values) {
    MeanStdErr r;
    double sum = 0.0;
    for (const double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++r.count;
        }
    if (r.count == 0)
        return {std::nan(""), std::nan(""), 0};
    r.mean = sum / r.count;
    if (r.count > 1) {
        double ss = 0.0;
        for (const double v : values)
            if (std::isfinite(v))
                ss += (v - r.mean) * (v - r.mean);
        r.stdErr = std::sqrt(ss / (r.count - 1) / r.count);
    }
    return r;
}

} // namespace fa
