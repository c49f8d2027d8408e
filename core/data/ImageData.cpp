#include "core/data/ImageData.h"

#include "core/math/Rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {

void dequantise(Matrix& pixels, const ImageLayout& layout, std::uint64_t seed) {
    Rng rng(seed);
    for (Eigen::Index n = 0; n < pixels.rows(); ++n) // row by row: a row's jitter is its own
        for (Eigen::Index d = 0; d < pixels.cols(); ++d)
            pixels(n, d) += (rng.uniform() - 0.5) * layout.resolution;
}

std::vector<HiddenEntry> hideBlocks(Matrix& rows, const ImageLayout& layout, int side,
                                    std::uint64_t seed) {
    if (!(side >= 1 && side < std::min(layout.width, layout.height)))
        throw std::invalid_argument("the hidden square's side must be between 1 and " +
                                    std::to_string(std::min(layout.width, layout.height) - 1) +
                                    " pixels");
    Rng rng(seed);
    std::vector<HiddenEntry> hidden;
    const int across = layout.width - side + 1, down = layout.height - side + 1;
    for (Eigen::Index n = 0; n < rows.rows(); ++n) {
        const int top = std::min(down - 1, int(rng.uniform() * down));
        const int left = std::min(across - 1, int(rng.uniform() * across));
        for (int r = top; r < top + side; ++r)
            for (int c = left; c < left + side; ++c)
                if (const Eigen::Index d = Eigen::Index(r) * layout.width + c;
                    !std::isnan(rows(n, d))) {
                    hidden.push_back({n, d, rows(n, d)});
                    rows(n, d) = std::numeric_limits<double>::quiet_NaN();
                }
    }
    return hidden;
}

} // namespace fa
