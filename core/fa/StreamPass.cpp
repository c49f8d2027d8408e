#include "core/fa/StreamPass.h"

#include <array>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace fa::stream {
namespace {

// Rows are processed in GCC/Clang vector types, kLanes at a time (AVX-512: 8 doubles, AVX: 4,
// else 2, the SSE2 every x86-64 has); the rows left over run the same templates 4 at a time
// (after 8) and then on plain doubles.
#if defined(__AVX512F__)
constexpr int kLanes = 8;
using Vd = double __attribute__((vector_size(8 * sizeof(double))));
using V4 = double __attribute__((vector_size(4 * sizeof(double))));
#elif defined(__AVX__)
constexpr int kLanes = 4;
using Vd = double __attribute__((vector_size(4 * sizeof(double))));
using V4 = Vd;
#else
constexpr int kLanes = 2;
using Vd = double __attribute__((vector_size(2 * sizeof(double))));
using V4 = Vd;
#endif

/// K up to this is compiled with K fixed, so a row's K entries stay in registers.
constexpr int kFixedK = 16;

template <class V> constexpr int kLanesOf = static_cast<int>(sizeof(V) / sizeof(double));

template <class V> V load(const double* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V> void store(double* p, V v) {
    std::memcpy(p, &v, sizeof v);
}
template <class V> V splat(double x) {
    if constexpr (std::is_same_v<V, double>) {
        return x;
    } else {
        V v;
        for (int i = 0; i < kLanesOf<V>; ++i)
            v[i] = x;
        return v;
    }
}
template <class V> double sum(V v) {
    if constexpr (std::is_same_v<V, double>) {
        return v;
    } else {
        double s = 0.0;
        for (int i = 0; i < kLanesOf<V>; ++i)
            s += v[i];
        return s;
    }
}
/// where(mask) ? b : a, lane by lane.
template <class V, class M> V blend(V a, V b, M mask) {
    if constexpr (std::is_same_v<V, double>) {
        return mask ? b : a;
    } else {
        return (V)(((M)a & ~mask) | ((M)b & mask));
    }
}
template <class M> long countTrue(M mask) {
    if constexpr (std::is_same_v<M, bool>) {
        return mask ? 1 : 0;
    } else {
        long n = 0;
        for (int i = 0; i < static_cast<int>(sizeof(M) / sizeof(double)); ++i)
            n -= mask[i]; // true lanes are -1
        return n;
    }
}
/// max(v, floor) lane by lane, counting the lanes raised; NaN stays NaN (it is not < floor).
template <class V> V clampBelow(V v, double floor, long& count) {
    const V f = splat<V>(floor);
    const auto below = v < f;
    count += countTrue(below);
    return blend(v, f, below);
}
/// beta where psi was not clamped, log(floor) where it was (psi == floor after clampBelow).
template <class V> V betaAfterClamp(V beta, V psi, double floor, double logFloor) {
    const V lf = splat<V>(logFloor);
    return blend(beta, lf, (psi == splat<V>(floor)) & (beta < lf));
}

/// Accumulators of the E-step sums for one lane type.
template <class V> struct Sums {
    std::vector<V> yy, yd;
    V state{}, mean{};
    void reset(int K) {
        yy.assign(static_cast<std::size_t>(K) * K, V{});
        yd.assign(static_cast<std::size_t>(K), V{});
        state = V{};
        mean = V{};
    }
};

/// Row i's share of the E-step sums: y holds F's row (as K lanes-wide values).
template <int KT, class V> inline void reduceRows(int K, const V* y, V ps, V dn, Sums<V>& s) {
    const V ip = splat<V>(1.0) / ps, ipd = dn * ip;
    for (int j = 0; j < K; ++j) {
        const V b = y[j] * ip;
        s.yd[static_cast<std::size_t>(j)] += y[j] * ipd;
        V* col = s.yy.data() + static_cast<std::size_t>(j) * K; // column j, rows j..K-1
        for (int l = j; l < K; ++l)
            col[l] += b * y[l];
    }
}

/// mean += (x - mean) / t, d = x - mean for row i; returns d.
template <class V> inline V advanceMean(double* mean, double* d, const double* x, double t, V& ms) {
    V mu = load<V>(mean);
    const V xv = load<V>(x);
    mu += (xv - mu) / splat<V>(t);
    store(mean, mu);
    ms += mu;
    const V dn = xv - mu;
    store(d, dn);
    return dn;
}

template <int KT, class V>
inline void emRows(const EmPass& p, int K, long i, V* y, Sums<V>& s, long& clamps) {
    const long D = p.dim;
    V ps;
    if (p.pending) {
        const V dd = load<V>(p.d + i);
        const V om = splat<V>(1.0 - p.w), wd = dd * p.w;
        for (int k = 0; k < K; ++k) {
            double* a = p.A + k * D + i;
            y[k] = load<V>(a) * om + wd * p.m[k];
            store(a, y[k]);
        }
        const V q2 = load<V>(p.d2 + i) * om + wd * dd;
        store(p.d2 + i, q2);
        if (!p.fixed) {
            V q{};
            for (int j = 0; j < K; ++j) {
                const double* g = p.Gs + static_cast<std::size_t>(j) * K;
                V t = y[j] * g[j];
                for (int k = 0; k < j; ++k)
                    t += y[k] * g[k];
                q += t * y[j];
                s.state += y[j];
            }
            ps = clampBelow(q2 - q, p.psiFloor, clamps);
            if (!p.x) // a streaming pass leaves its M step pending, so the next reader settles
                store(p.psi + i, ps); // again and this psi is never read: 16 bytes a row saved

            s.state += ps;
        } else {
            ps = load<V>(p.psi + i);
        }
    } else {
        ps = load<V>(p.psi + i);
        if (p.x && !p.useF0)
            for (int k = 0; k < K; ++k)
                y[k] = load<V>(p.A + k * D + i);
    }
    if (!p.x)
        return;
    const V dn = advanceMean<V>(p.mean + i, p.d + i, p.x + i, p.t, s.mean);
    if (p.useF0)
        for (int k = 0; k < K; ++k)
            y[k] = load<V>(p.F0 + k * D + i);
    reduceRows<KT, V>(K, y, ps, dn, s);
}

/// The SGA step for row i (part one: F and beta; psi = exp(beta) follows for the whole block).
template <int KT, class V> inline void sgaStepRows(const SgaPass& p, int K, long i, V* y, V* fm) {
    const long D = p.dim;
    const V dd = load<V>(p.d + i), ip = splat<V>(1.0) / load<V>(p.psi + i);
    for (int k = 0; k < K; ++k)
        y[k] = load<V>(p.F + k * D + i);
    V fmv{}, quad{};
    for (int j = 0; j < K; ++j) {
        const double* mc = p.M + static_cast<std::size_t>(j) * K;
        V t = y[0] * mc[0];
        for (int k = 1; k < K; ++k)
            t += y[k] * mc[k];
        fm[j] = t;
        fmv += y[j] * p.m[j];
        quad += t * y[j];
    }
    for (int j = 0; j < K; ++j)
        store(p.F + j * D + i, y[j] + (dd * p.m[j] - fm[j]) * ip * p.eta);
    const V gb = ((dd * dd - 2.0 * dd * fmv + quad) * ip - 1.0) * 0.5;
    store(p.beta + i, load<V>(p.beta + i) + gb * p.eta);
}

/// Part two for row i: clamp psi, then the E-step sums of the next observation.
template <int KT, class V>
inline void sgaReduceRows(const SgaPass& p, int K, long i, V* y, Sums<V>& s, long& clamps) {
    const long D = p.dim;
    V ps = load<V>(p.psi + i);
    if (p.pending) {
        ps = clampBelow(ps, p.psiFloor, clamps);
        store(p.psi + i, ps);
        store(p.beta + i, betaAfterClamp(load<V>(p.beta + i), ps, p.psiFloor, p.logPsiFloor));
        s.state += ps;
    }
    if (p.pending || (p.x && p.reduce))
        for (int k = 0; k < K; ++k)
            y[k] = load<V>(p.F + k * D + i);
    if (p.pending)
        for (int k = 0; k < K; ++k)
            s.state += y[k];
    if (!p.x)
        return;
    const V dn = advanceMean<V>(p.mean + i, p.d + i, p.x + i, p.t, s.mean);
    if (p.reduce)
        reduceRows<KT, V>(K, y, ps, dn, s);
}

/// One lane width's accumulators and row buffers (for K beyond kFixedK).
template <class V> struct Lane {
    using Value = V;
    Sums<V> sums;
    std::vector<V> y, f;
    void reset(int K) {
        sums.reset(K);
        y.resize(static_cast<std::size_t>(K));
        f.resize(static_cast<std::size_t>(K));
    }
};

/// The scratch a pass needs, kept per thread so a pass never allocates after the first.
struct Scratch {
    Lane<Vd> wide;
    Lane<V4> four; // the rows left after the 8-wide ones (AVX-512 only)
    Lane<double> one;
    void reset(int K) {
        wide.reset(K);
        four.reset(K);
        one.reset(K);
    }
};
Scratch& scratch(int K) {
    thread_local Scratch s;
    s.reset(K);
    return s;
}

/// fn(i, lane) over rows [b, e): kLanes rows at a time, then 4 (after 8), then one.
template <class Fn> void forRows(long b, long e, Scratch& s, Fn&& fn) {
    long i = b;
    for (; i + kLanes <= e; i += kLanes)
        fn(i, s.wide);
    if constexpr (kLanes == 8)
        for (; i + 4 <= e; i += 4)
            fn(i, s.four);
    for (; i < e; ++i)
        fn(i, s.one);
}

template <class V> void addSums(int K, const Sums<V>& from, PassOut& out, bool reduce) {
    if (reduce)
        for (int j = 0; j < K; ++j) {
            out.yd[j] += sum(from.yd[static_cast<std::size_t>(j)]);
            for (int l = j; l < K; ++l) {
                const std::size_t at = static_cast<std::size_t>(j) * K + l;
                out.yy[at] += sum(from.yy[at]);
            }
        }
    out.stateSum += sum(from.state);
    out.meanSum += sum(from.mean);
}

void finish(int K, const Scratch& s, PassOut& out, bool reduce) {
    if (reduce)
        for (int j = 0; j < K; ++j) {
            out.yd[j] = 0.0;
            for (int l = j; l < K; ++l)
                out.yy[static_cast<std::size_t>(j) * K + l] = 0.0;
        }
    out.stateSum = out.meanSum = 0.0;
    addSums(K, s.wide.sums, out, reduce);
    if constexpr (kLanes == 8)
        addSums(K, s.four.sums, out, reduce);
    addSums(K, s.one.sums, out, reduce);
}

/// A row's K values: registers when K is fixed, otherwise the lane's scratch.
template <int KT, class V> struct RowBuffer {
    std::array<V, KT> a{};
    V* get(std::vector<V>&) { return a.data(); }
};
template <class V> struct RowBuffer<0, V> {
    V* get(std::vector<V>& v) { return v.data(); }
};
template <int KT> struct RowBuffers {
    RowBuffer<KT, Vd> wide;
    RowBuffer<KT, V4> four;
    RowBuffer<KT, double> one;
    template <class V> auto& of() {
        if constexpr (std::is_same_v<V, Vd>)
            return wide;
        else if constexpr (std::is_same_v<V, V4>)
            return four;
        else
            return one;
    }
};

template <int KT> void runEm(const EmPass& p, long first, long last, PassOut& out) {
    const int K = KT > 0 ? KT : p.latent;
    Scratch& s = scratch(K);
    long clamps = 0;
    RowBuffers<KT> y;
    forRows(first, last, s, [&](long i, auto& lane) {
        using V = typename std::decay_t<decltype(lane)>::Value;
        emRows<KT, V>(p, K, i, y.template of<V>().get(lane.y), lane.sums, clamps);
    });
    out.clamps = clamps;
    finish(K, s, out, p.x != nullptr);
}

template <int KT> void runSga(const SgaPass& p, long first, long last, PassOut& out) {
    const int K = KT > 0 ? KT : p.latent;
    Scratch& s = scratch(K);
    long clamps = 0;
    constexpr long kBlock = 256; // rows per block: F's block stays in L1 between the two parts
    RowBuffers<KT> y, f;
    for (long b0 = first; b0 < last; b0 += kBlock) { // a part's blocks: exp of its rows only
        const long b1 = b0 + kBlock < last ? b0 + kBlock : last;
        if (p.pending) {
            forRows(b0, b1, s, [&](long i, auto& lane) {
                using V = typename std::decay_t<decltype(lane)>::Value;
                sgaStepRows<KT, V>(p, K, i, y.template of<V>().get(lane.y),
                                   f.template of<V>().get(lane.f));
            });
            p.expBlock(p.beta + b0, p.psi + b0, b1 - b0);
        }
        forRows(b0, b1, s, [&](long i, auto& lane) {
            using V = typename std::decay_t<decltype(lane)>::Value;
            sgaReduceRows<KT, V>(p, K, i, y.template of<V>().get(lane.y), lane.sums, clamps);
        });
    }
    out.clamps = clamps;
    finish(K, s, out, p.x != nullptr && p.reduce);
}

int fixedIndex(int K) {
    return K >= 1 && K <= kFixedK ? K : 0;
}
template <int... Ks>
void dispatchEm(const EmPass& p, long first, long last, PassOut& out,
                std::integer_sequence<int, Ks...>) {
    static constexpr void (*fns[])(const EmPass&, long, long, PassOut&) = {&runEm<Ks>...};
    fns[fixedIndex(p.latent)](p, first, last, out);
}
template <int... Ks>
void dispatchSga(const SgaPass& p, long first, long last, PassOut& out,
                 std::integer_sequence<int, Ks...>) {
    static constexpr void (*fns[])(const SgaPass&, long, long, PassOut&) = {&runSga<Ks>...};
    fns[fixedIndex(p.latent)](p, first, last, out);
}
} // namespace

void run(const EmPass& pass, PassOut& out, long first, long last) {
    dispatchEm(pass, first, last, out, std::make_integer_sequence<int, kFixedK + 1>{});
}

void run(const SgaPass& pass, PassOut& out, long first, long last) {
    dispatchSga(pass, first, last, out, std::make_integer_sequence<int, kFixedK + 1>{});
}

void run(const EmPass& pass, PassOut& out) {
    run(pass, out, 0, pass.dim);
}

void run(const SgaPass& pass, PassOut& out) {
    run(pass, out, 0, pass.dim);
}

} // namespace fa::stream
