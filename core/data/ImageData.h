#pragma once
// Pictures as data (issue 29): rows of pixels with the image's shape and each row's class kept
// beside them. Pixels are scaled to [0, 1] by the format's full scale and never z-scored (a
// pixel that is 0 in every image has no spread to divide by). core/io/ImageSets.h reads them.
#include "core/math/Types.h"

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
};

} // namespace fa
