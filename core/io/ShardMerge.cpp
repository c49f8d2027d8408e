#include "core/io/ShardMerge.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace fa::io {
namespace {

/// The cells of one CSV line, quotes removed ("50,50" is one cell).
std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (const char ch : line) {
        if (ch == '"')
            quoted = !quoted;
        else if (ch == ',' && !quoted)
            out.emplace_back();
        else
            out.back() += ch;
    }
    return out;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::size_t stop = end == std::string::npos ? text.size() : end;
        if (stop > start)
            out.push_back(text.substr(start, stop - start));
        start = stop + 1;
    }
    return out;
}

struct Row {
    long slice;
    std::size_t order; ///< position among all rows read, so equal slices keep their order
    std::string line;
};
} // namespace

std::string mergeShards(const std::vector<ShardText>& inputs, MergeSummary* summary) {
    if (inputs.empty())
        throw std::invalid_argument("give at least one CSV to merge");
    std::string header;
    std::size_t column = 0;
    std::string columnName;
    std::map<long, std::string> owner; // slice -> the file it came from
    std::vector<Row> rows;
    for (const ShardText& in : inputs) {
        const std::vector<std::string> text = lines(in.text);
        if (text.empty())
            throw std::invalid_argument(in.name + ": empty (no header line)");
        if (header.empty()) {
            header = text.front();
            const std::vector<std::string> names = cells(header);
            for (const char* name : {"trial", "split"}) {
                const auto at = std::find(names.begin(), names.end(), name);
                if (at != names.end() && columnName.empty()) {
                    column = static_cast<std::size_t>(at - names.begin());
                    columnName = name;
                }
            }
            if (columnName.empty())
                throw std::invalid_argument(in.name +
                                            ": no trial or split column (not an experiment's CSV)");
        } else if (text.front() != header) {
            throw std::invalid_argument(in.name + ": its columns differ from " +
                                        inputs.front().name +
                                        "'s (another command, or another version?)");
        }
        std::map<long, bool> mine;
        for (std::size_t i = 1; i < text.size(); ++i) {
            const std::vector<std::string> c = cells(text[i]);
            const std::string cell = column < c.size() ? c[column] : std::string();
            if (cell.empty() || cell.size() > 9 ||
                cell.find_first_not_of("0123456789") != std::string::npos)
                throw std::invalid_argument(in.name + " line " + std::to_string(i + 1) + ": the " +
                                            columnName + " cell '" + cell +
                                            "' is not a whole number");
            const long slice = std::stol(cell);
            const auto seen = owner.find(slice);
            if (seen != owner.end() && seen->second != in.name)
                throw std::invalid_argument("overlapping shards: " + columnName + " " + cell +
                                            " is in both " + seen->second + " and " + in.name);
            if (seen != owner.end() && !mine.count(slice))
                throw std::invalid_argument(in.name + " is given twice");
            owner[slice] = in.name;
            mine[slice] = true;
            rows.push_back({slice, rows.size(), text[i]});
        }
    }
    long expected = 0;
    for (const auto& [slice, name] : owner) {
        if (slice != expected)
            throw std::invalid_argument(
                columnName + (slice - expected > 1 ? "s " : " ") + std::to_string(expected) +
                (slice - expected > 1 ? "-" + std::to_string(slice - 1) + " are" : " is") +
                " in none of the inputs: a shard is missing");
        expected = slice + 1;
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.slice < b.slice; });
    std::string out = header + "\n";
    for (const Row& r : rows)
        out += r.line + "\n";
    if (summary)
        *summary = {columnName, static_cast<int>(inputs.size()), static_cast<int>(owner.size()),
                    static_cast<long>(rows.size())};
    return out;
}

} // namespace fa::io
