#include "core/fa/StreamPass.h"

#include "core/fa/StreamLanes.h"

#include <array>
#include <type_traits>
#include <utility>
#include <vector>

namespace fa::stream {
namespace {

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
inline void emRows(const EmPass& p, int K, long i, V* y, Sums<V>& s, long& clamps,
                   const BlockRows& blk) {
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
    }
    if (!p.x)
        return;
    const V dn = advanceMean<V>(p.mean + i, p.d + i, p.x + i, p.t, s.mean);
    keepRow<KT, V>(blk, i, ps, dn, K, s, y);
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

/// Part two for row i: clamp psi, then advance the mean and keep 1 / psi and d / psi for the
/// block's E-step sums of the next observation.
template <int KT, class V>
inline void sgaReduceRows(const SgaPass& p, int K, long i, V* y, Sums<V>& s, long& clamps,
                          const BlockRows& blk) {
    const long D = p.dim;
    V ps = load<V>(p.psi + i);
    if (p.pending) {
        ps = clampBelow(ps, p.psiFloor, clamps);
        store(p.psi + i, ps);
        store(p.beta + i, betaAfterClamp(load<V>(p.beta + i), ps, p.psiFloor, p.logPsiFloor));
        s.state += ps;
    }
    if (p.pending)
        for (int k = 0; k < K; ++k)
            s.state += load<V>(p.F + k * D + i);
    if (!p.x)
        return;
    const V dn = advanceMean<V>(p.mean + i, p.d + i, p.x + i, p.t, s.mean);
    if (p.reduce)
        keepRow<KT, V>(blk, i, ps, dn, K, s, y);
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

/// fn(r0, r1, lane) for the rows [b, e) split by lane type: the kLanes-wide rows, then 4-wide
/// ones (after 8), then single rows.
template <class Fn> void forSegments(long b, long e, Scratch& s, Fn&& fn) {
    long i = b + (e - b) / kLanes * kLanes;
    fn(b, i, s.wide);
    if constexpr (kLanes == 8) {
        const long j = i + (e - i) / 4 * 4;
        fn(i, j, s.four);
        i = j;
    }
    fn(i, e, s.one);
}
/// fn(i, lane) over rows [b, e): kLanes rows at a time, then 4 (after 8), then one.
template <class Fn> void forRows(long b, long e, Scratch& s, Fn&& fn) {
    forSegments(b, e, s, [&](long r0, long r1, auto& lane) {
        constexpr long kL = kLanesOf<typename std::decay_t<decltype(lane)>::Value>;
        for (long i = r0; i < r1; i += kL)
            fn(i, lane);
    });
}
/// The E-step sums of the rows [b, e): y read in place (A, F0 or F), 1 / psi and d / psi from
/// the block's buffers.
template <int KT> void reduceRows(const BlockRows& blk, long b, long e, Scratch& s) {
    if constexpr (KT > 0) // else keepRow formed each row's share
        forSegments(b, e, s, [&](long r0, long r1, auto& lane) {
            using V = typename std::decay_t<decltype(lane)>::Value;
            reduceBlock<KT, V>(blk, r0, r1, lane.sums);
        });
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
    alignas(64) double ip[kBlock], ipd[kBlock];
    for (long b0 = first; b0 < last; b0 += kBlock) {
        const long b1 = b0 + kBlock < last ? b0 + kBlock : last;
        const BlockRows blk{p.useF0 ? p.F0 : p.A, p.dim, b0, ip, ipd};
        forRows(b0, b1, s, [&](long i, auto& lane) {
            using V = typename std::decay_t<decltype(lane)>::Value;
            emRows<KT, V>(p, K, i, y.template of<V>().get(lane.y), lane.sums, clamps, blk);
        });
        if (p.x)
            reduceRows<KT>(blk, b0, b1, s);
    }
    out.clamps = clamps;
    finish(K, s, out, p.x != nullptr);
}

template <int KT> void runSga(const SgaPass& p, long first, long last, PassOut& out) {
    const int K = KT > 0 ? KT : p.latent;
    Scratch& s = scratch(K);
    long clamps = 0;
    RowBuffers<KT> y, f;
    alignas(64) double ip[kBlock], ipd[kBlock];
    for (long b0 = first; b0 < last; b0 += kBlock) { // exp of the part's rows only
        const long b1 = b0 + kBlock < last ? b0 + kBlock : last;
        const BlockRows blk{p.F, p.dim, b0, ip, ipd};
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
            sgaReduceRows<KT, V>(p, K, i, y.template of<V>().get(lane.y), lane.sums, clamps, blk);
        });
        if (p.x && p.reduce)
            reduceRows<KT>(blk, b0, b1, s);
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
