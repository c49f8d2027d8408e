#include "core/io/ImageSets.h"

#include "core/io/IdxFile.h"
#include "core/io/RegressionCsv.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace fa::io {
namespace {

const std::vector<std::string> kFashionClasses = {"T-shirt/top", "Trouser",   "Pullover", "Dress",
                                                  "Coat",        "Sandal",    "Shirt",    "Sneaker",
                                                  "Bag",         "Ankle boot"};

/// The rows of `labels` the query keeps, in order.
std::vector<std::size_t> chosenRows(const std::vector<int>& labels, const ImageQuery& q) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (q.samples > 0 && long(rows.size()) >= q.samples)
            break;
        if (q.classes.empty() ||
            std::find(q.classes.begin(), q.classes.end(), labels[i]) != q.classes.end())
            rows.push_back(i);
    }
    return rows;
}

void checkClasses(const ImageQuery& q, std::size_t count, const std::string& name) {
    for (int c : q.classes)
        if (c < 0 || c >= int(count))
            throw std::invalid_argument("class " + std::to_string(c) + " is not one of " + name +
                                        "'s (0 to " + std::to_string(count - 1) + ")");
    if (q.samples < 0)
        throw std::invalid_argument("the number of images must be positive");
}

/// One part of Fashion-MNIST (train or t10k): its labels and the images the query still needs.
void readFashionPart(const std::string& dir, const std::string& part, const ImageQuery& q,
                     ImageSet& set, std::vector<std::vector<std::uint8_t>>& kept) {
    ImageQuery rest = q;
    if (q.samples > 0) { // what the earlier part left to take (0 would mean all)
        rest.samples = q.samples - long(set.labels.size());
        if (rest.samples <= 0)
            return;
    }
    const IdxArray labels = readIdx(dir + "/" + part + "-labels-idx1-ubyte.gz");
    std::vector<int> l(labels.data.begin(), labels.data.end());
    const std::vector<std::size_t> rows = chosenRows(l, rest);
    if (rows.empty())
        return;
    const IdxArray images = readIdx(dir + "/" + part + "-images-idx3-ubyte.gz", rows.back() + 1);
    if (images.shape.size() != 3 || images.shape[1] != 28 || images.shape[2] != 28)
        throw std::invalid_argument("'" + dir + "/" + part +
                                    "-images-idx3-ubyte.gz' does not hold 28 x 28 images");
    for (std::size_t r : rows) {
        const std::uint8_t* p = images.data.data() + r * 784;
        kept.emplace_back(p, p + 784);
        set.labels.push_back(l[r]);
    }
}

ImageSet loadFashion(const ImageQuery& q) {
    const std::string dir = fashionMnistDirectory();
    if (!std::filesystem::exists(dir + "/train-labels-idx1-ubyte.gz"))
        throw std::invalid_argument("Fashion-MNIST is not installed: no '" + dir +
                                    "/train-labels-idx1-ubyte.gz' (install the Debian package " +
                                    kFashionMnistPackage + ", or set FAEXPLORER_FASHION_MNIST)");
    ImageSet set{Matrix(), 28, 28, {}, kFashionClasses, "fashion-mnist"};
    checkClasses(q, kFashionClasses.size(), set.name);
    std::vector<std::vector<std::uint8_t>> kept;
    readFashionPart(dir, "train", q, set, kept);
    readFashionPart(dir, "t10k", q, set, kept);
    set.pixels.resize(Eigen::Index(kept.size()), 784);
    for (std::size_t i = 0; i < kept.size(); ++i)
        for (int j = 0; j < 784; ++j)
            set.pixels(Eigen::Index(i), j) = kept[i][std::size_t(j)] / 255.0;
    return set;
}

ImageSet loadDigits(const ImageQuery& q, const std::string& dataDir) {
    const std::string path =
        (dataDir.empty() ? defaultDataDirectory() : dataDir) + "/digits.csv.gz";
    if (!std::filesystem::is_regular_file(path))
        throw std::invalid_argument("the bundled digits are missing: no '" + path + "'");
    const GzFile f(gzopen(path.c_str(), "rb"));
    ImageSet set{Matrix(), 8, 8, {}, {}, "digits"};
    for (int c = 0; c < 10; ++c)
        set.classNames.push_back(std::to_string(c));
    checkClasses(q, 10, set.name);
    std::vector<std::vector<std::uint8_t>> all;
    std::vector<int> labels;
    char line[1024];
    for (int n = 1; f && gzgets(f.get(), line, sizeof line); ++n) {
        std::stringstream cells(line);
        std::vector<int> v;
        for (std::string cell; std::getline(cells, cell, ',');) {
            std::size_t used = 0;
            int x = -1;
            try {
                x = std::stoi(cell, &used);
            } catch (const std::exception&) {
            }
            const bool whole =
                used == cell.size() || cell.find_first_not_of("\r\n", used) == std::string::npos;
            v.push_back(whole ? x : -1); // -1: refused below
        }
        if (v.size() != 65 ||
            std::any_of(v.begin(), v.end() - 1, [](int x) { return x < 0 || x > 16; }) ||
            v.back() < 0 || v.back() > 9)
            throw std::invalid_argument("'" + path + "' line " + std::to_string(n) +
                                        ": not 64 pixels 0..16 and a digit");
        all.emplace_back(v.begin(), v.end() - 1);
        labels.push_back(v.back());
    }
    int error = Z_OK;
    if (f)
        gzerror(f.get(), &error);
    if (!f || (error != Z_OK && error != Z_STREAM_END))
        throw std::invalid_argument("'" + path + "' cannot be read whole: truncated or corrupt");
    const std::vector<std::size_t> rows = chosenRows(labels, q);
    set.pixels.resize(Eigen::Index(rows.size()), 64);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        set.labels.push_back(labels[rows[i]]);
        for (int j = 0; j < 64; ++j)
            set.pixels(Eigen::Index(i), j) = all[rows[i]][std::size_t(j)] / 16.0;
    }
    return set;
}

} // namespace

std::vector<std::string> imageDatasetNames() {
    return {"fashion-mnist", "digits"};
}

bool isImageDataset(const std::string& name) {
    return name == "fashion-mnist" || name == "digits";
}

std::string fashionMnistDirectory() {
    if (const char* dir = std::getenv("FAEXPLORER_FASHION_MNIST"); dir && *dir)
        return dir;
    return "/usr/share/datasets/fashion-mnist";
}

ImageSet loadImageSet(const std::string& name, const ImageQuery& query,
                      const std::string& dataDir) {
    if (!isImageDataset(name))
        throw std::invalid_argument("'" + name +
                                    "' is not an image data set (fashion-mnist, "
                                    "digits)");
    ImageSet set = name == "digits" ? loadDigits(query, dataDir) : loadFashion(query);
    if (set.size() == 0)
        throw std::invalid_argument("no image of " + name + " matches the classes asked for");
    return set;
}

} // namespace fa::io
