#pragma once
// The most one run's data or network may take in memory, checked before anything is allocated
// (README: a model or sample store over 4 GB is refused with one line and exit 2, not found out
// by the system's out-of-memory killer many gigabytes later).
#include <cstdio>
#include <stdexcept>

namespace fa {

inline constexpr double kMaxRunBytes = 4.0 * 1024 * 1024 * 1024;

/// Throws std::invalid_argument ("WHAT would take 16.0 GB in memory (at most 4 GB): FIX") when
/// `bytes` exceeds kMaxRunBytes.
inline void checkRunBytes(double bytes, const char* what, const char* fix) {
    if (!(bytes > kMaxRunBytes))
        return;
    char text[320];
    std::snprintf(text, sizeof text, "%s would take %.1f GB in memory (at most %.0f GB): %s", what,
                  bytes / 1e9, kMaxRunBytes / 1e9, fix);
    throw std::invalid_argument(text);
}

} // namespace fa
