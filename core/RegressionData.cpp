#include "RegressionData.h"

#include "Rng.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>

#ifndef FAEXPLORER_DATA_DIR
#define FAEXPLORER_DATA_DIR "resources/data"
#endif

namespace fa {
namespace {

std::vector<std::string> splitLine(const std::string& line) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ','))
        cells.push_back(cell);
    if (!line.empty() && line.back() == ',')
        cells.emplace_back();
    return cells;
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r");
    return s.substr(first, last - first + 1);
}

[[noreturn]] void refuse(const std::string& path, long row, const std::string& what) {
    throw std::invalid_argument(path + ": row " + std::to_string(row) + ": " + what);
}

/// A finite decimal number and nothing else; strtod alone would take "nan", "inf" and "1e5x".
bool parseNumber(const std::string& text, double& value) {
    if (text.empty())
        return false;
    for (const char ch : text)
        if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '+' || ch == 'e' ||
              ch == 'E'))
            return false;
    errno = 0;
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && errno == 0 && std::isfinite(value);
}

struct BuiltinSet {
    const char* name;
    const char* file;
    const char* target;
    std::vector<std::string> drop;
};

const std::vector<BuiltinSet>& builtinSets() {
    static const std::vector<BuiltinSet> sets = {
        {"boston", "boston_housing.csv", "medv", {}},
        {"concrete", "concrete.csv", "strength", {}},
        {"energy", "energy.csv", "heating_load", {"cooling_load"}},
        {"yacht", "yacht.csv", "residuary_resistance", {}},
    };
    return sets;
}

} // namespace

RegressionData loadRegressionCsv(const std::string& path, const std::string& targetColumn,
                                 const std::vector<std::string>& dropColumns) {
    std::ifstream in(path);
    if (!in)
        throw std::invalid_argument(path + ": cannot open the file");
    std::string line;
    if (!std::getline(in, line))
        throw std::invalid_argument(path + ": the file is empty (expected a header row)");
    std::vector<std::string> header = splitLine(line);
    for (auto& h : header)
        h = trim(h);
    for (std::size_t j = 0; j < header.size(); ++j) {
        if (header[j].empty())
            refuse(path, 1, "column " + std::to_string(j + 1) + " has no name");
        for (std::size_t k = 0; k < j; ++k)
            if (header[k] == header[j])
                refuse(path, 1, "column name '" + header[j] + "' appears twice");
    }
    if (header.size() < 2)
        refuse(path, 1, "need at least one input column and a target column");
    auto columnIndex = [&](const std::string& name) -> std::size_t {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end())
            throw std::invalid_argument(path + ": no column named '" + name + "'");
        return static_cast<std::size_t>(it - header.begin());
    };
    const std::size_t target = targetColumn.empty() ? header.size() - 1 : columnIndex(targetColumn);
    std::vector<bool> isInput(header.size(), true);
    isInput[target] = false;
    for (const auto& d : dropColumns)
        isInput[columnIndex(d)] = false;

    std::vector<std::vector<double>> rows;
    long row = 1;
    while (std::getline(in, line)) {
        ++row;
        if (trim(line).empty())
            continue; // blank lines (a trailing newline) carry no data
        const auto cells = splitLine(line);
        if (cells.size() != header.size())
            refuse(path, row,
                   "has " + std::to_string(cells.size()) + " cells, the header has " + std::to_string(header.size()));
        std::vector<double> values(cells.size());
        for (std::size_t j = 0; j < cells.size(); ++j) {
            const std::string cell = trim(cells[j]);
            if (cell.empty())
                refuse(path, row, "column '" + header[j] + "' is empty (missing values are not filled in)");
            if (!parseNumber(cell, values[j]))
                refuse(path, row, "column '" + header[j] + "': '" + cell + "' is not a finite number");
        }
        rows.push_back(std::move(values));
    }
    if (rows.size() < 2)
        throw std::invalid_argument(path + ": need at least two data rows");

    RegressionData data;
    for (std::size_t j = 0; j < header.size(); ++j)
        if (isInput[j])
            data.inputNames.push_back(header[j]);
    if (data.inputNames.empty())
        throw std::invalid_argument(path + ": no input columns are left besides the target");
    data.targetName = header[target];
    const auto n = static_cast<Eigen::Index>(rows.size());
    data.X.resize(n, static_cast<Eigen::Index>(data.inputNames.size()));
    data.y.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        Eigen::Index col = 0;
        for (std::size_t j = 0; j < header.size(); ++j)
            if (isInput[j])
                data.X(i, col++) = rows[static_cast<std::size_t>(i)][j];
        data.y(i) = rows[static_cast<std::size_t>(i)][target];
    }
    std::string stem = path.substr(path.find_last_of('/') + 1);
    data.name = stem.substr(0, stem.rfind('.'));
    return data;
}

std::vector<std::string> builtinDatasetNames() {
    std::vector<std::string> names;
    for (const auto& s : builtinSets())
        names.emplace_back(s.name);
    return names;
}

bool isBuiltinDataset(const std::string& name) {
    const auto names = builtinDatasetNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}

RegressionData loadBuiltinDataset(const std::string& name, const std::string& dataDir) {
    for (const auto& s : builtinSets())
        if (name == s.name) {
            RegressionData data = loadRegressionCsv(dataDir + "/" + s.file, s.target, s.drop);
            data.name = name;
            return data;
        }
    throw std::invalid_argument("unknown data set '" + name + "'");
}

std::string defaultDataDirectory() {
    if (const char* env = std::getenv("FAEXPLORER_DATA"); env && *env)
        return env;
    return FAEXPLORER_DATA_DIR;
}

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
    data.targetName = "y";
    for (int j = 0; j < p; ++j)
        data.inputNames.push_back(std::string(1, 'x').append(std::to_string(j + 1))); // not "x" + ...: GCC 12 -Wrestrict false positive
    data.X = rng.normalMatrix(recipe.samples, p) * L.transpose();
    Vector theta(p);
    rng.fillNormal(theta);
    theta /= std::sqrt(recipe.alpha);
    Vector noise(recipe.samples);
    rng.fillNormal(noise);
    data.y = data.X * theta + noise / std::sqrt(recipe.beta);
    return data;
}

RegressionProblem prepareRegression(const RegressionData& data, const PrepareOptions& options) {
    if (!(options.trainFraction > 0.0 && options.trainFraction <= 1.0))
        throw std::invalid_argument("the training fraction must lie in (0, 1]");
    const Eigen::Index n = data.size();
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    const auto nTrain = static_cast<Eigen::Index>(std::llround(options.trainFraction * static_cast<double>(n)));
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

    prob.xMean = Vector::Zero(p);
    prob.xScale = Vector::Ones(p);
    if (options.standardise) {
        prob.xMean = prob.Xtrain.leftCols(p).colwise().mean().transpose();
        for (Eigen::Index j = 0; j < p; ++j) {
            const double var = (prob.Xtrain.col(j).array() - prob.xMean(j)).square().mean();
            prob.xScale(j) = var > 0.0 ? std::sqrt(var) : 1.0;
        }
        prob.yMean = prob.ytrain.mean();
        const double yVar = (prob.ytrain.array() - prob.yMean).square().mean();
        prob.yScale = yVar > 0.0 ? std::sqrt(yVar) : 1.0;
    }
    for (Matrix* X : {&prob.Xtrain, &prob.Xtest})
        for (Eigen::Index j = 0; j < p; ++j)
            X->col(j) = (X->col(j).array() - prob.xMean(j)) / prob.xScale(j);
    prob.ytrain = (prob.ytrain.array() - prob.yMean) / prob.yScale;
    prob.ytest = (prob.ytest.array() - prob.yMean) / prob.yScale;
    if (options.bias) {
        prob.Xtrain.col(p).setOnes();
        prob.Xtest.col(p).setOnes();
    }
    return prob;
}

} // namespace fa
