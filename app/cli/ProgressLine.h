#pragma once
// The experiment commands' progress line on standard error: rewritten in place on a terminal
// (at most every 200 ms), a line every 5 s when redirected; cleared by finish(). Its words are
// the runner's (app/cli/ExperimentRunner.h), so every command says them alike.
#include <chrono>
#include <cstdio>
#include <string>

namespace fa::cli {

class ProgressLine {
  public:
    /// command: the line's first word; slice: "trial" or "split"; keepsFinished: the line says
    /// that Ctrl-C stops and keeps the finished slices.
    ProgressLine(std::string command, std::string slice, bool keepsFinished);
    /// "COMMAND: SLICE i/n, DETAIL" (index from 0), with the Ctrl-C note where it applies; the
    /// detail is a printf format and its arguments, formatted only when the line is shown.
    template <class... Args> void report(int index, int count, const char* format, Args... args) {
        if (!due())
            return;
        char detail[200];
        std::snprintf(detail, sizeof detail, format, args...);
        show(index, count, detail);
    }
    void finish();

  private:
    bool due(); ///< the interval since the last line has passed (and restarts it)
    void show(int index, int count, const char* detail);

    std::string m_command, m_slice;
    bool m_keepsFinished;
    bool m_tty;
    bool m_shown = false;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace fa::cli
