#include "core/io/ShardMerge.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace fa::io {
namespace {

/// The records of a CSV: its lines, except that a line break inside a quoted cell is the
/// cell's. Empty lines are skipped.
std::vector<std::string> records(const std::string& text) {
    std::vector<std::string> out;
    std::string current;
    bool quoted = false;
    for (const char ch : text) {
        if (ch == '"')
            quoted = !quoted;
        if (ch == '\n' && !quoted) {
            if (!current.empty())
                out.push_back(current);
            current.clear();
        } else {
            current += ch;
        }
    }
    if (quoted) // the rest of the file would be one cell, new lines and all
        throw std::invalid_argument("a quoted cell is never closed: the file was cut mid-cell or "
                                    "is not an experiment's CSV");
    if (!current.empty())
        out.push_back(current);
    return out;
}

/// The cells of one record, quotes removed ("50,50" is one cell).
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

/// The record without its last `drop` cells, quoting kept as written.
std::string withoutLastCells(const std::string& line, std::size_t drop) {
    std::vector<std::size_t> commas;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted)
            commas.push_back(i);
    }
    return drop == 0 || commas.size() < drop ? line : line.substr(0, commas[commas.size() - drop]);
}

/// The columns each trial of a command's CSV repeats identically: the rule for its header, if
/// one is given (MergeRule).
std::vector<std::string> agreeingColumns(const std::string& header,
                                         const std::vector<MergeRule>& rules) {
    for (const auto& [h, columns] : rules)
        if (h == header)
            return columns;
    return {};
}

std::string sliceColumn(const std::vector<std::string>& names, std::size_t* at) {
    for (const char* name : {"trial", "split"}) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it != names.end()) {
            *at = static_cast<std::size_t>(it - names.begin());
            return name;
        }
    }
    return {};
}

long wholeCell(const std::string& cell, const std::string& where) {
    if (cell.empty() || cell.size() > 9 ||
        cell.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument(where + "'" + cell + "' is not a whole number");
    return std::stol(cell);
}

struct Row {
    long slice;
    std::size_t order; ///< position among all rows read, so equal slices keep their order
    std::size_t file;
    std::string line;
    std::vector<std::string> cells;
};

std::string rangeText(long first, long last) {
    if (last < first)
        return "none";
    return first == last ? std::to_string(first)
                         : std::to_string(first) + "-" + std::to_string(last);
}

} // namespace

std::string withShardColumns(const std::string& csv, const Shard& shard, int runSlices) {
    const std::vector<std::string> lines = records(csv);
    if (lines.empty())
        return csv;
    std::size_t at = 0;
    const std::string column = sliceColumn(cells(lines.front()), &at);
    const std::string cell = std::to_string(shard.index + 1) + "/" + std::to_string(shard.count) +
                             "," + std::to_string(runSlices);
    std::string out = lines.front() + ",shard,run_" + (column.empty() ? "trial" : column) + "s\n";
    for (std::size_t i = 1; i < lines.size(); ++i)
        out.append(lines[i]).append(1, ',').append(cell).append(1, '\n');
    return out;
}

namespace {

/// The inputs read: the first file's header, its cells, the slice column, and every row.
struct ReadShards {
    std::string header, columnName;
    std::vector<std::string> names;
    std::size_t column = 0;
    bool sharded = false;
    std::vector<Row> rows;
};

/// Reads the first file's header, the slice column and whether the run was sharded.
void readHeader(const ShardText& in, const std::string& line, ReadShards& r) {
    r.header = line;
    r.names = cells(r.header);
    r.columnName = sliceColumn(r.names, &r.column);
    if (r.columnName.empty())
        throw std::invalid_argument(in.name +
                                    ": no trial or split column (not an experiment's CSV)");
    r.sharded = r.names.size() >= 2 && r.names[r.names.size() - 2] == "shard" &&
                r.names.back() == "run_" + r.columnName + "s";
}

/// Every file's rows, each file's header checked against the first's.
ReadShards readShards(const std::vector<ShardText>& inputs) {
    ReadShards r;
    for (std::size_t f = 0; f < inputs.size(); ++f) {
        const ShardText& in = inputs[f];
        std::vector<std::string> text;
        try {
            text = records(in.text);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(in.name + ": " + e.what());
        }
        if (text.empty())
            throw std::invalid_argument(in.name + ": empty (no header line)");
        if (in.text.back() != '\n')
            throw std::invalid_argument(in.name + ": the last line has no end: the file was cut "
                                                  "mid-line (written or copied only in part)");
        if (f == 0) {
            readHeader(in, text.front(), r);
        } else if (text.front() != r.header) {
            const bool other = cells(text.front()).back() == "run_" + r.columnName + "s";
            throw std::invalid_argument(
                other != r.sharded ? (r.sharded ? in.name : inputs.front().name) +
                                         " was written without --shard and " +
                                         (r.sharded ? inputs.front().name : in.name) + " with it"
                                   : in.name + ": its columns differ from " + inputs.front().name +
                                         "'s (another command, or another version?)");
        }
        for (std::size_t i = 1; i < text.size(); ++i) {
            const std::string where = in.name + " line " + std::to_string(i + 1) + ": ";
            std::vector<std::string> c = cells(text[i]);
            if (c.size() != r.names.size())
                throw std::invalid_argument(
                    where + std::to_string(c.size()) + " cells, the header has " +
                    std::to_string(r.names.size()) + " (a line cut short?)");
            const long slice = wholeCell(c[r.column], where + "the " + r.columnName + " cell ");
            r.rows.push_back({slice, r.rows.size(), f, text[i], std::move(c)});
        }
    }
    return r;
}

/// Which file each slice came from; a slice in two files is an overlap.
std::map<long, std::size_t> sliceOwners(const std::vector<ShardText>& inputs, const ReadShards& r) {
    std::map<long, std::size_t> owner; // slice -> the file it came from
    for (const Row& row : r.rows) {
        const auto seen = owner.find(row.slice);
        if (seen != owner.end() && seen->second != row.file)
            throw std::invalid_argument(
                "overlapping shards: " + r.columnName + " " + std::to_string(row.slice) +
                " is in both " + inputs[seen->second].name + " and " + inputs[row.file].name);
        owner[row.slice] = row.file;
    }
    return owner;
}

/// The shards the files say they are.
struct ShardsSeen {
    long runSlices = -1;
    int count = 0;
    std::map<int, std::size_t> file; ///< shard index -> file
};

/// Every row names its shard i/n and the run's number of slices T; the rows must come from
/// shards of one run, each file one shard, no shard twice, no file empty.
ShardsSeen shardsSeen(const std::vector<ShardText>& inputs, const ReadShards& r) {
    const std::size_t shardAt = r.names.size() - 2, runAt = r.names.size() - 1;
    ShardsSeen seen;
    std::vector<Shard> shardOf(inputs.size(), Shard{-1, 0});
    for (const Row& row : r.rows) {
        const std::string& name = inputs[row.file].name;
        Shard s;
        try {
            s = parseShard(row.cells[shardAt]);
        } catch (const std::invalid_argument&) {
            throw std::invalid_argument(name + ": the shard cell '" + row.cells[shardAt] +
                                        "' is not i/n");
        }
        const long t = wholeCell(row.cells[runAt], name + ": the run_" + r.columnName + "s cell ");
        if (seen.runSlices < 0) {
            seen.runSlices = t;
            seen.count = s.count;
        }
        if (t != seen.runSlices || s.count != seen.count)
            throw std::invalid_argument(
                "shards of different runs: " + name + " is shard " + row.cells[shardAt] + " of " +
                std::to_string(t) + " " + r.columnName + "s, " + inputs[r.rows.front().file].name +
                " " + r.rows.front().cells[shardAt] + " of " + std::to_string(seen.runSlices));
        if (shardOf[row.file].count == 0) {
            shardOf[row.file] = s;
            const auto twice = seen.file.find(s.index);
            if (twice != seen.file.end())
                throw std::invalid_argument("shard " + row.cells[shardAt] + " is given twice: " +
                                            inputs[twice->second].name + " and " + name);
            seen.file[s.index] = row.file;
        } else if (shardOf[row.file].index != s.index) {
            throw std::invalid_argument(name + " holds rows of two shards");
        }
    }
    for (std::size_t f = 0; f < inputs.size(); ++f)
        if (shardOf[f].count == 0)
            throw std::invalid_argument(inputs[f].name + ": no rows (an empty shard?)");
    return seen;
}

/// A sharded run: all n shards present, each holding exactly its slice. Returns T.
long checkShards(const std::vector<ShardText>& inputs, const ReadShards& r,
                 const std::map<long, std::size_t>& owner) {
    const ShardsSeen seen = shardsSeen(inputs, r);
    const int count = seen.count;
    std::string missing;
    int absent = 0;
    for (int i = 0; i < count; ++i)
        if (!seen.file.count(i) && ++absent)
            missing +=
                (missing.empty() ? "" : ", ") + std::to_string(i + 1) + "/" + std::to_string(count);
    if (absent > 0)
        throw std::invalid_argument(
            (absent > 1 ? "shards " : "shard ") + missing + (absent > 1 ? " are" : " is") +
            " missing: the " + std::to_string(count) + " shards of the run are needed, each once");
    std::map<std::size_t, std::vector<long>> held; // file -> its slices, ascending
    for (const auto& [slice, file] : owner)
        held[file].push_back(slice);
    for (const auto& [index, f] : seen.file) {
        // Shard i of n runs the trials [T i / n, T (i + 1) / n) (core/lab/TrialRunner.h).
        const long begin = seen.runSlices * index / count,
                   end = seen.runSlices * (index + 1) / count;
        const std::vector<long>& mine = held[f];
        if (static_cast<long>(mine.size()) != end - begin || mine.front() != begin ||
            mine.back() != end - 1)
            throw std::invalid_argument(inputs[f].name + " (shard " + std::to_string(index + 1) +
                                        "/" + std::to_string(count) + " of " +
                                        std::to_string(seen.runSlices) + " " + r.columnName +
                                        "s) holds " + r.columnName + "s " +
                                        rangeText(mine.front(), mine.back()) + ", its slice is " +
                                        rangeText(begin, end - 1) + " (cut short or interrupted?)");
    }
    return seen.runSlices;
}

/// One whole run's file: its slices 0, 1, 2, … without a gap.
void checkContiguous(const ReadShards& r, const std::map<long, std::size_t>& owner) {
    long expected = 0;
    for (const auto& [slice, file] : owner) {
        if (slice != expected)
            throw std::invalid_argument(
                r.columnName + (slice - expected > 1 ? "s " : " ") + std::to_string(expected) +
                (slice - expected > 1 ? "-" + std::to_string(slice - 1) + " are" : " is") +
                " in none of the inputs: a shard is missing");
        expected = slice + 1;
    }
}

/// Each trial repeats the run's settings and checkpoints: every trial must match the first.
void checkSameRun(const std::vector<ShardText>& inputs, const ReadShards& r,
                  const std::string& base, const std::vector<MergeRule>& rules) {
    std::vector<std::size_t> keys;
    for (const std::string& name : agreeingColumns(base, rules))
        keys.push_back(static_cast<std::size_t>(std::find(r.names.begin(), r.names.end(), name) -
                                                r.names.begin()));
    if (keys.empty())
        return;
    std::map<long, std::vector<const Row*>> byTrial;
    for (const Row& row : r.rows)
        byTrial[row.slice].push_back(&row);
    const auto& [firstTrial, first] = *byTrial.begin();
    for (const auto& [trial, mine] : byTrial) {
        const std::string what = inputs[mine.front()->file].name + " " + r.columnName + " " +
                                 std::to_string(trial) + " against " +
                                 inputs[first.front()->file].name + " " + r.columnName + " " +
                                 std::to_string(firstTrial);
        if (mine.size() != first.size())
            throw std::invalid_argument("shards of different runs: " + what + ": " +
                                        std::to_string(mine.size()) + " rows against " +
                                        std::to_string(first.size()) +
                                        " (other checkpoints or methods: --iterations, "
                                        "--epochs, --samples, --method?)");
        for (std::size_t i = 0; i < mine.size(); ++i)
            for (const std::size_t k : keys)
                if (mine[i]->cells[k] != first[i]->cells[k])
                    throw std::invalid_argument("shards of different runs: " + what + ": column " +
                                                r.names[k] + " is '" + mine[i]->cells[k] +
                                                "' against '" + first[i]->cells[k] + "'");
    }
}

} // namespace

std::string mergeShards(const std::vector<ShardText>& inputs, const std::vector<MergeRule>& rules,
                        MergeSummary* summary) {
    if (inputs.empty())
        throw std::invalid_argument("give at least one CSV to merge");
    ReadShards r = readShards(inputs);
    if (!r.sharded && inputs.size() > 1)
        throw std::invalid_argument(
            inputs.front().name +
            " has no shard column: merge takes the files of one run made with --shard i/n "
            "(each says which slice it is), or one whole run's file alone");
    const std::map<long, std::size_t> owner = sliceOwners(inputs, r);
    long slices = static_cast<long>(owner.size());
    if (r.sharded)
        slices = checkShards(inputs, r, owner);
    else
        checkContiguous(r, owner);
    std::stable_sort(r.rows.begin(), r.rows.end(),
                     [](const Row& a, const Row& b) { return a.slice < b.slice; });
    const std::string base = r.sharded ? withoutLastCells(r.header, 2) : r.header;
    checkSameRun(inputs, r, base, rules);

    std::string out = base + "\n";
    for (const Row& row : r.rows)
        out.append(r.sharded ? withoutLastCells(row.line, 2) : row.line).append(1, '\n');
    if (summary)
        *summary = {r.columnName, static_cast<int>(inputs.size()), static_cast<int>(slices),
                    static_cast<long>(r.rows.size())};
    return out;
}

} // namespace fa::io
