#pragma once
// Generated models and sample matrices shared by the test suites.
#include "core/fa/ModelGenerator.h"

namespace fa::test {

inline FAModel makeModel(int D, int K, std::uint64_t seed, double spectrumHi = 10.0,
                         GeneratorKind kind = GeneratorKind::Exact) {
    GeneratorSpec s;
    s.dim = D;
    s.latent = K;
    s.spectrumHi = spectrumHi;
    s.kind = kind;
    return generateModel(s, seed);
}

/// n samples of m, one per column.
inline Matrix drawSamples(const FAModel& m, int n, std::uint64_t seed) {
    FASampler sampler(m);
    Rng r(seed);
    Matrix X(m.dim(), n);
    for (int j = 0; j < n; ++j)
        sampler.draw(r, X.col(j));
    return X;
}

/// n samples of m, one per row (the latent-variable lab's layout).
inline Matrix drawRows(const FAModel& m, int n, std::uint64_t seed) {
    return drawSamples(m, n, seed).transpose();
}

} // namespace fa::test
