#pragma once
// What every experiment command does around its run, written once (issue 26 item 3): --out is
// required and opened before the run (an unwritable one is refused at once), a throttled
// progress line, Ctrl-C that keeps the finished trials where the run can drop an unfinished one,
// the CSV written atomically with the shard columns (outputCsv), then the summary. A command
// parses its options, checks its data and shapes (so that bad input is named before the output
// exists), and hands the runner its run, its CSV writer and its summary.
#include "app/cli/ArgParser.h"
#include "app/cli/ProgressLine.h"
#include "core/io/AtomicFile.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

namespace fa::cli {

/// Throws std::invalid_argument ("--out FILE.csv is required") when --out is missing.
void requireOutput(const ArgParser& args);

/// Ctrl-C raises a flag while this lives (the previous handler comes back after); not
/// installed when `on` is false, so that Ctrl-C ends the program as before.
class InterruptScope {
  public:
    explicit InterruptScope(bool on);
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
    /// The flag for the run's cancel argument (null when not installed).
    const std::atomic<bool>* flag() const;
    bool raised() const;

  private:
    bool m_on;
    void (*m_previous)(int) = nullptr;
};

struct ExperimentSteps {
    std::string command;         ///< "latent": the messages' first word
    const char* slice = "trial"; ///< what the run is sliced into: "trial" or "split"
    int slices = 1;              ///< how many the whole run has (the shard columns)
    Shard shard;
    /// Ctrl-C stops the run and keeps its finished slices (the run drops an unfinished one).
    /// Off: Ctrl-C ends the program, and the output's temporary file is removed.
    bool keepsFinished = false;
};

/// Returns the exit code: 0, or 130 after Ctrl-C (with nothing written when no slice finished:
/// a file already at --out is worth more than a header).
template <class Rows>
int runExperiment(const ArgParser& args, const ExperimentSteps& steps,
                  const std::function<Rows(ProgressLine&, const std::atomic<bool>*)>& run,
                  const std::function<void(std::ostream&, Rows&)>& write,
                  const std::function<void(const Rows&, bool interrupted)>& summary) {
    requireOutput(args);
    const std::string path = args.text("out", "");
    Rows rows;
    bool interrupted = false;
    {
        // Ctrl-C is ours before the output's temporary exists: a SIGINT in between would end
        // the program through the temporaries' handler instead of keeping the finished slices.
        const InterruptScope interrupts(steps.keepsFinished);
        std::optional<io::AtomicFile> out;
        try { // a FIFO's wait for a reader ends at Ctrl-C too
            out.emplace(path, io::FifoReader::Wait, interrupts.flag());
        } catch (const std::invalid_argument&) {
            if (!interrupts.raised())
                throw;
            std::fprintf(stderr, "%s: interrupted while waiting for a program to read '%s'\n",
                         steps.command.c_str(), path.c_str());
            return 130;
        }
        ProgressLine progress(steps.command, steps.slice, steps.keepsFinished);
        rows = run(progress, interrupts.flag());
        progress.finish();
        interrupted = interrupts.raised();
        if (rows.empty() && interrupted) {
            std::fprintf(stderr, "%s: interrupted before any %s finished; '%s' not written\n",
                         steps.command.c_str(), steps.slice, path.c_str());
            return 130;
        }
        std::ostringstream csv;
        write(csv, rows);
        out->stream() << outputCsv(args, csv.str(), steps.shard, steps.slices);
        out->commit();
    }
    summary(rows, interrupted);
    return interrupted ? 130 : 0;
}

} // namespace fa::cli
