#include "core/math/Rng.h"

#include <array>
#include <cmath>

namespace fa {
namespace {
std::uint64_t splitMix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

/// Ziggurat for the unnormalised density f(x) = exp(-x^2 / 2): 128 strips of equal area V;
/// strip i covers |x| < x[i] for f between f(x[i]) and f(x[i + 1]); strip 0 is the base with
/// the tail beyond r = x[1].
constexpr int kLayers = 128;
constexpr double kR = 3.442619855899;      // start of the tail for 128 layers
constexpr double kV = 9.91256303526217e-3; // area of each strip
double density(double x) {
    return std::exp(-0.5 * x * x);
}

struct ZigguratTables {
    std::array<double, kLayers + 1> x{}, f{};
    ZigguratTables() {
        x[0] = kV / density(kR);
        x[1] = kR;
        for (int i = 1; i < kLayers - 1; ++i)
            x[i + 1] = std::sqrt(-2.0 * std::log(kV / x[i] + density(x[i])));
        x[kLayers] = 0.0;
        for (int i = 0; i <= kLayers; ++i)
            f[i] = density(x[i]);
    }
};
const ZigguratTables& tables() {
    static const ZigguratTables t;
    return t;
}
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
    tables(); // build once, outside any timed loop
}

std::uint64_t Rng::nextU64() {
    const std::uint64_t result = rotl(m_s[0] + m_s[3], 23) + m_s[0];
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

double Rng::uniform() {
    return static_cast<double>(nextU64() >> 11) * 0x1.0p-53;
}

double Rng::normal() {
    const auto& t = tables();
    const std::uint64_t bits = nextU64();
    const int layer = static_cast<int>(bits & (kLayers - 1));           // low 7 bits
    const double u = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0; // high 53 bits, [-1, 1)
    const double x = u * t.x[layer];
    if (std::abs(x) < t.x[layer + 1])
        return x; // inside the strip's rectangle that lies wholly under the density
    return normalSlowPath(bits, layer, x);
}

double Rng::normalSlowPath(std::uint64_t bits, int layer, double x) {
    const auto& t = tables();
    for (;;) {
        if (layer == 0) { // the tail beyond r (Marsaglia 1964)
            double a, b;
            do {
                a = -std::log(1.0 - uniform()) / kR;
                b = -std::log(1.0 - uniform());
            } while (2.0 * b < a * a);
            return x < 0.0 ? -(kR + a) : kR + a;
        }
        if (t.f[layer] + uniform() * (t.f[layer + 1] - t.f[layer]) < density(x))
            return x; // under the curve in the wedge
        bits = nextU64();
        layer = static_cast<int>(bits & (kLayers - 1));
        x = (static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0) * t.x[layer];
        if (std::abs(x) < t.x[layer + 1])
            return x;
    }
}

void Rng::fillNormal(Eigen::Ref<Vector> out) {
    for (Eigen::Index i = 0; i < out.size(); ++i)
        out[i] = normal();
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
