#include "core/data/LatentData.h"

#include "core/data/RegressionData.h"
#include "core/fa/ModelGenerator.h"
#include "core/lab/NameTable.h"
#include "core/math/Rng.h"
#include "core/math/TruncatedSvd.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace fa {
namespace {
constexpr ParamKind W = ParamKind::Whole, R = ParamKind::Real;

/// Rows of a generated FA (or PPCA: Ψ replaced by its mean) model; fills the truth.
Matrix generatedRows(const LatentDataSpec& spec, LatentData& data) {
    const SyntheticLatentSpec& s = spec.synthetic;
    if (spec.model == LatentModel::Mppca) {
        const Matrix X = mixtureOfPieces(s.dim, s.components, s.trueLatent, s.samples,
                                         s.mixtureNoise, spec.modelSeed, &data.truePieces);
        mixtureMoments(data.truePieces, data.trueMean, data.trueCovariance);
        return X;
    }
    GeneratorSpec g;
    g.dim = s.dim;
    g.latent = s.trueLatent;
    g.spectrumLo = s.spectrumLo;
    g.spectrumHi = s.spectrumHi;
    FAModel truth = generateModel(g, spec.modelSeed);
    if (spec.model == LatentModel::Ppca)
        truth.psi.setConstant(truth.psi.mean());
    data.trueMean = truth.c;
    data.trueCovariance = truth.denseCovariance();
    FASampler sampler(truth);
    Rng rng(deriveSeed(spec.splitSeed, SeedStream::LatentSyntheticRows));
    Matrix X(s.samples, s.dim);
    Vector row(s.dim);
    for (int i = 0; i < s.samples; ++i) {
        sampler.draw(rng, row);
        X.row(i) = row.transpose();
    }
    return X;
}

} // namespace

constexpr Named<LatentModel> kModelNames[] = {
    {LatentModel::Fa, "fa"}, {LatentModel::Ppca, "ppca"}, {LatentModel::Mppca, "mppca"}};

std::string latentModelName(LatentModel model) {
    return nameIn(kModelNames, model);
}

LatentModel parseLatentModel(const std::string& name) {
    return requireIn(kModelNames, name, "model");
}

namespace {

/// Every fitting column must vary; real data is z-scored with the fitting rows' statistics over
/// the observed entries, by the rule every lab shares (core/data/RegressionData.h: columnScale).
void checkColumns(bool standardise, LatentData& data) {
    const Eigen::Index nTrain = data.train.rows();
    for (Eigen::Index d = 0; d < data.train.cols(); ++d) {
        Vector present(nTrain);
        Eigen::Index count = 0;
        for (Eigen::Index i = 0; i < nTrain; ++i)
            if (const double v = data.train(i, d); !std::isnan(v))
                present(count++) = v;
        std::string column = "column '";
        column.append(data.columns[static_cast<std::size_t>(d)]).append("'");
        if (count < 2)
            throw std::invalid_argument(column + " has fewer than two values in the fitting rows");
        const ColumnScale c = columnScale(present.head(count));
        if (c.constant || !(c.scale > 0.0) || !std::isfinite(c.scale))
            throw std::invalid_argument(column +
                                        " is constant in the fitting rows: it has no variance "
                                        "to explain");
        if (standardise) {
            data.train.col(d) = (data.train.col(d).array() - c.mean) / c.scale;
            data.test.col(d) = (data.test.col(d).array() - c.mean) / c.scale;
            for (HiddenEntry& h : data.hidden)
                if (h.col == d)
                    h.value = (h.value - c.mean) / c.scale;
        }
    }
}

void checkShares(double testFraction, double hideFraction) {
    if (!(testFraction >= 0.0 && testFraction <= 0.9))
        throw std::invalid_argument("the test fraction must lie between 0 and 0.9");
    if (!(hideFraction >= 0.0 && hideFraction <= 0.9))
        throw std::invalid_argument("the share of entries to hide must lie between 0 and 0.9");
}

/// §3.6: hidden before the column statistics, which then use the observed entries only.
void hideShare(double hideFraction, std::uint64_t splitSeed, LatentData& data) {
    data.hidden.clear();
    data.hideFraction = hideFraction;
    if (hideFraction > 0.0)
        data.hidden =
            hideEntries(data.train, hideFraction, deriveSeed(splitSeed, SeedStream::HiddenEntries));
}

/// Pictures (docs/maths/images.md §1): dequantised, split in the files' order, holes made (a
/// share or a square per image), never scaled.
void splitPictures(NumericTable& table, const LatentDataSpec& spec, LatentData& data) {
    checkShares(spec.testFraction, spec.hideFraction);
    if (spec.hideBlock > 0 && spec.hideFraction > 0.0)
        throw std::invalid_argument("hide either a share of the pixels or a square, not both");
    const Eigen::Index n = table.values.rows();
    const auto nTest = static_cast<Eigen::Index>(std::llround(spec.testFraction * double(n)));
    const Eigen::Index nTrain = n - nTest;
    if (nTrain < 2)
        throw std::invalid_argument("fewer than two rows are left for fitting");
    data.image = std::move(table.image);
    dequantise(table.values, data.image, deriveSeed(spec.splitSeed, SeedStream::Dequantise));
    data.trainLabels.assign(table.labels.begin(), table.labels.begin() + nTrain);
    data.testLabels.assign(table.labels.begin() + nTrain, table.labels.end());
    data.train = table.values.topRows(nTrain);
    data.test = table.values.bottomRows(nTest);
    for (Eigen::Index p = 0; p < data.image.pixels(); ++p) { // "r3c14": row 3, column 14
        char name[48];
        std::snprintf(name, sizeof name, "r%ldc%ld", long(p / data.image.width + 1),
                      long(p % data.image.width + 1));
        data.columns.emplace_back(name);
    }
    hideShare(spec.hideFraction, spec.splitSeed, data);
    if (spec.hideBlock > 0) {
        data.hidden = hideBlocks(data.train, data.image, spec.hideBlock,
                                 deriveSeed(spec.splitSeed, SeedStream::HiddenBlocks));
        data.hideFraction = double(data.hidden.size()) / double(data.train.size());
    }
    checkColumns(false, data);
}

} // namespace

void splitRows(const ConstMatrixRef& all, double testFraction, std::uint64_t splitSeed,
               bool standardise, LatentData& data, std::vector<Eigen::Index>* shuffled,
               double hideFraction) {
    checkShares(testFraction, hideFraction);
    // Shuffle, then hold out round(f N) rows.
    const Eigen::Index n = all.rows(), dim = all.cols();
    std::vector<Eigen::Index> localOrder;
    std::vector<Eigen::Index>& order = shuffled ? *shuffled : localOrder;
    order.resize(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i)
        order[static_cast<std::size_t>(i)] = i;
    Rng rng(deriveSeed(splitSeed, SeedStream::SplitOrder));
    shuffle(order, rng);
    const auto nTest = static_cast<Eigen::Index>(std::llround(testFraction * double(n)));
    const Eigen::Index nTrain = n - nTest;
    if (nTrain < 2)
        throw std::invalid_argument("fewer than two rows are left for fitting");
    data.train.resize(nTrain, dim);
    data.test.resize(nTest, dim);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto row = all.row(order[static_cast<std::size_t>(i)]);
        if (i < nTrain)
            data.train.row(i) = row;
        else
            data.test.row(i - nTrain) = row;
    }
    hideShare(hideFraction, splitSeed, data);
    checkColumns(standardise, data);
}

const Schema<LatentDataSpec>& latentDataParams() {
    static const Schema<LatentDataSpec> s = [] {
        Schema<LatentDataSpec> v{
            field({"test-fraction", "data.testFraction", "held out", R, 0, 0.9,
                   "Share of the rows held out for the held-out log-likelihood (0: none)."},
                  &LatentDataSpec::testFraction)};
        appendNested(
            v,
            Schema<SyntheticLatentSpec>{
                field({"dim", "data.dim", "generated D", W, 2, 2000,
                       "Generated data: the dimension D."},
                      &SyntheticLatentSpec::dim),
                field({"true-latent", "data.trueLatent", "true K", W, 1, 1999,
                       "Generated data: the true latent dimension, below D (per piece for the "
                       "mixture)."},
                      &SyntheticLatentSpec::trueLatent),
                field({"samples", "data.rows", "rows", W, 2, 1e7,
                       "Generated data: rows before the split."},
                      &SyntheticLatentSpec::samples)},
            &LatentDataSpec::synthetic);
        return withDefaults(std::move(v));
    }();
    return s;
}

LatentData makeLatentData(const LatentDataSpec& spec, const TableLoader& loader) {
    if (!(spec.testFraction >= 0.0 && spec.testFraction <= 0.9))
        throw std::invalid_argument("the test fraction must lie between 0 and 0.9");
    if (spec.hideBlock < 0 || (spec.hideBlock > 0 && spec.dataset == "synthetic"))
        throw std::invalid_argument("a hidden square needs pictures (an image data set)");
    LatentData data;
    Matrix all;
    const bool synthetic = spec.dataset == "synthetic";
    if (synthetic) {
        const SyntheticLatentSpec& s = spec.synthetic;
        checkParams(latentDataParams(), spec);
        if (s.trueLatent >= s.dim)
            throw std::invalid_argument("the true latent dimension must satisfy 1 <= K < D");
        // The rows, then their fitting and held-out copies.
        checkRunBytes(2.0 * 8.0 * s.samples * s.dim, "the generated rows",
                      "lower the rows (--samples) or D (--dim)");
        all = generatedRows(spec, data);
        data.name = "synthetic";
        for (int d = 0; d < s.dim; ++d)
            data.columns.push_back(std::string("x").append(std::to_string(d + 1)));
    } else {
        if (!loader)
            throw std::invalid_argument("no loader for the data set '" + spec.dataset + "'");
        NumericTable table = loader(spec.dataset, spec.allowMissing, spec.images);
        if (table.image.isImage()) {
            data.name = table.name;
            splitPictures(table, spec, data);
            return data;
        }
        if (spec.hideBlock > 0)
            throw std::invalid_argument("a hidden square needs pictures (an image data set)");
        all = std::move(table.values);
        data.name = table.name;
        data.columns = table.names;
        data.leftOut = table.leftOut;
    }
    data.anyMissing = all.hasNaN();
    if (data.anyMissing && !spec.allowMissing)
        throw std::invalid_argument("the data have missing values");

    splitRows(all, spec.testFraction, spec.splitSeed, !synthetic, data, nullptr, spec.hideFraction);
    return data;
}

void viewPlane(const ConstMatrixRef& X, int x, int y, Matrix& plane, Vector& shift) {
    const Eigen::Index dim = X.cols();
    Matrix basis = Matrix::Zero(dim, 2);
    Vector through = Vector::Zero(dim);
    if (x >= 0 || y >= 0) {
        if (x < 0 || y < 0 || x >= dim || y >= dim || x == y)
            throw std::invalid_argument("the view needs two different columns of the data");
        basis(x, 0) = 1.0;
        basis(y, 1) = 1.0;
    } else { // the first two principal axes of the complete rows
        std::vector<Eigen::Index> complete;
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            if (!X.row(i).hasNaN())
                complete.push_back(i);
        if (complete.size() < 2)
            throw std::invalid_argument("fewer than two complete rows: no principal axes");
        Matrix rows(static_cast<Eigen::Index>(complete.size()), dim);
        for (std::size_t i = 0; i < complete.size(); ++i)
            rows.row(static_cast<Eigen::Index>(i)) = X.row(complete[i]);
        through = rows.colwise().mean().transpose();
        rows.rowwise() -= through.transpose();
        basis = principalAxes(rows, 2).V;
    }
    plane = std::move(basis);
    shift = std::move(through);
}

} // namespace fa
