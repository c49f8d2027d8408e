#include "core/math/Ziggurat.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace fa::zig {
namespace {

// kLanes draws at a time in GCC/Clang vector types (as core/fa/StreamPass.cpp does: no
// intrinsics headers): 8 with AVX-512 (this file is compiled with it where the machine has it,
// core/CMakeLists.txt), 4 with AVX, else the 2 of SSE2. Every operation is exact or one IEEE
// multiply, so each lane is bitwise the scalar normal()'s value.
#if defined(__AVX512F__)
constexpr int kLanes = 8;
#elif defined(__AVX__)
constexpr int kLanes = 4;
#else
constexpr int kLanes = 2;
#endif
using Vu = std::uint64_t __attribute__((vector_size(kLanes * sizeof(std::uint64_t))));
using Vd = double __attribute__((vector_size(kLanes * sizeof(double))));
using Vi = long long __attribute__((vector_size(kLanes * sizeof(long long))));

/// signedUnit (core/math/Ziggurat.h) in every lane.
Vd signedUnits(Vu b) {
    const Vu mantissa = ((b >> 11) & 0x000F'FFFF'FFFF'FFFFull) | 0x3FF0'0000'0000'0000ull;
    const Vu whole = 0x4000'0000'0000'0000ull - ((b >> 63) << 52);
    return std::bit_cast<Vd>(mantissa) - std::bit_cast<Vd>(whole);
}

void tryOne(std::uint64_t b, const Tables& t, double* out, std::uint8_t* outside) {
    const int layer = layerOf(b);
    const double x = signedUnit(b) * t.x[layer];
    *out = x;
    *outside = static_cast<std::uint8_t>(!(std::abs(x) < t.x[layer + 1]));
}

} // namespace

void tryBlock(const std::uint64_t* bits, int m, const Tables& t, double* out,
              std::uint8_t* outside) {
    int i = 0;
    for (; i + kLanes <= m; i += kLanes) {
        Vu b;
        std::memcpy(&b, bits + i, sizeof b);
        Vd wide, inner; // x[layer] and x[layer + 1] of each lane
        for (int k = 0; k < kLanes; ++k) {
            const int layer = layerOf(b[k]);
            wide[k] = t.x[layer];
            inner[k] = t.x[layer + 1];
        }
        const Vd x = signedUnits(b) * wide;
        std::memcpy(out + i, &x, sizeof x);
        const Vu magnitude = std::bit_cast<Vu>(x) & 0x7FFF'FFFF'FFFF'FFFFull;
        const Vi in = std::bit_cast<Vd>(magnitude) < inner;
        for (int k = 0; k < kLanes; ++k)
            outside[i + k] = static_cast<std::uint8_t>(in[k] == 0);
    }
    for (; i < m; ++i)
        tryOne(bits[i], t, out + i, outside + i);
}

const char* tryBlockPath() {
#if defined(__AVX512F__)
    return "avx512";
#elif defined(__AVX2__)
    return "avx2";
#elif defined(__AVX__)
    return "avx";
#else
    return "sse2";
#endif
}

} // namespace fa::zig
