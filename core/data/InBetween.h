#pragma once
// The 1-D "in-between" regression set (docs/maths/neural.md §6, after Foong, Li,
// Hernández-Lobato and Turner 2019; the recipe is this project's): two clusters of 50 inputs
// with a gap between them, y = sin(3x) + x/2 + 0.1 eps. A good predictive is as sure as the
// noise inside the clusters and clearly less sure in the gap; over-confident methods are not.
// Its noise comes from SplitMix64 and Box-Muller written out here, so any program can rebuild
// the same 100 rows bit for bit.
#include "core/data/RegressionData.h"
#include "core/math/Types.h"

#include <cstdint>

namespace fa {

/// SplitMix64 (Steele, Lea and Flood 2014): the state advances by 0x9E3779B97F4A7C15 and each
/// output is its finaliser.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();

  private:
    std::uint64_t m_state;
};

inline constexpr std::uint64_t kInBetweenSeed = 2019;
/// Its name as a data set (the neural lab's, the CLI's --dataset).
inline constexpr const char* kInBetweenName = "in-between";
inline constexpr int kInBetweenRows = 100;

/// The standard normals of the noise: for each, two outputs r1, r2 give u1 = ((r1 >> 11) + 1)
/// 2^-53 in (0, 1] and u2 = (r2 >> 11) 2^-53 in [0, 1), and eps = sqrt(-2 ln u1) cos(2 pi u2).
Vector inBetweenNoise(int count, std::uint64_t seed = kInBetweenSeed);

/// The 100 rows: X one column (inputs -1.5 + 0.8 (i + 1/2) / 50 and 0.7 + 0.8 (i + 1/2) / 50,
/// i = 0..49), y their targets.
RegressionData inBetweenData();

/// The test grid: 201 equally spaced inputs on [-2.5, 2.5], as a column.
Matrix inBetweenGrid();

} // namespace fa
