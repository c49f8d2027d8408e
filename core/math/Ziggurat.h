#pragma once
// The ziggurat normal of core/math/Rng.h (Marsaglia & Tsang 2000, 128 layers) in pieces that
// Rng::normal() and the block Rng::fillNormal share, so both give the same numbers from the same
// xoshiro256++ stream. A draw takes one 64-bit number: its low 7 bits pick the layer, its high 53
// bits a u in [-1, 1), and x = u x[layer] is kept if |x| < x[layer + 1] (about 99 % of draws);
// otherwise slowPath goes on with the stream's next numbers (the wedge test or the tail).
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

namespace fa::zig {

constexpr int kLayers = 128;
constexpr double kR = 3.442619855899;      // start of the tail for 128 layers
constexpr double kV = 9.91256303526217e-3; // area of each strip

inline double density(double x) {
    return std::exp(-0.5 * x * x);
}

/// Strip i covers |x| < x[i] for f between f(x[i]) and f(x[i + 1]) (f(x) = exp(-x^2 / 2), 128
/// strips of equal area V); strip 0 is the base with the tail beyond r = x[1].
struct Tables {
    std::array<double, kLayers + 1> x{}, f{};
    Tables();
};
const Tables& tables();

inline std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

/// xoshiro256++ (Blackman & Vigna) with its state in locals, so a loop keeps it in registers.
struct Xoshiro {
    std::uint64_t s0, s1, s2, s3;
    std::uint64_t next() {
        const std::uint64_t result = rotl(s0 + s3, 23) + s0;
        const std::uint64_t t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = rotl(s3, 45);
        return result;
    }
};

inline int layerOf(std::uint64_t bits) {
    return static_cast<int>(bits & (kLayers - 1)); // low 7 bits
}

/// (bits >> 11) 2^-52 - 1 in [-1, 1), computed without a 64-bit integer conversion (which a
/// vector unit below AVX-512 lacks): the low 52 of the 53 bits fill the mantissa of 1.m in
/// [1, 2), and the top bit says whether to subtract 1 or 2. Both subtractions are exact
/// (Sterbenz), so the value is bitwise that of the conversion.
inline double signedUnit(std::uint64_t bits) {
    const std::uint64_t mantissa = (bits >> 11) & 0x000F'FFFF'FFFF'FFFFull;
    const double oneM = std::bit_cast<double>(0x3FF0'0000'0000'0000ull | mantissa);
    // 2.0 or, with the top bit set, 1.0, chosen in the exponent field without a branch (a
    // branch on a random bit is mispredicted every other draw).
    const double whole = std::bit_cast<double>(0x4000'0000'0000'0000ull - ((bits >> 63) << 52));
    return oneM - whole;
}

/// The rest of a draw whose first try x (from bits, in layer) fell outside the rectangle;
/// next() returns the stream's following 64-bit numbers.
template <class Next>
double slowPath(Next& next, std::uint64_t bits, int layer, double x, const Tables& t) {
    auto uniform = [&next] { return static_cast<double>(next() >> 11) * 0x1.0p-53; };
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
        bits = next();
        layer = layerOf(bits);
        x = signedUnit(bits) * t.x[layer];
        if (std::abs(x) < t.x[layer + 1])
            return x;
    }
}

} // namespace fa::zig

namespace fa::zig {

/// The first tries of m draws, one per number: out[i] = u_i x[layer_i] (the value normal() keeps
/// when it lies inside), and outside[i] = 1 where it does not. Vectorised
/// (core/math/ZigguratBlock.cpp); bitwise the scalar arithmetic of normal().
void tryBlock(const std::uint64_t* bits, int m, const Tables& t, double* out,
              std::uint8_t* outside);

/// The vector width tryBlock was compiled for: "avx512" (8 lanes), "avx2" / "avx" (4) or "sse2".
const char* tryBlockPath();

} // namespace fa::zig
