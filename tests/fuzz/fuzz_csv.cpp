// libFuzzer target: the CSV loaders (and merge's shard reader) on arbitrary bytes. A file is either
// refused with std::invalid_argument (any other exception, a crash, a leak or undefined behaviour
// is a finding) or read into data every later step can use: at least two rows, finite cells, and a
// standardised problem with finite entries.
#include "core/data/RegressionData.h"
#include "core/explorer/FaSweepCsv.h"
#include "core/io/RegressionCsv.h"
#include "core/io/ShardMerge.h"
#include "core/latent/LatentCsv.h"
#include "core/neural/NeuralCsv.h"
#include "core/posterior/PosteriorCsv.h"
#include "core/vae/VaeCsv.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {
void check(bool ok) {
    if (!ok)
        std::abort(); // an invariant broken: libFuzzer saves the input
}

void load(const std::string& text, const std::string& target) {
    std::istringstream in(text);
    fa::RegressionData d;
    try {
        d = fa::io::readRegressionCsv(in, "fuzz.csv", target);
    } catch (const std::invalid_argument&) {
        return; // refused, with a message: the expected answer to most inputs
    }
    check(d.size() >= 2 && d.inputs() >= 1 && d.y.size() == d.size());
    check(d.X.allFinite() && d.y.allFinite());
    check(static_cast<Eigen::Index>(d.inputNames.size()) == d.inputs());
    fa::PrepareOptions o;
    o.trainFraction = 1.0;
    try {
        const fa::RegressionProblem p = fa::prepareRegression(d, o);
        check(p.Xtrain.allFinite() && p.ytrain.allFinite());
        check(std::isfinite(p.yScale) && p.yScale > 0.0);
    } catch (const std::invalid_argument&) {
        // a column too wide to standardise is refused by name
    }
}

/// The latent lab's table reader: with missing values allowed, NaN is the only non-finite cell.
void loadTable(const std::string& text, bool allowMissing) {
    std::istringstream in(text);
    fa::NumericTable t;
    try {
        t = fa::io::readNumericCsv(in, "fuzz.csv", allowMissing);
    } catch (const std::invalid_argument&) {
        return;
    }
    check(t.values.rows() >= 2 && t.values.cols() >= 2);
    check(static_cast<Eigen::Index>(t.names.size()) == t.values.cols());
    for (Eigen::Index i = 0; i < t.values.size(); ++i) {
        const double v = t.values.data()[i];
        check(std::isfinite(v) || (allowMissing && std::isnan(v)));
    }
}

/// merge's shard reader and fa-sweep's reader (faexplorer-sweep-figures): refused with a message
/// or, merged with itself split in two at any line, the whole again.
void mergeAndSweep(const std::string& text) {
    try {
        // The rules faexplorer-cli merge uses (app/cli/MergeCommand.cpp).
        const std::vector<fa::io::MergeRule> rules = {
            fa::io::faSweepMergeRule(), fa::io::posteriorMergeRule(), fa::io::neuralMergeRule(),
            fa::io::latentMergeRule(), fa::io::vaeMergeRule()};
        const std::string merged = fa::io::mergeShards({{"a.csv", text}}, rules);
        check(fa::io::mergeShards({{"b.csv", merged}}, rules) == merged); // merging is idempotent
    } catch (const std::invalid_argument&) {
    }
    std::istringstream in(text);
    try {
        // What is read writes back to a file that reads back to the same text.
        std::ostringstream once, twice;
        fa::io::writeFaSweepCsv(once, fa::io::readFaSweepCsv(in));
        std::istringstream again(once.str());
        fa::io::writeFaSweepCsv(twice, fa::io::readFaSweepCsv(again));
        check(once.str() == twice.str());
    } catch (const std::invalid_argument&) {
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    load(text, {});
    load(text, "y");
    loadTable(text, false);
    loadTable(text, true);
    mergeAndSweep(text);
    return 0;
}
