#include "core/lab/Checkpoints.h"

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

} // namespace fa
