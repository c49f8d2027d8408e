#pragma once
// The latent-variable lab's data: a generated FA, PPCA or mixture model (the truth known), one
// of the bundled UCI sets or any CSV, split into fitting and held-out rows. Real data is
// z-scored column by column (ddof 0) with the fitting rows' statistics, over observed cells.
#include "core/data/NumericTable.h"
#include "core/lab/Params.h"
#include "core/math/Types.h"
#include "core/models/Imputation.h"
#include "core/models/Mppca.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fa {

enum class LatentModel { Fa, Ppca, Mppca };
std::string latentModelName(LatentModel model); ///< "fa", "ppca", "mppca"
/// Throws std::invalid_argument naming the choices.
LatentModel parseLatentModel(const std::string& name);

/// What to generate when the data set is "synthetic".
struct SyntheticLatentSpec {
    int dim = 10;
    int trueLatent = 2;
    double spectrumLo = 1.0, spectrumHi = 10.0; ///< the explorer generator's s² range
    int samples = 1000;                         ///< rows before the split
    int components = 3;                         ///< pieces of the generated mixture
    double mixtureNoise = 0.05;                 ///< σ² of every piece
};

struct LatentDataSpec {
    std::string dataset = "synthetic"; ///< "synthetic", a bundled set's name or a CSV path
    LatentModel model = LatentModel::Fa;
    SyntheticLatentSpec synthetic;
    double testFraction = 0.2; ///< in [0, 0.9]: rows held out (0: none)
    bool allowMissing = false; ///< empty CSV cells become missing values (PPCA EM only)
    /// Share of the fitting rows' observed entries hidden at random (seeded by splitSeed) before
    /// the columns are z-scored, their values kept (docs/maths/latent.md §3.6); in [0, 0.9].
    double hideFraction = 0.0;
    /// Pictures: the side of the square hidden in every fitting image (0: none;
    /// docs/maths/images.md §3).
    int hideBlock = 0;
    /// Pictures: which rows to take (samples 0: all). Pictures are dequantised (ImageData.h),
    /// not z-scored, and split in the files' order
    /// (the last rows held out), not shuffled, so that Fashion-MNIST's 70,000 rows with a test
    /// fraction of 1/7 hold out its published 10,000 test images.
    ImageQuery images;
    std::uint64_t splitSeed = 0; ///< the shuffle before the split; synthetic rows' seed too
    std::uint64_t modelSeed = 0; ///< the generated model
};

struct LatentData {
    std::string name; ///< "synthetic", "boston", a file stem
    std::vector<std::string> columns;
    std::vector<std::string> leftOut; ///< a CSV's columns of words, not modelled
    Matrix train, test;               ///< rows; NaN = missing
    bool anyMissing = false;          ///< the data set's own missing values (not the hidden)
    /// The entries of train hidden by hideFraction, with their values on train's scale.
    std::vector<HiddenEntry> hidden;
    double hideFraction = 0.0; ///< the share of the fitting rows' entries hidden
    /// Pictures only (image.isImage()): their shape and classes, and each row's class.
    ImageLayout image;
    std::vector<int> trainLabels, testLabels;
    /// Generated data only: the truth's mean and covariance (empty otherwise) and, for the
    /// mixture, its pieces.
    Vector trueMean;
    Matrix trueCovariance;
    std::vector<MppcaComponent> truePieces;
    bool hasTruth() const { return trueCovariance.size() > 0; }
};

/// Shuffles the rows (seeded by splitSeed), holds out round(testFraction N) of them, hides
/// hideFraction of the fitting rows' observed entries (data.hidden) and checks that every column
/// varies in the fitting rows' observed entries; standardise z-scores every column (and the
/// hidden values) with those statistics. Fills data.train and data.test (data.columns must be
/// set: the errors name them); shuffled, if given, receives the original index of each row in
/// train-then-test order. Throws std::invalid_argument as makeLatentData.
void splitRows(const ConstMatrixRef& all, double testFraction, std::uint64_t splitSeed,
               bool standardise, LatentData& data, std::vector<Eigen::Index>* shuffled = nullptr,
               double hideFraction = 0.0);

/// The data's parameters, described once (core/lab/Params.h): the held-out share and the
/// generated data's D, K and rows; the latent lab's schemas (core/latent/LatentParams.h) reuse
/// them.
const Schema<LatentDataSpec>& latentDataParams();

/// The plane a data view shows, as an orthonormal D x 2 basis and the point it passes through:
/// columns x and y of the rows (shift 0), or for x = y = -1 the first two principal axes of the
/// complete rows (those without a missing cell) through their mean. Throws
/// std::invalid_argument for other columns or fewer than two complete rows; on a throw the
/// plane and shift are unchanged.
void viewPlane(const ConstMatrixRef& rows, int x, int y, Matrix& plane, Vector& shift);

/// Builds the data. Real data comes from loader (core/io's tableLoader in the programs).
/// Throws std::invalid_argument with a reason: a missing value without allowMissing, a column
/// constant (or wholly missing) in the fitting rows, fewer than two fitting rows, bad sizes.
LatentData makeLatentData(const LatentDataSpec& spec, const TableLoader& loader);

} // namespace fa
