#pragma once
// A throttled progress line on stderr: rewritten in place on a terminal, one line every few
// seconds when stderr is a file or pipe.
#include <chrono>
#include <string>

namespace fa::cli {

class ProgressLine {
  public:
    ProgressLine();
    void update(const std::string& text);
    void finish();

  private:
    bool m_tty;
    bool m_shown = false;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace fa::cli
