#include "core/data/InBetween.h"

#include <cmath>
#include <numbers>

namespace fa {

std::uint64_t SplitMix64::next() {
    m_state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = m_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

Vector inBetweenNoise(int count, std::uint64_t seed) {
    SplitMix64 gen(seed);
    constexpr double kUnit = 0x1.0p-53;
    Vector eps(count);
    for (int i = 0; i < count; ++i) {
        const double u1 = static_cast<double>((gen.next() >> 11) + 1) * kUnit;
        const double u2 = static_cast<double>(gen.next() >> 11) * kUnit;
        eps(i) = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
    return eps;
}

RegressionData inBetweenData() {
    // Built whole (GCC 12 at -O3 warns, wrongly, on assigning a literal to a member string).
    RegressionData d{Matrix(kInBetweenRows, 1), Vector(kInBetweenRows), {"x"}, "y", "in-between"};
    const Vector eps = inBetweenNoise(kInBetweenRows);
    for (int i = 0; i < kInBetweenRows; ++i) {
        const int k = i % 50;
        const double x = (i < 50 ? -1.5 : 0.7) + 0.8 * (k + 0.5) / 50.0;
        d.X(i, 0) = x;
        d.y(i) = std::sin(3.0 * x) + 0.5 * x + 0.1 * eps(i);
    }
    return d;
}

Matrix inBetweenGrid() {
    Matrix grid(201, 1);
    for (int i = 0; i < 201; ++i)
        grid(i, 0) = -2.5 + 5.0 * i / 200.0;
    return grid;
}

} // namespace fa
