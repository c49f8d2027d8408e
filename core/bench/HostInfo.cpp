#include "core/bench/HostInfo.h"

#include "core/math/ForkJoin.h"
#include "core/math/Ziggurat.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

namespace fa {
namespace {
using Clock = std::chrono::steady_clock;

/// The first value of `key` in /proc/cpuinfo ("model name", "cpu family", "model"), its key
/// matched whole; "" where there is none.
std::string cpuinfo(const std::string& key) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string name = line.substr(0, colon);
        name.erase(name.find_last_not_of(" \t") + 1);
        if (name != key)
            continue;
        std::string value = line.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        return value;
    }
    return "";
}

std::string cpuModelName() {
    std::string name = cpuinfo("model name");
    // The name goes into a CSV cell: no separators or quotes in it.
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == ',' || c == '"'; }, ' ');
    return name.empty() ? "unknown" : name;
}

int cpuNumber(const std::string& key) {
    const std::string value = cpuinfo(key);
    int n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    return error == std::errc() && end == value.data() + value.size() ? n : 0;
}

int bitsOf(const std::string& path) {
    return path == "avx512" ? 512 : path == "sse2" ? 128 : 256;
}

void triadRange(double* a, const double* b, const double* c, double s, long first, long end) {
    double* __restrict pa = a;
    const double* __restrict pb = b;
    const double* __restrict pc = c;
    for (long i = first; i < end; ++i)
        pa[i] = pb[i] + s * pc[i];
}
} // namespace

HostInfo hostInfo() {
    HostInfo h;
    h.cpuModel = cpuModelName();
    h.cpuFamily = cpuNumber("cpu family");
    h.cpuModelNumber = cpuNumber("model");
    h.cores = std::thread::hardware_concurrency();
#if defined(__AVX512F__)
    h.buildVectorBits = 512;
#elif defined(__AVX__)
    h.buildVectorBits = 256;
#else
    h.buildVectorBits = 128;
#endif
#if defined(FAEXPLORER_AVX512_PASSES) // core/CMakeLists.txt: the pass compiled with AVX-512
    h.streamPassBits = 512;
#else
    h.streamPassBits = h.buildVectorBits;
#endif
    h.normalPath = zig::tryBlockPath();
    h.normalVectorBits = bitsOf(h.normalPath);
    return h;
}

double triadBandwidth(long n, double minSeconds, int threads) {
    std::vector<double> a(static_cast<std::size_t>(n), 0.0), b(static_cast<std::size_t>(n), 1.0),
        c(static_cast<std::size_t>(n), 2.0);
    std::unique_ptr<ForkJoin> fj;
    if (threads > 1)
        fj = std::make_unique<ForkJoin>();
    const long half = n / 2;
    double best = 0.0, s = 0.5;
    const auto t0 = Clock::now();
    auto since = [](Clock::time_point t) {
        return std::chrono::duration<double>(Clock::now() - t).count();
    };
    for (int sweep = 0; sweep < 3 || since(t0) < minSeconds; ++sweep) {
        const auto t1 = Clock::now();
        if (fj)
            fj->run([&] { triadRange(a.data(), b.data(), c.data(), s, 0, half); },
                    [&] { triadRange(a.data(), b.data(), c.data(), s, half, n); });
        else
            triadRange(a.data(), b.data(), c.data(), s, 0, n);
        const double seconds = since(t1);
        best = std::max(best, 24.0 * static_cast<double>(n) / seconds / 1e9);
        s = a[static_cast<std::size_t>(n / 2)] > 1e300 ? 0.5 : s * 0.999; // no folded sweeps
    }
    return best;
}

} // namespace fa
