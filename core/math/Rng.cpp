#include "core/math/Rng.h"

#include "core/math/Ziggurat.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace fa {
namespace zig {
Tables::Tables() {
    x[0] = kV / density(kR);
    x[1] = kR;
    for (int i = 1; i < kLayers - 1; ++i)
        x[i + 1] = std::sqrt(-2.0 * std::log(kV / x[i] + density(x[i])));
    x[kLayers] = 0.0;
    for (int i = 0; i <= kLayers; ++i)
        f[i] = density(x[i]);
}
const Tables& tables() {
    static const Tables t;
    return t;
}
} // namespace zig

namespace {
std::uint64_t splitMix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// Numbers drawn ahead in a block of fillNormal: a slow path goes on with the ones after its
/// own first try, then with the generator's.
struct BlockStream {
    const std::uint64_t* bits;
    int at, end;
    zig::Xoshiro rest; ///< a copy, so the generator's own state is never addressed
    std::uint64_t operator()() { return at < end ? bits[at++] : rest.next(); }
};

[[gnu::noinline]] double slowFromBlock(BlockStream& stream, std::uint64_t bits, double x,
                                       const zig::Tables& t) {
    return zig::slowPath(stream, bits, zig::layerOf(bits), x, t);
}

constexpr int kBlock = 256; // numbers drawn ahead at a time (2 KiB)
} // namespace

std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream) {
    std::uint64_t x = seed ^ (0xD1B54A32D192ED03ull * (stream + 1));
    splitMix64(x);
    return splitMix64(x);
}

Rng::Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& s : m_s)
        s = splitMix64(x);
    zig::tables(); // build once, outside any timed loop
}

std::uint64_t Rng::nextU64() {
    zig::Xoshiro g{m_s[0], m_s[1], m_s[2], m_s[3]};
    const std::uint64_t result = g.next();
    m_s[0] = g.s0;
    m_s[1] = g.s1;
    m_s[2] = g.s2;
    m_s[3] = g.s3;
    return result;
}

double Rng::uniform() {
    return static_cast<double>(nextU64() >> 11) * 0x1.0p-53;
}

double Rng::normal() {
    const auto& t = zig::tables();
    const std::uint64_t bits = nextU64();
    const int layer = zig::layerOf(bits);
    const double u = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0; // = zig::signedUnit
    const double x = u * t.x[layer];
    if (std::abs(x) < t.x[layer + 1])
        return x; // inside the strip's rectangle that lies wholly under the density
    return normalSlowPath(bits, layer, x);
}

double Rng::normalSlowPath(std::uint64_t bits, int layer, double x) {
    auto next = [this] { return nextU64(); };
    return zig::slowPath(next, bits, layer, x, zig::tables());
}

// The numbers of n calls of normal(): a block of numbers is drawn ahead with the state in
// registers and every first try made from them at once (zig::tryBlock); the tries inside their
// rectangle (about 79 in 80) are the draws, moved up in runs, and at each one outside a slow
// path goes on with the numbers after it. Each draw consumes at least one number, so a block of
// m <= n - done numbers is used up before the n draws are done, and the state ends where
// normal()'s would.
void Rng::fillNormal(Eigen::Ref<Vector> to) {
    double* out = to.data();
    const Eigen::Index n = to.size();
    const zig::Tables& t = zig::tables();
    zig::Xoshiro g{m_s[0], m_s[1], m_s[2], m_s[3]};
    std::uint64_t bits[kBlock];
    std::uint8_t outside[kBlock];
    Eigen::Index done = 0;
    while (done < n) {
        const int m = static_cast<int>(std::min<Eigen::Index>(n - done, kBlock));
        for (int i = 0; i < m; ++i)
            bits[i] = g.next();
        double* tries = out + done; // each draw is written at or before its first try's place
        zig::tryBlock(bits, m, t, tries, outside);
        BlockStream stream{bits, 0, m, g};
        Eigen::Index w = done;
        while (stream.at < m) {
            const void* hit =
                std::memchr(outside + stream.at, 1, static_cast<std::size_t>(m - stream.at));
            const int stop =
                hit ? static_cast<int>(static_cast<const std::uint8_t*>(hit) - outside) : m;
            if (w != done + stream.at) // a run of tries inside, moved up over the extra numbers
                std::memmove(out + w, tries + stream.at,
                             sizeof(double) * static_cast<std::size_t>(stop - stream.at));
            w += stop - stream.at;
            stream.at = stop;
            if (stop < m) {
                const std::uint64_t b = bits[stream.at];
                const double x = tries[stream.at++];
                out[w++] = slowFromBlock(stream, b, x, t);
            }
        }
        g = stream.rest;
        done = w;
    }
    m_s[0] = g.s0;
    m_s[1] = g.s1;
    m_s[2] = g.s2;
    m_s[3] = g.s3;
}

double Rng::gamma(double shape) {
    if (shape < 1.0) {                    // Gamma(a) = Gamma(a + 1) U^(1/a)
        const double u = 1.0 - uniform(); // in (0, 1]
        return gamma(shape + 1.0) * std::pow(u, 1.0 / shape);
    }
    // Marsaglia and Tsang: d (1 + c x)^3 with x normal, accepted by a squeeze or the log test.
    const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0.0, v = 0.0;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = uniform();
        if (u < 1.0 - 0.0331 * x * x * x * x)
            return d * v;
        if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return d * v;
    }
}

Matrix Rng::normalMatrix(Eigen::Index rows, Eigen::Index cols) {
    Matrix m(rows, cols);
    for (Eigen::Index j = 0; j < cols; ++j)
        for (Eigen::Index i = 0; i < rows; ++i)
            m(i, j) = normal();
    return m;
}

void shuffle(std::vector<Eigen::Index>& order, Rng& rng) {
    for (std::size_t i = order.size(); i > 1; --i) {
        const auto j = static_cast<std::size_t>(rng.nextU64() % static_cast<std::uint64_t>(i));
        std::swap(order[i - 1], order[j]);
    }
}

} // namespace fa
