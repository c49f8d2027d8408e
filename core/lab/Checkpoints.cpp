#include "core/lab/Checkpoints.h"

#include <cmath>

namespace fa {

std::vector<long> latentCheckpoints(long iterations) {
    std::vector<long> out;
    for (long scale = 1; scale <= iterations; scale *= 10) {
        for (long m : {1L, 2L, 3L, 5L})
            if (m * scale < iterations)
                out.push_back(m * scale);
        if (scale > iterations / 10)
            break;
    }
    out.push_back(iterations);
    return out;
}

std::vector<long> logSpacedCheckpoints(long total, int pointsPerDecade) {
    std::vector<long> points;
    for (int i = 0;; ++i) {
        const long t = std::lround(std::pow(10.0, static_cast<double>(i) / pointsPerDecade));
        if (t > total)
            break;
        if (points.empty() || t > points.back())
            points.push_back(t);
    }
    if (points.empty() || points.back() != total)
        points.push_back(total);
    return points;
}

} // namespace fa
