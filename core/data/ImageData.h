#pragma once
// Pictures as data (issue 29): rows of pixels with the image's shape and each row's class kept
// beside them. Pixels are scaled to [0, 1] by the format's full scale and never z-scored (a
// pixel that is 0 in every image has no spread to divide by). core/io/ImageSets.h reads them;
// docs/maths/images.md says how the labs model them.
#include "core/math/Types.h"
#include "core/models/Imputation.h"

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace fa {

struct ImageSet {
    Matrix pixels; ///< N x (height * width), each row one image, row-major pixels in [0, 1]
    int width = 0, height = 0;
    std::vector<int> labels;             ///< each row's class, an index into classNames
    std::vector<std::string> classNames; ///< e.g. "T-shirt/top", ..., or "0" ... "9"
    std::string name;                    ///< "fashion-mnist", "digits"
    Eigen::Index size() const { return pixels.rows(); }
};

/// Which rows to take: the classes (empty: all) and at most `samples` rows of them (0: all), in
/// the files' order.
struct ImageQuery {
    long samples = 0;
    std::vector<int> classes;
    friend auto operator<=>(const ImageQuery&, const ImageQuery&) = default;
};

/// How a lab's rows map back to pictures: row-major pixels, one column each.
struct ImageLayout {
    int width = 0, height = 0;
    std::vector<std::string> classNames;
    double resolution = 0.0; ///< the step between the format's pixel values: 1/255, 1/16

    bool isImage() const { return width > 0 && height > 0; }
    Eigen::Index pixels() const { return Eigen::Index(width) * height; }
};

/// Dequantises pictures (docs/maths/images.md §1): each pixel v·Δ becomes (v + u − ½)·Δ with u
/// uniform on [0, 1) (seeded), spread evenly over its step, so that no pixel is constant and a
/// density's log-likelihood per row plus D log Δ bounds the pictures' discrete log-probability
/// from below. Δ = layout.resolution.
void dequantise(Matrix& pixels, const ImageLayout& layout, std::uint64_t seed);

/// Hides, in each picture of `rows`, a side x side square at a place drawn uniformly (seeded)
/// among those that fit: its pixels become NaN and are returned with their values in row-major
/// order (docs/maths/images.md §3).
/// Throws std::invalid_argument unless 1 <= side < min(width, height).
std::vector<HiddenEntry> hideBlocks(Matrix& rows, const ImageLayout& layout, int side,
                                    std::uint64_t seed);

} // namespace fa
