#include "app/cli/ProgressLine.h"

#include <unistd.h>
#include <utility>

namespace fa::cli {

ProgressLine::ProgressLine(std::string command, std::string slice, bool keepsFinished)
    : m_command(std::move(command)), m_slice(std::move(slice)), m_keepsFinished(keepsFinished),
      m_tty(::isatty(STDERR_FILENO) != 0), m_last(std::chrono::steady_clock::now()) {}

bool ProgressLine::due() {
    const auto now = std::chrono::steady_clock::now();
    const auto interval = m_tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
    if (now - m_last < interval)
        return false;
    m_last = now;
    return true;
}

void ProgressLine::show(int index, int count, const char* detail) {
    std::fprintf(stderr, m_tty ? "\r%s: %s %d/%d, %s%s%s%s\033[K" : "%s: %s %d/%d, %s%s%s%s\n",
                 m_command.c_str(), m_slice.c_str(), index + 1, count, detail,
                 m_keepsFinished ? " (Ctrl-C stops and keeps the finished " : "",
                 m_keepsFinished ? m_slice.c_str() : "", m_keepsFinished ? "s)" : "");
    m_shown = true;
}

void ProgressLine::finish() {
    if (m_shown && m_tty)
        std::fprintf(stderr, "\r\033[K");
}

} // namespace fa::cli
