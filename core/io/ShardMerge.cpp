#include "core/io/ShardMerge.h"

#include "core/io/CsvFormat.h"

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

/// The columns each trial of a command's CSV repeats identically (the run's settings and its
/// checkpoints): shards of one run agree on them, shards of different runs (another --latent,
/// --iterations, --epochs or method list) do not.
std::vector<std::string> agreeingColumns(const std::string& header) {
    static const std::vector<std::pair<std::string, std::vector<std::string>>> table = {
        {kFaSweepHeader,
         {"dim", "latent", "spectrum_lo", "spectrum_hi", "generator", "samples", "algorithm"}},
        {kPosteriorHeader, {"dataset", "method", "latent", "epoch"}},
        {kNeuralHeader, {"dataset", "method", "hidden"}},
        {kLatentHeader, {"dataset", "model", "method", "latent", "components", "iteration"}},
        {kVaeHeader, {"dataset", "method", "latent", "hidden", "epoch"}},
    };
    for (const auto& [h, columns] : table)
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

std::string mergeShards(const std::vector<ShardText>& inputs, MergeSummary* summary) {
    if (inputs.empty())
        throw std::invalid_argument("give at least one CSV to merge");
    std::string header, columnName;
    std::vector<std::string> names;
    std::size_t column = 0;
    bool sharded = false;
    std::vector<Row> rows;
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
            header = text.front();
            names = cells(header);
            columnName = sliceColumn(names, &column);
            if (columnName.empty())
                throw std::invalid_argument(in.name +
                                            ": no trial or split column (not an experiment's CSV)");
            sharded = names.size() >= 2 && names[names.size() - 2] == "shard" &&
                      names.back() == "run_" + columnName + "s";
        } else if (text.front() != header) {
            const bool other = cells(text.front()).back() == "run_" + columnName + "s";
            throw std::invalid_argument(
                other != sharded ? (sharded ? in.name : inputs.front().name) +
                                       " was written without --shard and " +
                                       (sharded ? inputs.front().name : in.name) + " with it"
                                 : in.name + ": its columns differ from " + inputs.front().name +
                                       "'s (another command, or another version?)");
        }
        for (std::size_t i = 1; i < text.size(); ++i) {
            const std::string where = in.name + " line " + std::to_string(i + 1) + ": ";
            std::vector<std::string> c = cells(text[i]);
            if (c.size() != names.size())
                throw std::invalid_argument(where + std::to_string(c.size()) +
                                            " cells, the header has " +
                                            std::to_string(names.size()) + " (a line cut short?)");
            const long slice = wholeCell(c[column], where + "the " + columnName + " cell ");
            rows.push_back({slice, rows.size(), f, text[i], std::move(c)});
        }
    }
    if (!sharded && inputs.size() > 1)
        throw std::invalid_argument(
            inputs.front().name +
            " has no shard column: merge takes the files of one run made with --shard i/n "
            "(each says which slice it is), or one whole run's file alone");

    std::map<long, std::size_t> owner; // slice -> the file it came from
    for (const Row& r : rows) {
        const auto seen = owner.find(r.slice);
        if (seen != owner.end() && seen->second != r.file)
            throw std::invalid_argument("overlapping shards: " + columnName + " " +
                                        std::to_string(r.slice) + " is in both " +
                                        inputs[seen->second].name + " and " + inputs[r.file].name);
        owner[r.slice] = r.file;
    }
    long slices = static_cast<long>(owner.size());
    if (sharded) {
        // Every row names its shard i/n and the run's number of trials T; the files together
        // must be shards 1..n of one run, each holding exactly its slice of the T trials.
        const std::size_t shardAt = names.size() - 2, runAt = names.size() - 1;
        long runTrials = -1;
        int count = 0;
        std::map<int, std::size_t> shardFile; // shard index -> file
        std::vector<Shard> shardOf(inputs.size(), Shard{-1, 0});
        for (const Row& r : rows) {
            const std::string& name = inputs[r.file].name;
            Shard s;
            try {
                s = parseShard(r.cells[shardAt]);
            } catch (const std::invalid_argument&) {
                throw std::invalid_argument(name + ": the shard cell '" + r.cells[shardAt] +
                                            "' is not i/n");
            }
            const long t = wholeCell(r.cells[runAt], name + ": the run_" + columnName + "s cell ");
            if (runTrials < 0) {
                runTrials = t;
                count = s.count;
            }
            if (t != runTrials || s.count != count)
                throw std::invalid_argument(
                    "shards of different runs: " + name + " is shard " + r.cells[shardAt] + " of " +
                    std::to_string(t) + " " + columnName + "s, " + inputs[rows.front().file].name +
                    " " + rows.front().cells[shardAt] + " of " + std::to_string(runTrials));
            if (shardOf[r.file].count == 0) {
                shardOf[r.file] = s;
                const auto twice = shardFile.find(s.index);
                if (twice != shardFile.end())
                    throw std::invalid_argument("shard " + r.cells[shardAt] + " is given twice: " +
                                                inputs[twice->second].name + " and " + name);
                shardFile[s.index] = r.file;
            } else if (shardOf[r.file].index != s.index) {
                throw std::invalid_argument(name + " holds rows of two shards");
            }
        }
        for (std::size_t f = 0; f < inputs.size(); ++f)
            if (shardOf[f].count == 0)
                throw std::invalid_argument(inputs[f].name + ": no rows (an empty shard?)");
        std::string missing;
        int absent = 0;
        for (int i = 0; i < count; ++i)
            if (!shardFile.count(i) && ++absent)
                missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1) + "/" +
                           std::to_string(count);
        if (absent > 0)
            throw std::invalid_argument((absent > 1 ? "shards " : "shard ") + missing +
                                        (absent > 1 ? " are" : " is") + " missing: the " +
                                        std::to_string(count) +
                                        " shards of the run are needed, each once");
        std::map<std::size_t, std::vector<long>> held; // file -> its slices, ascending
        for (const auto& [slice, file] : owner)
            held[file].push_back(slice);
        for (const auto& [index, f] : shardFile) {
            // Shard i of n runs the trials [T i / n, T (i + 1) / n) (core/lab/TrialRunner.h).
            const long begin = runTrials * index / count, end = runTrials * (index + 1) / count;
            const std::vector<long>& mine = held[f];
            if (static_cast<long>(mine.size()) != end - begin || mine.front() != begin ||
                mine.back() != end - 1)
                throw std::invalid_argument(
                    inputs[f].name + " (shard " + std::to_string(index + 1) + "/" +
                    std::to_string(count) + " of " + std::to_string(runTrials) + " " + columnName +
                    "s) holds " + columnName + "s " + rangeText(mine.front(), mine.back()) +
                    ", its slice is " + rangeText(begin, end - 1) + " (cut short or interrupted?)");
        }
        slices = runTrials;
    } else {
        long expected = 0;
        for (const auto& [slice, file] : owner) {
            if (slice != expected)
                throw std::invalid_argument(
                    columnName + (slice - expected > 1 ? "s " : " ") + std::to_string(expected) +
                    (slice - expected > 1 ? "-" + std::to_string(slice - 1) + " are" : " is") +
                    " in none of the inputs: a shard is missing");
            expected = slice + 1;
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Row& a, const Row& b) { return a.slice < b.slice; });

    // Each trial repeats the run's settings and checkpoints: every trial must match the first.
    std::vector<std::size_t> keys;
    const std::string base = sharded ? withoutLastCells(header, 2) : header;
    for (const std::string& name : agreeingColumns(base))
        keys.push_back(
            static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin()));
    if (!keys.empty()) {
        std::map<long, std::vector<const Row*>> byTrial;
        for (const Row& r : rows)
            byTrial[r.slice].push_back(&r);
        const auto& [firstTrial, first] = *byTrial.begin();
        for (const auto& [trial, mine] : byTrial) {
            const std::string what = inputs[mine.front()->file].name + " " + columnName + " " +
                                     std::to_string(trial) + " against " +
                                     inputs[first.front()->file].name + " " + columnName + " " +
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
                        throw std::invalid_argument(
                            "shards of different runs: " + what + ": column " + names[k] + " is '" +
                            mine[i]->cells[k] + "' against '" + first[i]->cells[k] + "'");
        }
    }

    std::string out = base + "\n";
    for (const Row& r : rows)
        out.append(sharded ? withoutLastCells(r.line, 2) : r.line).append(1, '\n');
    if (summary)
        *summary = {columnName, static_cast<int>(inputs.size()), static_cast<int>(slices),
                    static_cast<long>(rows.size())};
    return out;
}

} // namespace fa::io
