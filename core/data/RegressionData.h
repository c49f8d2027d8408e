#pragma once
// Regression data for the posterior and neural labs: the synthetic recipe, standardisation, a
// bias column and seeded train/test splits. Files are read by core/io/RegressionCsv.
#include "core/math/Types.h"

#include <functional>
#include <string>
#include <vector>

namespace fa {

/// Inputs X (N x P, one row per example) and targets y (N), with column names.
struct RegressionData {
    Matrix X;
    Vector y;
    std::vector<std::string> inputNames;
    std::string targetName;
    std::string name; ///< "boston", "synthetic", a file stem, ...

    Eigen::Index size() const { return X.rows(); }
    Eigen::Index inputs() const { return X.cols(); }
};

/// Where a lab's real data comes from: a bundled set's name or a CSV path (and the CSV's target
/// column) in, the data out with its name set. The engine reads no files itself: the programs
/// hand it core/io's loader (fa::io::datasetLoader); tests may hand it data made in memory.
using DatasetLoader =
    std::function<RegressionData(const std::string& dataset, const std::string& target)>;

/// The synthetic recipe (report Table 1, Figure 1): x ~ N(0, [[1, rho], [rho, 1]]) in 2-D
/// (more dimensions get the same correlation rho between every pair), theta_true ~ N(0, I/alpha),
/// y = theta_true^T x + eps, eps ~ N(0, 1/beta). No bias and no standardisation: the exact
/// posterior under the same alpha and beta is then a visibly tilted ellipse (correlation about
/// -rho) with standard deviations about 1/sqrt(beta N).
struct SyntheticRecipe {
    int samples = 1000;
    int inputs = 2;
    double correlation = 0.5;
    double alpha = 0.01; ///< prior precision of theta_true, also the default prior of the fit
    double beta = 0.1;   ///< noise precision
};
RegressionData syntheticRegression(const SyntheticRecipe& recipe, std::uint64_t seed);

/// A prepared problem: design matrix (standardised inputs, optional bias column of ones last)
/// and standardised target, split into train and test parts.
struct RegressionProblem {
    Matrix Xtrain, Xtest;
    Vector ytrain, ytest;
    std::vector<std::string> parameterNames; ///< one per column of the design matrix
    Vector xMean, xScale;                    ///< per input, from the training part
    double yMean = 0.0, yScale = 1.0;        ///< target, from the training part
    Eigen::Index dim() const { return Xtrain.cols(); }
};

struct PrepareOptions {
    bool standardise = true; ///< inputs and target to zero mean, unit variance (train statistics)
    bool bias = true;        ///< append a column of ones
    double trainFraction = 1.0; ///< in (0, 1]; 1 keeps everything for training
    std::uint64_t splitSeed = 0;
};
/// Shuffles the rows with splitSeed (Fisher-Yates on our Rng), keeps round(f N) for training and
/// the rest for testing, then standardises with the training part's mean and standard deviation
/// (population form, divisor N). A constant input column is centred but not scaled.
RegressionProblem prepareRegression(const RegressionData& data, const PrepareOptions& options);

/// Split s of the regression labs' protocol (neural and Gaussian processes): the rows shuffled with
/// deriveSeed(seed, s), the first round(f N) for training, inputs and target standardised with
/// the training part, no bias column. Throws std::invalid_argument when the test part is empty.
RegressionProblem splitRegression(const RegressionData& data, double trainFraction,
                                  std::uint64_t seed, int split);
/// A row's test RMSE above this many standard deviations of the training target is not "ok"
/// but "diverged", its cells kept (the neural and Gaussian-process rows).
inline constexpr double kAbsurdRmse = 10.0;
/// The data set through the loader; throws std::invalid_argument without one.
RegressionData loadRegressionDataset(const DatasetLoader& loader, const std::string& dataset,
                                     const std::string& target);

/// How every lab standardises a column (the regression labs' inputs and target, the latent and
/// nonlinear labs' columns): its mean and scale (standard deviation), found for columns near the
/// ends of the double range too (1e-300, 1e200, subnormal: divided by their largest magnitude
/// first). A column is constant only when all its values are equal; any other one is scaled to
/// unit variance, however small its spread.
struct ColumnScale {
    double mean = 0.0, scale = 1.0;
    bool constant = false;
};
ColumnScale columnScale(const Eigen::Ref<const Vector>& values);

} // namespace fa
