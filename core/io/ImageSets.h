#pragma once
// The image data sets (issue 29): Fashion-MNIST (Zalando, MIT licence), read from Debian's
// dataset-fashion-mnist (gzipped IDX files: 60,000 training and 10,000 test images of 28 x 28,
// taken in that order) or from $FAEXPLORER_FASHION_MNIST; and the 1,797 8 x 8 handwritten
// digits of the UCI "Optical Recognition of Handwritten Digits" set (CC BY 4.0), bundled as
// resources/data/digits.csv.gz (64 pixels 0..16 and the digit per line). Pixels / 255 and / 16.
#include "core/data/ImageData.h"

#include <string>
#include <vector>

namespace fa::io {

inline constexpr const char* kFashionMnistPackage = "dataset-fashion-mnist";

std::vector<std::string> imageDatasetNames(); ///< fashion-mnist, digits
bool isImageDataset(const std::string& name);

/// The pictures a window's or a session's run takes: its "rows" field is how many (of the
/// classes listed; empty: all), where the CLI takes every picture unless --samples is given
/// (app/cli/ArgParser.h: imageQueryOption). No query for a data set that is not pictures.
inline ImageQuery firstPictures(const std::string& dataset, long rows,
                                std::vector<int> classes = {}) {
    return isImageDataset(dataset) ? ImageQuery{rows, std::move(classes)} : ImageQuery{};
}

/// The folder of Fashion-MNIST's four files: $FAEXPLORER_FASHION_MNIST if set, else where the
/// Debian package puts them.
std::string fashionMnistDirectory();

/// The rows the query asks for. Throws std::invalid_argument naming the problem: an unknown
/// name, a class outside the set's, a missing Fashion-MNIST (naming the Debian package to
/// install), a malformed or truncated file, fewer matching rows than one. dataDir: where the
/// bundled digits are (empty: the default data folder).
ImageSet loadImageSet(const std::string& name, const ImageQuery& query,
                      const std::string& dataDir = "");

} // namespace fa::io
