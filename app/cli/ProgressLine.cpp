#include "app/cli/ProgressLine.h"

#include <cstdio>
#include <unistd.h>

namespace fa::cli {

ProgressLine::ProgressLine()
    : m_tty(::isatty(STDERR_FILENO) != 0), m_last(std::chrono::steady_clock::now()) {}

void ProgressLine::update(const std::string& text) {
    const auto now = std::chrono::steady_clock::now();
    const auto interval = m_tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
    if (now - m_last < interval)
        return;
    m_last = now;
    std::fprintf(stderr, m_tty ? "\r%s\033[K" : "%s\n", text.c_str());
    m_shown = true;
}

void ProgressLine::finish() {
    if (m_shown && m_tty)
        std::fprintf(stderr, "\r\033[K");
}

} // namespace fa::cli
