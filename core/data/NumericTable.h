#pragma once
// A table of numbers for the latent-variable lab: every column is a variable to model (no
// target). A NaN cell is a missing value, present only when the loader was asked to allow them.
#include "core/data/ImageData.h"
#include "core/math/Types.h"

#include <functional>
#include <string>
#include <vector>

namespace fa {

struct NumericTable {
    Matrix values; ///< N x D, one row per observation; NaN = missing
    std::vector<std::string> names;
    std::string name;                 ///< "boston", a file stem, ...
    std::vector<std::string> leftOut; ///< columns of words (an id, a label), not modelled
    ImageLayout image;                ///< pictures only (image.isImage()): their shape, classes
    std::vector<int> labels;          ///< pictures only: each row's class
};

/// Where the latent lab's real data comes from: a bundled set's name, an image set's (with the
/// rows to take) or a CSV path in, the table out. The engine reads no files itself: the
/// programs hand it core/io's tableLoader.
using TableLoader = std::function<NumericTable(const std::string& dataset, bool allowMissing,
                                               const ImageQuery& images)>;

} // namespace fa
