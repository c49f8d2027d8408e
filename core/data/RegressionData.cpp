#include "core/data/RegressionData.h"

#include "core/math/Rng.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace fa {

RegressionData syntheticRegression(const SyntheticRecipe& recipe, std::uint64_t seed) {
    if (recipe.samples < 2 || recipe.inputs < 1)
        throw std::invalid_argument("synthetic data needs at least 2 samples and 1 input");
    if (!(recipe.alpha > 0.0) || !(recipe.beta > 0.0))
        throw std::invalid_argument("synthetic data needs alpha > 0 and beta > 0");
    const int p = recipe.inputs;
    if (p > 1 && !(recipe.correlation > -1.0 / (p - 1) && recipe.correlation < 1.0))
        throw std::invalid_argument("synthetic input correlation must lie in (-1/(P-1), 1)");
    Matrix cov = Matrix::Constant(p, p, recipe.correlation);
    cov.diagonal().setOnes();
    const Matrix L = cov.llt().matrixL();
    Rng rng(seed);
    RegressionData data;
    data.name = "synthetic";
    data.targetName =
        std::string(1, 'y'); // not = "y": GCC 12 -Wrestrict false positive (bug 105329)
    for (int j = 0; j < p; ++j)
        data.inputNames.push_back(std::string(1, 'x').append(
            std::to_string(j + 1))); // not "x" + ...: GCC 12 -Wrestrict false positive
    data.X = rng.normalMatrix(recipe.samples, p) * L.transpose();
    Vector theta(p);
    rng.fillNormal(theta);
    theta /= std::sqrt(recipe.alpha);
    Vector noise(recipe.samples);
    rng.fillNormal(noise);
    data.y = data.X * theta + noise / std::sqrt(recipe.beta);
    return data;
}

namespace {
/// Mean and standard deviation of a column, the deviation 1 for a constant column. Values near
/// the ends of the double range (1e200 squares to infinity, 1e-300 to zero) are first divided
/// by their largest magnitude, so their scale is still found; ordinary columns take the plain
/// formula, bit for bit as before; mean is the column's plain mean.
std::pair<double, double> meanAndScale(const Eigen::Ref<const Vector>& v, double mean) {
    double var = (v.array() - mean).square().mean();
    if (std::isfinite(var) && var >= std::numeric_limits<double>::min())
        return {mean, std::sqrt(var)};
    if (std::isfinite(mean) && (v.array() == mean).all())
        return {mean, 1.0}; // constant
    const double m = v.cwiseAbs().maxCoeff();
    if (!(m > 0.0) || !std::isfinite(m))
        return {mean, 1.0};
    const Vector u = v / m;
    const double uMean = u.mean();
    const double uVar = (u.array() - uMean).square().mean();
    mean = uMean * m;
    return {mean, uVar > 0.0 ? std::sqrt(uVar) * m : 1.0};
}
} // namespace

ColumnScale columnScale(const Eigen::Ref<const Vector>& values) {
    ColumnScale c;
    if (values.size() == 0)
        return c;
    c.constant = (values.array() == values(0)).all();
    std::tie(c.mean, c.scale) = meanAndScale(values, values.mean());
    return c;
}

RegressionProblem prepareRegression(const RegressionData& data, const PrepareOptions& options) {
    if (!(options.trainFraction > 0.0 && options.trainFraction <= 1.0))
        throw std::invalid_argument("the training fraction must lie in (0, 1]");
    const Eigen::Index n = data.size();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    const auto nTrain =
        static_cast<Eigen::Index>(std::llround(options.trainFraction * static_cast<double>(n)));
    if (nTrain < 2)
        throw std::invalid_argument("the training part needs at least two rows");
    if (nTrain < n) {
        Rng rng(options.splitSeed);
        shuffle(order, rng);
    }
    const Eigen::Index p = data.inputs();
    const Eigen::Index dim = p + (options.bias ? 1 : 0);
    RegressionProblem prob;
    prob.parameterNames = data.inputNames;
    if (options.bias)
        prob.parameterNames.emplace_back("bias");
    auto take = [&](Eigen::Index first, Eigen::Index count, Matrix& X, Vector& y) {
        X.resize(count, dim);
        y.resize(count);
        for (Eigen::Index r = 0; r < count; ++r) {
            const Eigen::Index src = order[static_cast<std::size_t>(first + r)];
            X.row(r).head(p) = data.X.row(src);
            y(r) = data.y(src);
        }
    };
    take(0, nTrain, prob.Xtrain, prob.ytrain);
    take(nTrain, n - nTrain, prob.Xtest, prob.ytest);
    if ((prob.ytrain.array() == prob.ytrain(0)).all()) // every lab that regresses needs this
        throw std::invalid_argument("the target '" + data.targetName + "' is constant on the " +
                                    std::to_string(nTrain) +
                                    " training rows: there is nothing to regress");

    prob.xMean = Vector::Zero(p);
    prob.xScale = Vector::Ones(p);
    if (options.standardise) {
        // The plain means as before (colwise for X: its rounding differs from a column's own).
        const Vector plainMean = prob.Xtrain.leftCols(p).colwise().mean().transpose();
        for (Eigen::Index j = 0; j < p; ++j)
            std::tie(prob.xMean(j), prob.xScale(j)) =
                meanAndScale(prob.Xtrain.col(j), plainMean(j));
        std::tie(prob.yMean, prob.yScale) = meanAndScale(prob.ytrain, prob.ytrain.mean());
    }
    for (Matrix* X : {&prob.Xtrain, &prob.Xtest})
        for (Eigen::Index j = 0; j < p; ++j)
            X->col(j) = (X->col(j).array() - prob.xMean(j)) / prob.xScale(j);
    prob.ytrain = (prob.ytrain.array() - prob.yMean) / prob.yScale;
    prob.ytest = (prob.ytest.array() - prob.yMean) / prob.yScale;
    // Values of both signs near the end of the double range (±1.7e308) overflow x - mean:
    // refused by name rather than passed on as infinities.
    for (Eigen::Index j = 0; j < p; ++j)
        if (!prob.Xtrain.col(j).allFinite() || !prob.Xtest.col(j).allFinite())
            throw std::invalid_argument("column '" + data.inputNames[static_cast<std::size_t>(j)] +
                                        "' spans too wide a range to standardise");
    if (!prob.ytrain.allFinite() || !prob.ytest.allFinite())
        throw std::invalid_argument("the target '" + data.targetName +
                                    "' spans too wide a range to standardise");
    if (options.bias) {
        prob.Xtrain.col(p).setOnes();
        prob.Xtest.col(p).setOnes();
    }
    return prob;
}

RegressionData loadRegressionDataset(const DatasetLoader& loader, const std::string& dataset,
                                     const std::string& target) {
    if (!loader)
        throw std::invalid_argument("no data loader for the data set '" + dataset + "'");
    return loader(dataset, target);
}

RegressionProblem splitRegression(const RegressionData& data, double trainFraction,
                                  std::uint64_t seed, int split) {
    PrepareOptions o;
    o.bias = false;
    o.trainFraction = trainFraction;
    o.splitSeed = deriveSeed(seed, static_cast<std::uint64_t>(split));
    RegressionProblem p = prepareRegression(data, o);
    if (p.Xtest.rows() == 0) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "the test part is empty: %ld rows with a training fraction of %g leave "
                      "none to score; lower the training fraction or use more rows",
                      static_cast<long>(data.size()), trainFraction);
        throw std::invalid_argument(text);
    }
    return p;
}

} // namespace fa
