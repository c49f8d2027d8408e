#include "core/metrics/StructuredMetrics.h"

#include "core/math/LargeBuffer.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace fa {

double structuredRelativeCovarianceDistance(const FAModel& estimate, const FAModel& truth) {
    const Matrix& F1 = estimate.F;
    const Matrix& F2 = truth.F;
    const Vector dPsi = estimate.psi - truth.psi;
    const Vector rows1 = F1.rowwise().squaredNorm();
    const Vector rows2 = F2.rowwise().squaredNorm();
    const double g11 = (F1.transpose() * F1).squaredNorm();
    const double g22 = (F2.transpose() * F2).squaredNorm();
    const double g12 = (F1.transpose() * F2).squaredNorm();
    const double diff2 = dPsi.squaredNorm() + 2.0 * dPsi.dot(rows1 - rows2) + g11 + g22 - 2.0 * g12;
    const double ref2 = truth.psi.squaredNorm() + 2.0 * truth.psi.dot(rows2) + g22;
    return std::sqrt(std::max(diff2, 0.0) / ref2);
}

namespace {
/// Threads for the parts of a call at most.
constexpr unsigned kMaxParts = 4;

/// fn(begin, end) over [0, n) in contiguous chunks of about n / 64 rows that one thread per core
/// (at most 4) claims in turn, so a thread on a core shared with another process does fewer
/// chunks instead of holding the others up (an equal share each took as long as the slowed
/// thread's share). For work whose chunks write disjoint outputs, so the result does not depend
/// on the cores or on which thread did a chunk.
/// fn's third argument, slot (0 .. kMaxParts - 1), names the thread, for scratch of its own.
void inParts(Eigen::Index n, const std::function<void(Eigen::Index, Eigen::Index, unsigned)>& fn) {
    const auto threads = std::clamp(std::thread::hardware_concurrency(), 1u, kMaxParts);
    const Eigen::Index chunk = std::max<Eigen::Index>(n / 64, 1024);
    std::atomic<Eigen::Index> next{0};
    auto claim = [&](unsigned slot) {
        for (Eigen::Index begin = next.fetch_add(chunk); begin < n; begin = next.fetch_add(chunk))
            fn(begin, std::min(n, begin + chunk), slot);
    };
    std::vector<std::thread> pool;
    try {
        for (unsigned t = 1; t < threads && chunk < n; ++t)
            pool.emplace_back(claim, t);
    } catch (const std::system_error&) { // no more threads (a process limit): fewer claim
    }
    claim(0);
    for (auto& t : pool)
        t.join();
}

// Row-major: the binned path gathers whole rows, which are then contiguous. Z is a map of a
// LargeBuffer (core/math/LargeBuffer.h: 2 MiB pages, so its fill does not fault every 4 KiB).
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMap = Eigen::Map<RowMatrix, Eigen::Aligned64>;

/// G(t) = sum_d z_d z_d^T / (t^2 + lambda_d) at every node, row by row: O(D K^2) per node.
std::vector<Matrix> exactGrams(const RowMap& Z, const ConstVectorRef& lambda,
                               const std::vector<double>& t2s) {
    std::vector<Matrix> grams;
    Matrix scaled;
    for (const double t2 : t2s) {
        scaled = Z.array().colwise() * (t2 + lambda.array()).rsqrt();
        Matrix G = Matrix::Zero(Z.cols(), Z.cols());
        G.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
        grams.push_back(G.selfadjointView<Eigen::Lower>());
    }
    return grams;
}

/// Rows grouped by bins of width `width` in u = log(lambda): the rows of bin b are the
/// positions start[b] .. start[b + 1] - 1 of the sorted order; position[d] is row d's place.
/// The D-long arrays (and the work ones) on LargeArray, whose large arrays take 2 MiB pages:
/// fresh 4 KiB pages fault on first write, which on some virtual machines cost more than W2's
/// arithmetic.
struct Bins {
    std::vector<Eigen::Index> start;
    Vector centre; ///< lambda at each bin's centre
    LargeArray<Eigen::Index> position;
    LargeBuffer sortedLambda;

    Bins(const ConstVectorRef& lambda, double width);
};

Bins::Bins(const ConstVectorRef& lambda, double width)
    : position(static_cast<std::size_t>(lambda.size())),
      sortedLambda(static_cast<std::size_t>(lambda.size())) {
    const Eigen::Index D = lambda.size();
    LargeBuffer uBuffer(static_cast<std::size_t>(D));
    Eigen::Map<Vector, Eigen::Aligned64> u(uBuffer.data(), D);
    u = lambda.array().log();
    const double uMin = u.minCoeff();
    const auto bins = static_cast<Eigen::Index>(std::floor((u.maxCoeff() - uMin) / width)) + 1;
    start.assign(static_cast<std::size_t>(bins + 1), 0);
    LargeArray<Eigen::Index> binOf(static_cast<std::size_t>(D));
    for (Eigen::Index d = 0; d < D; ++d) {
        binOf[d] =
            std::min<Eigen::Index>(static_cast<Eigen::Index>((u[d] - uMin) / width), bins - 1);
        ++start[binOf[d] + 1];
    }
    for (Eigen::Index k = 0; k < bins; ++k)
        start[k + 1] += start[k];
    centre.resize(bins);
    for (Eigen::Index k = 0; k < bins; ++k)
        centre[k] = std::exp(uMin + (static_cast<double>(k) + 0.5) * width);
    // Counting sort by bin (stable: rows keep their order within a bin).
    std::vector<Eigen::Index> next(start.begin(), start.end() - 1);
    for (Eigen::Index d = 0; d < D; ++d) {
        const Eigen::Index at = next[binOf[d]]++;
        position[d] = at;
        sortedLambda[at] = lambda[d];
    }
}

/// Columns (bin, j) of moments for the used bins [u0, u1): vec(M_bj) with
/// M_bj = sum_{d in b} (lambda_d - lambda_b)^j z_d z_d^T.
/// `scratch` holds at least the largest bin's rows times r (order + 1) doubles.
void momentsOf(const RowMap& Z, const Bins& bins, const std::vector<Eigen::Index>& used,
               std::size_t u0, std::size_t u1, int order, double* scratch, Matrix& moments) {
    const Eigen::Index r = Z.cols();
    Matrix block;
    for (std::size_t ub = u0; ub < u1; ++ub) {
        const Eigen::Index b = used[ub], first = bins.start[b], n = bins.start[b + 1] - first;
        const auto Zb = Z.middleRows(first, n); // contiguous: Z is in bin order
        // Row i: z_i (lambda_i - lambda_b)^j for j = 0 .. order, side by side.
        RowMap weighted(scratch, n, r * (order + 1));
        for (Eigen::Index i = 0; i < n; ++i) {
            const double offset = bins.sortedLambda[first + i] - bins.centre[b];
            double power = 1.0;
            for (int j = 0; j <= order; ++j, power *= offset)
                weighted.row(i).segment(j * r, r) = Zb.row(i) * power;
        }
        block.noalias() = Zb.transpose() * weighted;
        for (int j = 0; j <= order; ++j)
            moments.col(static_cast<Eigen::Index>(ub) * (order + 1) + j) =
                block.middleCols(j * r, r).reshaped();
    }
}

/// The same Grams from per-bin moments M_bj, using
/// 1/(t^2 + lambda) = sum_j (-1)^j (lambda - lambda_b)^j / (t^2 + lambda_b)^(j+1).
/// Z's rows are in the bins' order. The moments cost O(D K^2 order) once (the bins in chunks on
/// every core, each chunk writing its own columns); all nodes then come from one GEMM whose
/// size does not depend on D.
std::vector<Matrix> binnedGrams(const RowMap& Z, const Bins& bins, const std::vector<double>& t2s,
                                int order) {
    const Eigen::Index r = Z.cols();
    const auto count = static_cast<Eigen::Index>(bins.centre.size());
    std::vector<Eigen::Index> used;
    for (Eigen::Index b = 0; b < count; ++b)
        if (bins.start[b + 1] > bins.start[b])
            used.push_back(b);
    const auto terms = static_cast<Eigen::Index>(used.size()) * (order + 1);
    Matrix moments(r * r, terms); // column (bin, j) holds vec(M_bj)
    // A chunk of rows takes the bins whose first row lies in it.
    std::vector<Eigen::Index> firstRow(used.size());
    for (std::size_t ub = 0; ub < used.size(); ++ub)
        firstRow[ub] = bins.start[used[ub]];
    // Each thread's rows of a bin, weighted, in a buffer of its own for all its bins (one
    // allocation a bin, after a process had freed large arrays, met fresh pages each time and
    // made W2 in bench up to twice as slow: docs/benchmarks.md).
    Eigen::Index most = 0;
    for (const Eigen::Index b : used)
        most = std::max(most, bins.start[b + 1] - bins.start[b]);
    std::array<std::unique_ptr<LargeBuffer>, kMaxParts> scratch;
    inParts(Z.rows(), [&](Eigen::Index r0, Eigen::Index r1, unsigned slot) {
        if (!scratch[slot])
            scratch[slot] =
                std::make_unique<LargeBuffer>(static_cast<std::size_t>(most * r * (order + 1)));
        const auto u0 = static_cast<std::size_t>(
            std::lower_bound(firstRow.begin(), firstRow.end(), r0) - firstRow.begin());
        const auto u1 = static_cast<std::size_t>(
            std::lower_bound(firstRow.begin(), firstRow.end(), r1) - firstRow.begin());
        momentsOf(Z, bins, used, u0, u1, order, scratch[slot]->data(), moments);
    });
    Matrix coefficients(terms, static_cast<Eigen::Index>(t2s.size()));
    for (std::size_t k = 0; k < t2s.size(); ++k)
        for (std::size_t ub = 0; ub < used.size(); ++ub) {
            const double inv = 1.0 / (t2s[k] + bins.centre[used[ub]]);
            double coef = inv;
            for (int j = 0; j <= order; ++j, coef *= -inv)
                coefficients(static_cast<Eigen::Index>(ub) * (order + 1) + j,
                             static_cast<Eigen::Index>(k)) = coef;
        }
    const Matrix all = moments * coefficients;
    std::vector<Matrix> grams;
    for (Eigen::Index k = 0; k < all.cols(); ++k)
        grams.push_back(all.col(k).reshaped(r, r));
    return grams;
}

double logAbsDet(const Matrix& M) {
    const Eigen::PartialPivLU<Matrix> lu(M);
    return lu.matrixLU().diagonal().array().abs().log().sum();
}

double integrateLogDet(const RowMap& Z, const ConstVectorRef& lambda, const Bins* bins,
                       const Matrix& innerInv, double logDetInner, double tailC,
                       const W2QuadratureOptions& opt) {
    const Eigen::Index K = innerInv.rows();
    const double a = lambda.mean();
    const double sLo = 0.5 * std::log(lambda.minCoeff()) - opt.margin;
    const double sHi = 0.5 * std::log(lambda.maxCoeff()) + opt.margin;
    const int nodes = static_cast<int>(std::ceil((sHi - sLo) / opt.step)) + 1;
    const double h = (sHi - sLo) / (nodes - 1);
    std::vector<double> t2s(nodes);
    for (int i = 0; i < nodes; ++i)
        t2s[i] = std::exp(2.0 * (sLo + i * h));
    const std::vector<Matrix> grams =
        bins ? binnedGrams(Z, *bins, t2s, opt.taylorOrder) : exactGrams(Z, lambda, t2s);
    // f(s) = (l(t) - g(t)) t at t = e^s, with g(t) = log(1 + c / (t^2 + a)) sharing l's c / t^2
    // tail.
    Matrix M;
    auto f = [&](int i) {
        const double t2 = t2s[i];
        M = grams[i];
        M.bottomRows(K).noalias() = -t2 * innerInv * grams[i].bottomRows(K); // J G
        M.diagonal().array() += 1.0;
        const double l = logDetInner + logAbsDet(M);
        return (l - std::log1p(tailC / (t2 + a))) * std::sqrt(t2);
    };
    const double fLo = f(0);
    double sum = fLo;
    for (int i = 1; i < nodes; ++i)
        sum += f(i);
    // Nodes below sLo, where f ~ f(sLo) e^(s - sLo), summed as a geometric series.
    sum += fLo * std::exp(-h) / (1.0 - std::exp(-h));
    const double integral = h * sum;
    const double tailIntegral = std::numbers::pi * (std::sqrt(a + tailC) - std::sqrt(a));
    return (integral + tailIntegral) / std::numbers::pi;
}

} // namespace

double structuredW2(const FAModel& a, const FAModel& b, const W2QuadratureOptions& options) {
    const Matrix& F1 = a.F;
    const Matrix& F2 = b.F;
    const Eigen::Index D = F1.rows(), K1 = F1.cols(), K2 = F2.cols();
    LargeBuffer lambdaBuffer(static_cast<std::size_t>(D));
    Eigen::Map<Vector, Eigen::Aligned64> lambda(lambdaBuffer.data(), D);
    lambda = a.psi.cwiseProduct(b.psi);

    // l(t) ~ c / t^2 for large t with c = tr(S1 S2) - tr(Psi1 Psi2): from the inputs alone, so
    // on a thread of its own beside the binning and Z (the same sums as on this one).
    double tailC = 0.0;
    auto tailTerm = [&] {
        tailC = a.psi.dot(F2.rowwise().squaredNorm()) + b.psi.dot(F1.rowwise().squaredNorm()) +
                (F1.transpose() * F2).squaredNorm();
    };
    std::jthread tail; // joined on the way out, also if what follows throws
    try {
        tail = std::jthread(tailTerm);
    } catch (const std::system_error&) { // no more threads: here
        tailTerm();
    }
    const double base = (a.c - b.c).squaredNorm() +
                        (a.psi.cwiseSqrt() - b.psi.cwiseSqrt()).squaredNorm() + F1.squaredNorm() +
                        F2.squaredNorm();

    // Z = [F2 .* sqrt(psi1), F1 ./ sqrt(psi1)], row-major; above binAboveDim its rows are
    // written straight into the bins' order, so each bin's rows are one contiguous block.
    std::optional<Bins> bins;
    if (D > options.binAboveDim)
        bins.emplace(lambda, options.binWidth);
    LargeBuffer zBuffer(static_cast<std::size_t>(D * (K2 + K1)));
    RowMap Z(zBuffer.data(), D, K2 + K1);
    auto fill = [&](Eigen::Index d0, Eigen::Index d1, unsigned = 0) {
        for (Eigen::Index d = d0; d < d1; ++d) {
            const Eigen::Index at = bins ? bins->position[d] : d;
            const double s = std::sqrt(a.psi[d]), inv = 1.0 / s;
            double* z = Z.row(at).data();
            for (Eigen::Index k = 0; k < K2; ++k)
                z[k] = F2(d, k) * s;
            for (Eigen::Index k = 0; k < K1; ++k)
                z[K2 + k] = F1(d, k) * inv;
        }
    };
    if (bins)
        inParts(D, fill); // rows to distinct places: the same Z on any number of cores
    else
        fill(0, D);
    Matrix inner = Matrix::Identity(K1, K1); // I + F1^T Psi1^-1 F1 (any row order)
    inner.noalias() += Z.rightCols(K1).transpose() * Z.rightCols(K1);
    const Eigen::LLT<Matrix> llt(inner);
    const Matrix L = llt.matrixL();
    const double logDetInner = 2.0 * L.diagonal().array().log().sum();
    const Matrix innerInv = llt.solve(Matrix::Identity(K1, K1));

    if (tail.joinable())
        tail.join();

    const double cross =
        integrateLogDet(Z, lambda, bins ? &*bins : nullptr, innerInv, logDetInner, tailC, options);
    return std::sqrt(std::max(base - 2.0 * cross, 0.0));
}

} // namespace fa
