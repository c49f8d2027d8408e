#pragma once
// The lane types and the per-row kernels' building blocks of the streaming pass
// (core/fa/StreamPass.cpp), with the block-wise E-step sums. Included by StreamPass.cpp alone:
// the lane width depends on the flags that file alone is compiled with (the widest vectors the
// machine has), so every definition is internal to it (an unnamed namespace).
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
/// x in every lane: one broadcast (a lane-by-lane fill compiles to a masked broadcast per lane).
/// x - 0 is x for every x, -0 and NaN included (x + 0 would turn -0 into +0).
template <class V> V splat(double x) {
    if constexpr (std::is_same_v<V, double>)
        return x;
    else
        return x - V{};
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

/// Rows per block: the block's rows of A or F, written by the row updates, are still in L1 when
/// the E-step sums read them (K = 10: 20 KiB, and 4 KiB of 1 / psi and d / psi; F0, which the
/// updates do not touch, comes from memory once).
constexpr long kBlock = 256;

/// What the E-step sums of a block read: the rows' y (column k at Y + k * D), and per row
/// 1 / psi and d / psi (ip, ipd; entry i - base for row i).
struct BlockRows {
    const double* Y;
    long D, base;
    double *ip, *ipd;
};

/// Row i's 1 / psi and d / psi, kept for the block's sums. K beyond the fixed ones (KT = 0): the
/// row's share of the sums at once instead, from its K values read into y (its accumulators
/// cannot stay in registers, and K columns of a block would not stay in L1).
template <int KT, class V>
inline void keepRow(const BlockRows& blk, long i, V ps, V dn, int K, Sums<V>& s, V* y) {
    const V ip = splat<V>(1.0) / ps, ipd = dn * ip;
    if constexpr (KT > 0) {
        store(blk.ip + (i - blk.base), ip);
        store(blk.ipd + (i - blk.base), ipd);
    } else {
        for (int k = 0; k < K; ++k)
            y[k] = load<V>(blk.Y + k * blk.D + i);
        for (int j = 0; j < K; ++j) {
            const V b = y[j] * ip;
            s.yd[static_cast<std::size_t>(j)] += y[j] * ipd;
            V* col = s.yy.data() + static_cast<std::size_t>(j) * K; // column j, rows j..K-1
            for (int l = j; l < K; ++l)
                col[l] += b * y[l];
        }
    }
}

/// Column j of the E-step sums over rows [r0, r1) of one lane type: yd_j += y_j d / psi and
/// yy_lj += (y_j / psi) y_l, l >= j. A column at a time, so with K fixed its accumulators stay
/// in registers for the whole block instead of a load and a store per row. Each accumulator
/// still takes the rows one after another in order, so the sums are bitwise a row-at-a-time
/// loop's.
template <int KT, class V>
[[gnu::always_inline]] inline void reduceColumn(int j, const BlockRows& blk, long r0, long r1,
                                                Sums<V>& s) {
    V* col = s.yy.data() + static_cast<std::size_t>(j) * KT; // column j, rows j..K-1
    const double* yj = blk.Y + j * blk.D;
    V acc[KT];
#pragma GCC unroll 16
    for (int l = j; l < KT; ++l)
        acc[l] = col[l];
    V accd = s.yd[static_cast<std::size_t>(j)];
    for (long i = r0; i < r1; i += kLanesOf<V>) {
        const V y = load<V>(yj + i), b = y * load<V>(blk.ip + (i - blk.base));
        accd += y * load<V>(blk.ipd + (i - blk.base));
#pragma GCC unroll 16
        for (int l = j; l < KT; ++l)
            acc[l] += b * load<V>(blk.Y + l * blk.D + i);
    }
#pragma GCC unroll 16
    for (int l = j; l < KT; ++l)
        col[l] = acc[l];
    s.yd[static_cast<std::size_t>(j)] = accd;
}
template <int KT, class V, int... Js>
inline void reduceColumns(const BlockRows& blk, long r0, long r1, Sums<V>& s,
                          std::integer_sequence<int, Js...>) {
    (reduceColumn<KT, V>(Js, blk, r0, r1, s), ...); // j a constant in each copy
}
/// The E-step sums over rows [r0, r1) of one lane type (K fixed; keepRow formed the rest).
template <int KT, class V> void reduceBlock(const BlockRows& blk, long r0, long r1, Sums<V>& s) {
    if constexpr (KT > 0)
        if (r0 < r1)
            reduceColumns<KT, V>(blk, r0, r1, s, std::make_integer_sequence<int, KT>{});
}

} // namespace
} // namespace fa::stream
