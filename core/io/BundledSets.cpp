// The bundled UCI sets (resources/data, beside the program) and the generated in-between set:
// their names, files, fixed targets and where they are found.
#include "core/data/InBetween.h"
#include "core/io/RegressionCsv.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#ifndef FAEXPLORER_DATA_SUBDIR
#define FAEXPLORER_DATA_SUBDIR "share/faexplorer/data"
#endif

namespace fa::io {
namespace {

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

std::vector<std::string> builtinDatasetNames() {
    std::vector<std::string> names;
    for (const auto& s : builtinSets())
        names.emplace_back(s.name);
    return names;
}

bool isBuiltinDataset(const std::string& name) {
    // A bundled set's file differs from its name; the in-between set is generated.
    return name == kInBetweenName || datasetFile(name, "/") != name;
}

std::string datasetFile(const std::string& dataset, const std::string& dataDir) {
    for (const auto& s : builtinSets())
        if (dataset == s.name)
            return (dataDir.empty() ? defaultDataDirectory() : dataDir) + "/" + s.file;
    return dataset;
}

RegressionData loadBuiltinDataset(const std::string& name, const std::string& dataDir) {
    if (name == kInBetweenName)
        return inBetweenData();
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

} // namespace fa::io
