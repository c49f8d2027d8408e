#include "core/optim/Adam.h"

#include <cmath>

namespace fa {

namespace {
constexpr double kB1 = 0.9, kB2 = 0.999, kEps = 1e-8;

/// a b + c rounded as the compiler rounds the same expression in Eigen's packets: fused where
/// the build has FMA (GCC contracts a product feeding a sum there), else two roundings.
inline double mulAdd(double a, double b, double c) {
#ifdef __FMA__
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}
} // namespace

// One pass over the parameters (docs/benchmarks.md, "Where the VAE's time goes"): the three
// Eigen statements
//   m = β₁ m + (1 − β₁) g;  v = β₂ v + (1 − β₂) g²;  θ −= lr (m / c₁) / (√(v / c₂) + ε)
// read and wrote θ, g, m and v three times; here each entry is read once and written once, with
// the same roundings: β₁ m + (1 − β₁) g is computed as fma((1 − β₁), g, β₁ m), the contraction
// GCC makes of the Eigen statement with FMA (tests/core/test_vae_speed.cpp checks bitwise
// equality with the three statements), and division and square root are correctly rounded in
// packets and scalars alike.
void optimiserStep(OptimiserKind kind, Eigen::Ref<Vector> param, const ConstVectorRef& grad,
                   AdamMoments moments, double lr, long t) {
    if (kind == OptimiserKind::Sgd) {
        param -= lr * grad;
        return;
    }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes" // the packet type as a template argument
    using namespace Eigen::internal;
    using P = packet_traits<double>::type;
    constexpr Eigen::Index w = packet_traits<double>::size;
    auto& [m, v] = moments;
    const double c1 = 1.0 - std::pow(kB1, double(t)), c2 = 1.0 - std::pow(kB2, double(t));
    double* p = param.data();
    const double* g = grad.data();
    double* pm = m.data();
    double* pv = v.data();
    const Eigen::Index n = param.size();
    const P b1 = pset1<P>(kB1), a1 = pset1<P>(1.0 - kB1), b2 = pset1<P>(kB2),
            a2 = pset1<P>(1.0 - kB2), pc1 = pset1<P>(c1), pc2 = pset1<P>(c2), plr = pset1<P>(lr),
            peps = pset1<P>(kEps);
    Eigen::Index i = 0;
    for (; i + w <= n; i += w) {
        const P gi = ploadu<P>(g + i);
        const P mi = pmadd(a1, gi, pmul(b1, ploadu<P>(pm + i)));
        const P vi = pmadd(a2, pmul(gi, gi), pmul(b2, ploadu<P>(pv + i)));
        pstoreu(pm + i, mi);
        pstoreu(pv + i, vi);
        const P step = pdiv(pmul(plr, pdiv(mi, pc1)), padd(psqrt(pdiv(vi, pc2)), peps));
        pstoreu(p + i, psub(ploadu<P>(p + i), step));
    }
    for (; i < n; ++i) {
        const double gi = g[i];
        const double mi = mulAdd(1.0 - kB1, gi, kB1 * pm[i]);
        const double vi = mulAdd(1.0 - kB2, gi * gi, kB2 * pv[i]);
        pm[i] = mi;
        pv[i] = vi;
        p[i] -= (lr * (mi / c1)) / (std::sqrt(vi / c2) + kEps);
    }
#pragma GCC diagnostic pop
}

} // namespace fa
