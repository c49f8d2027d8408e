#include "app/cli/ExperimentRunner.h"

#include <csignal>
#include <stdexcept>

namespace fa::cli {
namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void onInterrupt(int) {
    g_interrupted = true; // lock-free store only
}
} // namespace

void requireOutput(const ArgParser& args) {
    if (!args.has("out"))
        throw std::invalid_argument("--out FILE.csv is required");
}

InterruptScope::InterruptScope(bool on) : m_on(on) {
    if (!m_on)
        return;
    g_interrupted = false;
    m_previous = std::signal(SIGINT, onInterrupt);
}

InterruptScope::~InterruptScope() {
    if (m_on)
        std::signal(SIGINT, m_previous);
}

const std::atomic<bool>* InterruptScope::flag() const {
    return m_on ? &g_interrupted : nullptr;
}

bool InterruptScope::raised() const {
    return m_on && g_interrupted.load();
}

} // namespace fa::cli
