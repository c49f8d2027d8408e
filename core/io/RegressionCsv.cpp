#include "core/io/RegressionCsv.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef FAEXPLORER_DATA_SUBDIR
#define FAEXPLORER_DATA_SUBDIR "share/faexplorer/data"
#endif

namespace fa::io {
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
        if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '+' ||
              ch == 'e' || ch == 'E'))
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
                   "has " + std::to_string(cells.size()) + " cells, the header has " +
                       std::to_string(header.size()));
        std::vector<double> values(cells.size());
        for (std::size_t j = 0; j < cells.size(); ++j) {
            const std::string cell = trim(cells[j]);
            if (cell.empty())
                refuse(path, row,
                       "column '" + header[j] + "' is empty (missing values are not filled in)");
            if (!parseNumber(cell, values[j]))
                refuse(path, row,
                       "column '" + header[j] + "': '" + cell + "' is not a finite number");
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
    // bin/PROGRAM -> ../share/faexplorer/data, in the build tree and in an installed tree alike.
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path dir = exe.parent_path().parent_path() / FAEXPLORER_DATA_SUBDIR;
        if (std::filesystem::is_directory(dir, ec))
            return dir.string();
    }
    return FAEXPLORER_DATA_SUBDIR; // relative to the working folder; a load then names it
}

RegressionData loadDataset(const std::string& dataset, const std::string& target,
                           const std::string& dataDir) {
    if (isBuiltinDataset(dataset))
        return loadBuiltinDataset(dataset, dataDir.empty() ? defaultDataDirectory() : dataDir);
    return loadRegressionCsv(dataset, target);
}

DatasetLoader datasetLoader(const std::string& dataDir) {
    return [dataDir](const std::string& dataset, const std::string& target) {
        return loadDataset(dataset, target, dataDir);
    };
}

} // namespace fa::io
