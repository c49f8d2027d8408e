#include "core/data/ImageData.h"

#include "core/math/Rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fa {

void checkImageClasses(const std::vector<int>& classes) {
    for (std::size_t i = 0; i < classes.size(); ++i) {
        const std::string c = std::to_string(classes[i]);
        for (std::size_t j = 0; j < i; ++j)
            if (classes[j] == classes[i])
                throw std::invalid_argument(c + " is listed twice");
        if (classes[i] < 0 || classes[i] > 9)
            throw std::invalid_argument(c + " is not a class (0 to 9)");
    }
}

std::vector<int> parseImageClasses(const std::string& text) {
    std::vector<int> classes;
    if (text.find_first_not_of(" \t") == std::string::npos)
        return classes;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        const std::string part = text.substr(from, comma - from);
        const std::size_t a = part.find_first_not_of(" \t"), b = part.find_last_not_of(" \t");
        const std::string word = a == std::string::npos ? "" : part.substr(a, b - a + 1);
        if (word.empty() || word.size() > 3 ||
            !std::all_of(word.begin(), word.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            throw std::invalid_argument(
                (word.empty() ? std::string("an empty entry") : "'" + word + "'") +
                " is not a class: give classes 0 to 9 separated by commas, e.g. 0,3,7 (empty: "
                "all)");
        classes.push_back(std::stoi(word));
        from = comma + 1;
    }
    checkImageClasses(classes);
    return classes;
}

std::string imageClassesText(const std::vector<int>& classes) {
    std::string out;
    for (const int c : classes) {
        if (!out.empty())
            out += ',';
        out += std::to_string(c);
    }
    return out;
}

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
