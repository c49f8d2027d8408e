#include "core/metrics/StructuredMetrics.h"

#include "core/math/ClaimInTurn.h"
#include "core/math/LargeBuffer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>
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

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Row d of the Woodbury factor Z = [F2 .* sqrt(psi1), F1 ./ sqrt(psi1)] (2K wide).
struct WoodburyRows {
    const Matrix& F1;
    const Matrix& F2;
    const Vector& psi1;
    Eigen::Index width() const { return F1.cols() + F2.cols(); }
    void row(Eigen::Index d, double* z) const {
        const Eigen::Index K1 = F1.cols(), K2 = F2.cols();
        const double s = std::sqrt(psi1[d]), inv = 1.0 / s;
        for (Eigen::Index k = 0; k < K2; ++k)
            z[k] = F2(d, k) * s;
        for (Eigen::Index k = 0; k < K1; ++k)
            z[K2 + k] = F1(d, k) * inv;
    }
};

/// G(t) = sum_d z_d z_d^T / (t^2 + lambda_d) at every node, row by row: O(D K^2) per node.
std::vector<Matrix> exactGrams(const RowMatrix& Z, const ConstVectorRef& lambda,
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

/// The rows' bins of width `width` in u = log(lambda), only those holding rows, numbered in
/// order of lambda: binOf[d] is row d's bin, centre[b] lambda at bin b's centre.
struct Bins {
    std::vector<Eigen::Index> rows; ///< rows per bin
    Vector centre;
    LargeArray<std::int32_t> binOf;

    Bins(const ConstVectorRef& lambda, double width);
};

Bins::Bins(const ConstVectorRef& lambda, double width)
    : binOf(static_cast<std::size_t>(lambda.size())) {
    const Eigen::Index D = lambda.size();
    if (D > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("structuredW2: more rows than 32-bit row numbers hold");
    const double uMin = std::log(lambda.minCoeff());
    const double spread = (std::log(lambda.maxCoeff()) - uMin) / width;
    // A count a bin (empty ones too): refused where that would dwarf the rows themselves.
    if (!(spread < static_cast<double>(std::max<Eigen::Index>(64 * D, Eigen::Index{1} << 20))))
        throw std::invalid_argument("structuredW2: psi1 psi2 spreads over too many bins");
    const auto all = static_cast<Eigen::Index>(std::floor(spread)) + 1;
    std::vector<Eigen::Index> count(static_cast<std::size_t>(all), 0);
    for (Eigen::Index d = 0; d < D; ++d) {
        const auto b = std::min<Eigen::Index>(
            static_cast<Eigen::Index>((std::log(lambda[d]) - uMin) / width), all - 1);
        binOf[d] = static_cast<std::int32_t>(b);
        ++count[static_cast<std::size_t>(b)];
    }
    // The empty bins dropped: the rest numbered 0, 1, ... in the same order.
    std::vector<std::int32_t> renumber(count.size(), -1);
    std::vector<double> centres;
    for (std::size_t b = 0; b < count.size(); ++b)
        if (count[b] > 0) {
            renumber[b] = static_cast<std::int32_t>(rows.size());
            rows.push_back(count[b]);
            centres.push_back(std::exp(uMin + (static_cast<double>(b) + 0.5) * width));
        }
    centre = Eigen::Map<const Vector>(centres.data(), static_cast<Eigen::Index>(centres.size()));
    for (Eigen::Index d = 0; d < D; ++d)
        binOf[d] = renumber[static_cast<std::size_t>(binOf[d])];
}

/// Adds to M_j (j = 0 .. Order, the columns `out` + j of vec(M_j)) the lower triangles of
/// sum_i p_i^j z_i z_i^T over n rows staged by column: z's column k at z + k * stride, the
/// powers p^j (j >= 1) at p + (j - 1) * stride; n a multiple of 4 (padding rows are zero).
/// Four lanes of partial sums in a fixed order: the same result on every thread (a build
/// that fuses multiply-adds differently may differ in the last bits).
template <int Order>
void addLowerMoments(const double* z, const double* p, Eigen::Index stride, Eigen::Index n,
                     Eigen::Index r, double* out, Eigen::Index column) {
    for (Eigen::Index a = 0; a < r; ++a) {
        const double* za = z + a * stride;
        for (Eigen::Index b = 0; b <= a; ++b) {
            const double* zb = z + b * stride;
            std::array<Eigen::Array4d, Order + 1> acc;
            for (auto& v : acc)
                v.setZero();
            for (Eigen::Index i = 0; i < n; i += 4) {
                const Eigen::Array4d q = Eigen::Array4d::Map(za + i) * Eigen::Array4d::Map(zb + i);
                acc[0] += q;
                for (int j = 1; j <= Order; ++j)
                    acc[j] += q * Eigen::Array4d::Map(p + (j - 1) * stride + i);
            }
            for (int j = 0; j <= Order; ++j)
                out[j * column + a + b * r] += (acc[j][0] + acc[j][1]) + (acc[j][2] + acc[j][3]);
        }
    }
}

using MomentKernel = void (*)(const double*, const double*, Eigen::Index, Eigen::Index,
                              Eigen::Index, double*, Eigen::Index);

MomentKernel momentKernel(int order) {
    constexpr std::array<MomentKernel, 6> kernels{&addLowerMoments<0>, &addLowerMoments<1>,
                                                  &addLowerMoments<2>, &addLowerMoments<3>,
                                                  &addLowerMoments<4>, &addLowerMoments<5>};
    if (order < 0 || order >= static_cast<int>(kernels.size()))
        throw std::invalid_argument("structuredW2: taylorOrder must be 0 to 5");
    return kernels[static_cast<std::size_t>(order)];
}

/// Per-bin moments M_bj = sum_{d in b} (lambda_d - lambda_b)^j z_d z_d^T, j = 0 .. order, as
/// columns (b, j) of vec(M_bj) (lower triangles), for the bins [b0, b1) whose rows are
/// rows[0 .. n) in increasing order: each bin's rows are staged a block at a time, by column,
/// and added by addLowerMoments. A bin's sum thus runs over its rows in the same order and the
/// same blocks whichever thread does it, so the result does not depend on the number of threads.
void momentsOf(const WoodburyRows& Z, const ConstVectorRef& lambda, const Bins& bins,
               Eigen::Index b0, Eigen::Index b1, const std::uint32_t* rows, Eigen::Index n,
               int order, MomentKernel kernel, Matrix& moments) {
    const Eigen::Index r = Z.width(), nb = b1 - b0, columns = r + order;
    // Rows staged per bin: 64 (128 gained nothing at D = 10^6), fewer where a part has so many
    // bins that its staging would pass 4 MB, at least 16; a multiple of 4.
    const Eigen::Index block = std::clamp<Eigen::Index>(
        (Eigen::Index{1} << 19) / std::max<Eigen::Index>(nb * columns, 1) / 4 * 4, 16, 64);
    std::vector<double> staged(static_cast<std::size_t>(nb * block * columns));
    std::vector<Eigen::Index> filled(static_cast<std::size_t>(nb), 0);
    std::vector<double> z(static_cast<std::size_t>(r));
    auto flush = [&](Eigen::Index local) {
        Eigen::Index count = filled[static_cast<std::size_t>(local)];
        if (count == 0)
            return;
        double* base = staged.data() + local * block * columns;
        for (; count % 4 != 0; ++count) // zero rows up to a multiple of 4
            for (Eigen::Index k = 0; k < columns; ++k)
                base[k * block + count] = 0.0;
        kernel(base, base + r * block, block, count, r,
               moments.col((b0 + local) * (order + 1)).data(), moments.rows());
        filled[static_cast<std::size_t>(local)] = 0;
    };
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index d = rows[i], local = bins.binOf[d] - b0;
        Eigen::Index& count = filled[static_cast<std::size_t>(local)];
        double* base = staged.data() + local * block * columns + count;
        Z.row(d, z.data());
        for (Eigen::Index k = 0; k < r; ++k)
            base[k * block] = z[static_cast<std::size_t>(k)];
        const double offset = lambda[d] - bins.centre[b0 + local];
        double power = 1.0;
        for (int j = 1; j <= order; ++j)
            base[(r + j - 1) * block] = power *= offset;
        if (++count == block)
            flush(local);
    }
    for (Eigen::Index local = 0; local < nb; ++local)
        flush(local);
}

/// The same Grams from per-bin moments M_bj, using
/// 1/(t^2 + lambda) = sum_j (-1)^j (lambda - lambda_b)^j / (t^2 + lambda_b)^(j+1).
/// The moments cost O(D K^2 order) once, in passes over the rows by a few parts of the bins
/// (each part's columns its own; no D-sized copy of Z: a fresh 160 MB array at D = 10^6 cost
/// more than W2's arithmetic on a virtual machine, docs/benchmarks.md); all nodes then come from
/// one GEMM whose size does not depend on D. `sumZZ` gets sum_d z_d z_d^T (the j = 0 moments).
std::vector<Matrix> binnedGrams(const WoodburyRows& Z, const ConstVectorRef& lambda,
                                const Bins& bins, const std::vector<double>& t2s, int order,
                                Matrix& sumZZ) {
    const Eigen::Index r = Z.width();
    const auto count = static_cast<Eigen::Index>(bins.rows.size());
    const Eigen::Index terms = count * (order + 1);
    const MomentKernel kernel = momentKernel(order); // refused here, before any thread
    Matrix moments = Matrix::Zero(r * r, terms);     // column (bin, j) holds vec(M_bj)
    // Parts of about equal rows, as many on every machine (the part's bins set the staging
    // blocks, so a number from the cores would change the sums' rounding), claimed by at most
    // kMaxParts threads: a slowed core does fewer.
    const Eigen::Index parts = std::min<Eigen::Index>(count, 2 * kMaxParts);
    std::vector<Eigen::Index> cut{0};
    Eigen::Index sum = 0;
    for (Eigen::Index b = 0; b < count; ++b) {
        sum += bins.rows[static_cast<std::size_t>(b)];
        if (sum * parts >= lambda.size() * static_cast<Eigen::Index>(cut.size()) && b + 1 < count)
            cut.push_back(b + 1);
    }
    cut.push_back(count);
    // Each part's rows, in increasing order: a counting sort by part.
    const auto partCount = static_cast<Eigen::Index>(cut.size()) - 1;
    std::vector<std::int32_t> partOf(static_cast<std::size_t>(count));
    for (Eigen::Index p = 0; p < partCount; ++p)
        std::fill(partOf.begin() + cut[p], partOf.begin() + cut[p + 1], std::int32_t(p));
    std::vector<Eigen::Index> start(static_cast<std::size_t>(partCount + 1), 0);
    for (Eigen::Index p = 0; p < partCount; ++p)
        for (Eigen::Index b = cut[p]; b < cut[p + 1]; ++b)
            start[p + 1] += bins.rows[static_cast<std::size_t>(b)];
    for (Eigen::Index p = 0; p < partCount; ++p)
        start[p + 1] += start[p];
    LargeArray<std::uint32_t> rowsByPart(static_cast<std::size_t>(lambda.size()));
    std::vector<Eigen::Index> next(start.begin(), start.end() - 1);
    for (Eigen::Index d = 0; d < lambda.size(); ++d)
        rowsByPart[next[partOf[bins.binOf[d]]]++] = static_cast<std::uint32_t>(d);
    claimInTurn(partCount, kMaxParts, [&](Eigen::Index p, unsigned) {
        momentsOf(Z, lambda, bins, cut[p], cut[p + 1], rowsByPart.data() + start[p],
                  start[p + 1] - start[p], order, kernel, moments);
    });
    // The kernel fills lower triangles: each vec(M_bj) made whole.
    for (Eigen::Index c = 0; c < terms; ++c) {
        auto M = moments.col(c).reshaped(r, r);
        M.triangularView<Eigen::StrictlyUpper>() = M.transpose();
    }
    sumZZ = Matrix::Zero(r, r);
    for (Eigen::Index b = 0; b < count; ++b)
        sumZZ += moments.col(b * (order + 1)).reshaped(r, r);
    Matrix coefficients(terms, static_cast<Eigen::Index>(t2s.size()));
    for (std::size_t k = 0; k < t2s.size(); ++k)
        for (Eigen::Index b = 0; b < count; ++b) {
            const double inv = 1.0 / (t2s[k] + bins.centre[b]);
            double coef = inv;
            for (int j = 0; j <= order; ++j, coef *= -inv)
                coefficients(b * (order + 1) + j, static_cast<Eigen::Index>(k)) = coef;
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

/// The trapezoid's nodes t^2 = e^(2 s), s from sLo to sHi in steps of h (docs/maths/explorer.md
/// §5.2).
struct Nodes {
    std::vector<double> t2s;
    double h = 0.0;
};

Nodes nodesFor(const ConstVectorRef& lambda, const W2QuadratureOptions& opt) {
    const double sLo = 0.5 * std::log(lambda.minCoeff()) - opt.margin;
    const double sHi = 0.5 * std::log(lambda.maxCoeff()) + opt.margin;
    const int count = static_cast<int>(std::ceil((sHi - sLo) / opt.step)) + 1;
    Nodes n;
    n.h = (sHi - sLo) / (count - 1);
    n.t2s.resize(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i)
        n.t2s[static_cast<std::size_t>(i)] = std::exp(2.0 * (sLo + i * n.h));
    return n;
}

/// (1/pi) int_0^inf l(t) dt from the Grams at the nodes; `a` is mean lambda, `tailC` the c of
/// l's c / t^2 tail.
double integrateLogDet(const std::vector<Matrix>& grams, const Nodes& nodes, double a,
                       const Matrix& innerInv, double logDetInner, double tailC) {
    const Eigen::Index K = innerInv.rows();
    // f(s) = (l(t) - g(t)) t at t = e^s, with g(t) = log(1 + c / (t^2 + a)) sharing l's c / t^2
    // tail.
    Matrix M;
    auto f = [&](std::size_t i) {
        const double t2 = nodes.t2s[i];
        M = grams[i];
        M.bottomRows(K).noalias() = -t2 * innerInv * grams[i].bottomRows(K); // J G
        M.diagonal().array() += 1.0;
        const double l = logDetInner + logAbsDet(M);
        return (l - std::log1p(tailC / (t2 + a))) * std::sqrt(t2);
    };
    const double fLo = f(0);
    double sum = fLo;
    for (std::size_t i = 1; i < nodes.t2s.size(); ++i)
        sum += f(i);
    // Nodes below sLo, where f ~ f(sLo) e^(s - sLo), summed as a geometric series.
    sum += fLo * std::exp(-nodes.h) / (1.0 - std::exp(-nodes.h));
    const double integral = nodes.h * sum;
    const double tailIntegral = std::numbers::pi * (std::sqrt(a + tailC) - std::sqrt(a));
    return (integral + tailIntegral) / std::numbers::pi;
}

} // namespace

double structuredW2(const FAModel& a, const FAModel& b, const W2QuadratureOptions& options) {
    if (!(options.step > 0.0) || !std::isfinite(options.step) || !(options.margin >= 0.0) ||
        !std::isfinite(options.margin) || !(options.binWidth > 0.0) ||
        !std::isfinite(options.binWidth) || options.taylorOrder < 0 || options.taylorOrder > 5)
        throw std::invalid_argument("structuredW2: step and binWidth must be positive, margin "
                                    "not negative, taylorOrder 0 to 5");
    const Matrix& F1 = a.F;
    const Matrix& F2 = b.F;
    const Eigen::Index D = F1.rows(), K1 = F1.cols(), K2 = F2.cols();
    LargeBuffer lambdaBuffer(static_cast<std::size_t>(D));
    Eigen::Map<Vector, Eigen::Aligned64> lambda(lambdaBuffer.data(), D);
    lambda = a.psi.cwiseProduct(b.psi);

    // l(t) ~ c / t^2 for large t with c = tr(S1 S2) - tr(Psi1 Psi2): from the inputs alone, so
    // on a thread of its own beside the binning and the moments (the same sums as on this one).
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

    // Z = [F2 .* sqrt(psi1), F1 ./ sqrt(psi1)]: above binAboveDim never formed (its rows made
    // as the bins' moments take them), below it a D x 2K array.
    const Nodes nodes = nodesFor(lambda, options);
    const WoodburyRows rows{F1, F2, a.psi};
    std::vector<Matrix> grams;
    Matrix inner = Matrix::Identity(K1, K1); // I + F1^T Psi1^-1 F1
    if (D > options.binAboveDim) {
        const Bins bins(lambda, options.binWidth);
        Matrix sumZZ;
        grams = binnedGrams(rows, lambda, bins, nodes.t2s, options.taylorOrder, sumZZ);
        inner += sumZZ.bottomRightCorner(K1, K1);
    } else {
        RowMatrix Z(D, K2 + K1);
        for (Eigen::Index d = 0; d < D; ++d)
            rows.row(d, Z.row(d).data());
        inner.noalias() += Z.rightCols(K1).transpose() * Z.rightCols(K1);
        grams = exactGrams(Z, lambda, nodes.t2s);
    }
    const Eigen::LLT<Matrix> llt(inner);
    const Matrix L = llt.matrixL();
    const double logDetInner = 2.0 * L.diagonal().array().log().sum();
    const Matrix innerInv = llt.solve(Matrix::Identity(K1, K1));

    if (tail.joinable())
        tail.join();

    const double cross = integrateLogDet(grams, nodes, lambda.mean(), innerInv, logDetInner, tailC);
    return std::sqrt(std::max(base - 2.0 * cross, 0.0));
}

} // namespace fa
