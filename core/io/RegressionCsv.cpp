#include "core/io/RegressionCsv.h"

#include "core/io/ImageSets.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

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

constexpr std::size_t kMaxLine = 1 << 20; // a row of a million characters is not a data row

/// One line (without its '\n'), at most kMaxLine characters: a longer one is refused before it
/// is read whole, so a file of one huge line cannot take all memory.
bool readLine(std::istream& in, std::string& line, const std::string& path, long row) {
    line.clear();
    std::streambuf* buffer = in.rdbuf();
    for (;;) {
        const int ch = buffer->sbumpc();
        if (ch == std::char_traits<char>::eof())
            return !line.empty();
        if (ch == '\n')
            return true;
        if (line.size() >= kMaxLine)
            refuse(path, row, "is longer than " + std::to_string(kMaxLine) + " characters");
        line.push_back(static_cast<char>(ch));
    }
}

/// A cell as an error message shows it: at most 40 characters, control bytes escaped.
std::string shown(const std::string& cell) {
    std::string out;
    for (std::size_t i = 0; i < cell.size() && i < 40; ++i) {
        const auto ch = static_cast<unsigned char>(cell[i]);
        if (ch < 0x20 || ch == 0x7f) {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[ch >> 4];
            out += hex[ch & 15];
        } else {
            out += static_cast<char>(ch);
        }
    }
    if (cell.size() > 40)
        out += "… (" + std::to_string(cell.size()) + " characters)";
    return out;
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
    // ERANGE with a finite result is an underflow (1e-310, a subnormal, or 1e-400 -> 0): a
    // finite number all the same. Overflow gives infinity, refused below.
    return end == text.c_str() + text.size() && (errno == 0 || errno == ERANGE) &&
           std::isfinite(value);
}

/// A word (an id, a label) rather than a number, a missing-value marker or an overflow: it has
/// a letter, is not made of number characters only ("1e400") and is not NA, NaN, inf, null, ...
bool isWord(const std::string& cell) {
    bool letter = false, numberLike = !cell.empty();
    for (const char ch : cell) {
        const auto c = static_cast<unsigned char>(ch);
        letter = letter || std::isalpha(c);
        numberLike = numberLike && (std::isdigit(c) || ch == '.' || ch == '-' || ch == '+' ||
                                    ch == 'e' || ch == 'E');
    }
    if (!letter || numberLike)
        return false;
    std::string lower;
    for (const char ch : cell)
        if (ch != '+' && ch != '-')
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* marker : {"na", "nan", "n/a", "inf", "infinity", "null", "none", "missing"})
        if (lower == marker)
            return false;
    return true;
}

/// The header and the numeric rows of a CSV; an empty cell is NaN when allowMissing.
struct ParsedCsv {
    std::vector<std::string> header;
    std::vector<std::vector<double>> rows;
    std::vector<bool> text; ///< columns of words (textColumns mode only; their cells are NaN)
};

/// With textColumns, a column whose first data cell is a word (not a number, not empty) is a
/// column of words: its cells are not read. A word later in a column of numbers is refused.
ParsedCsv parseCsv(std::istream& in, const std::string& path, bool allowMissing,
                   const char* tooFewColumns, bool textColumns = false) {
    std::string line;
    if (!readLine(in, line, path, 1))
        throw std::invalid_argument(path + ": the file is empty (expected a header row)");
    if (line.rfind("\xEF\xBB\xBF", 0) == 0)
        line.erase(0, 3); // a UTF-8 byte-order mark (spreadsheet exports) is not part of a name
    if (const auto cr = line.find('\r'); cr != std::string::npos && cr + 1 < line.size())
        throw std::invalid_argument(path +
                                    ": the lines end in CR only (classic Mac OS); save it with "
                                    "LF or CR LF line endings");
    ParsedCsv csv;
    std::vector<std::string>& header = csv.header;
    header = splitLine(line);
    for (auto& h : header)
        h = trim(h);
    std::unordered_set<std::string> seen;
    for (std::size_t j = 0; j < header.size(); ++j) {
        if (header[j].empty())
            refuse(path, 1, "column " + std::to_string(j + 1) + " has no name");
        if (!seen.insert(header[j]).second)
            refuse(path, 1, "column name '" + shown(header[j]) + "' appears twice");
    }
    if (header.size() < 2)
        refuse(path, 1, tooFewColumns);
    long row = 1;
    while (readLine(in, line, path, row + 1)) {
        ++row;
        if (trim(line).empty())
            continue; // blank lines (a trailing newline) carry no data
        const auto cells = splitLine(line);
        if (cells.size() != header.size())
            refuse(path, row,
                   "has " + std::to_string(cells.size()) + " cells, the header has " +
                       std::to_string(header.size()));
        std::vector<double> values(cells.size());
        if (textColumns && csv.rows.empty()) {
            csv.text.assign(cells.size(), false);
            for (std::size_t j = 0; j < cells.size(); ++j) {
                const std::string cell = trim(cells[j]);
                csv.text[j] = isWord(cell);
            }
        }
        for (std::size_t j = 0; j < cells.size(); ++j) {
            if (!csv.text.empty() && csv.text[j]) {
                values[j] = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            const std::string cell = trim(cells[j]);
            if (cell.empty() && allowMissing) {
                values[j] = std::numeric_limits<double>::quiet_NaN();
                continue;
            }
            if (cell.empty())
                refuse(path, row,
                       "column '" + header[j] + "' is empty (missing values are not filled in)");
            if (!parseNumber(cell, values[j]))
                refuse(path, row,
                       "column '" + shown(header[j]) + "': '" + shown(cell) +
                           "' is not a finite number");
        }
        csv.rows.push_back(std::move(values));
    }
    if (csv.rows.size() < 2)
        throw std::invalid_argument(path + ": need at least two data rows");
    return csv;
}

/// Only a regular file is data: a directory, device (/dev/zero) or FIFO is refused by name.
std::ifstream openRegularFile(const std::string& path) {
    std::error_code ec;
    const auto type = std::filesystem::status(path, ec).type();
    if (type == std::filesystem::file_type::not_found)
        throw std::invalid_argument(path + ": cannot open the file: there is no such file");
    if (type == std::filesystem::file_type::directory)
        throw std::invalid_argument(path + ": is a folder, not a CSV file");
    if (type != std::filesystem::file_type::regular)
        throw std::invalid_argument(path + ": is not a regular file (a device, FIFO or socket)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::invalid_argument(path + ": cannot open the file");
    return in;
}

std::string fileStem(const std::string& path) {
    const std::string stem = path.substr(path.find_last_of('/') + 1);
    return stem.substr(0, stem.rfind('.'));
}

} // namespace

RegressionData loadRegressionCsv(const std::string& path, const std::string& targetColumn,
                                 const std::vector<std::string>& dropColumns) {
    std::ifstream in = openRegularFile(path);
    return readRegressionCsv(in, path, targetColumn, dropColumns);
}

NumericTable readNumericCsv(std::istream& in, const std::string& path, bool allowMissing) {
    const ParsedCsv csv =
        parseCsv(in, path, allowMissing, "need at least two columns to model", true);
    NumericTable table;
    std::vector<std::size_t> numeric;
    for (std::size_t j = 0; j < csv.header.size(); ++j) {
        if (csv.text[j]) {
            table.leftOut.push_back(csv.header[j]);
        } else {
            numeric.push_back(j);
            table.names.push_back(csv.header[j]);
        }
    }
    if (numeric.size() < 2)
        throw std::invalid_argument(path + ": need at least two columns of numbers to model (" +
                                    std::to_string(numeric.size()) + " found)");
    table.values.resize(static_cast<Eigen::Index>(csv.rows.size()),
                        static_cast<Eigen::Index>(numeric.size()));
    for (std::size_t i = 0; i < csv.rows.size(); ++i)
        for (std::size_t j = 0; j < numeric.size(); ++j)
            table.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
                csv.rows[i][numeric[j]];
    table.name = fileStem(path);
    return table;
}

NumericTable loadNumericCsv(const std::string& path, bool allowMissing) {
    std::ifstream in = openRegularFile(path);
    return readNumericCsv(in, path, allowMissing);
}

RegressionData readRegressionCsv(std::istream& in, const std::string& path,
                                 const std::string& targetColumn,
                                 const std::vector<std::string>& dropColumns) {
    const ParsedCsv csv =
        parseCsv(in, path, false, "need at least one input column and a target column");
    const std::vector<std::string>& header = csv.header;
    const std::vector<std::vector<double>>& rows = csv.rows;
    auto columnIndex = [&](const std::string& name) -> std::size_t {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end())
            throw std::invalid_argument(path + ": no column named '" + shown(name) + "'");
        return static_cast<std::size_t>(it - header.begin());
    };
    const std::size_t target = targetColumn.empty() ? header.size() - 1 : columnIndex(targetColumn);
    std::vector<bool> isInput(header.size(), true);
    isInput[target] = false;
    for (const auto& d : dropColumns)
        isInput[columnIndex(d)] = false;

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
    data.name = fileStem(path);
    return data;
}

RegressionData loadDataset(const std::string& dataset, const std::string& target,
                           const std::string& dataDir) {
    if (isBuiltinDataset(dataset)) {
        RegressionData data =
            loadBuiltinDataset(dataset, dataDir.empty() ? defaultDataDirectory() : dataDir);
        // A bundled set's target is fixed (its published results use it); naming another one is
        // refused rather than silently ignored.
        if (!target.empty() && target != data.targetName)
            throw std::invalid_argument(
                "the bundled data set '" + dataset + "' has the fixed target '" + data.targetName +
                "'; another target column can be chosen for a CSV file only");
        return data;
    }
    return loadRegressionCsv(dataset, target);
}

NumericTable loadTable(const std::string& dataset, bool allowMissing, const std::string& dataDir,
                       const ImageQuery& images) {
    if (isImageDataset(dataset)) {
        ImageSet set = loadImageSet(dataset, images, dataDir);
        NumericTable table;
        table.name = set.name;
        table.values = std::move(set.pixels);
        table.labels = std::move(set.labels);
        table.image = {set.width, set.height, std::move(set.classNames),
                       set.name == "digits" ? 1.0 / 16.0 : 1.0 / 255.0};
        for (Eigen::Index p = 0; p < table.values.cols(); ++p)
            table.names.push_back(std::string("p").append(std::to_string(p + 1)));
        return table;
    }
    if (!isBuiltinDataset(dataset))
        return loadNumericCsv(dataset, allowMissing);
    // A bundled set: its inputs and its target, every one a column to model.
    const RegressionData data =
        loadBuiltinDataset(dataset, dataDir.empty() ? defaultDataDirectory() : dataDir);
    NumericTable table;
    table.values.resize(data.size(), data.inputs() + 1);
    table.values << data.X, data.y;
    table.names = data.inputNames;
    table.names.push_back(data.targetName);
    table.name = data.name;
    return table;
}

TableLoader tableLoader(const std::string& dataDir) {
    return [dataDir](const std::string& dataset, bool allowMissing, const ImageQuery& images) {
        return loadTable(dataset, allowMissing, dataDir, images);
    };
}

DatasetLoader datasetLoader(const std::string& dataDir) {
    return [dataDir](const std::string& dataset, const std::string& target) {
        return loadDataset(dataset, target, dataDir);
    };
}

} // namespace fa::io
