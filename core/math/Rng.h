#pragma once
// Seeded random numbers: xoshiro256++ uniforms and ziggurat normals (Marsaglia & Tsang, 128
// layers). We do not use <random> distributions because their output differs between standard
// libraries; a given seed gives the same numbers with any compiler.
#include "core/math/Types.h"

#include <vector>

namespace fa {

/// Mixes (seed, stream) into an independent seed, so trials and algorithms get their own streams.
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream);

class Rng;
/// Fisher-Yates shuffle of row indices with our Rng (so a seed gives the same order everywhere).
void shuffle(std::vector<Eigen::Index>& order, Rng& rng);

class Rng {
  public:
    explicit Rng(std::uint64_t seed);

    std::uint64_t nextU64();
    /// Uniform on [0, 1) with 53 random bits.
    double uniform();
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Standard normal: about 99% of draws cost one 64-bit number, a multiply and a compare.
    double normal();
    void fillNormal(Eigen::Ref<Vector> out);
    /// Gamma(shape, 1) for shape > 0 (Marsaglia and Tsang 2000, with U^(1/a) boosting below 1);
    /// an inverse-gamma IG(a, b) draw is b / gamma(a).
    double gamma(double shape);
    Matrix normalMatrix(Eigen::Index rows, Eigen::Index cols);

  private:
    double normalSlowPath(std::uint64_t bits, int layer, double x);
    std::uint64_t m_s[4];
};

} // namespace fa
