#include "core/metrics/StructuredMetrics.h"

#include <algorithm>
#include <cmath>
#include <numbers>
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
// Row-major: the binned path gathers whole rows, which are then contiguous.
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// G(t) = sum_d z_d z_d^T / (t^2 + lambda_d) at every node, row by row: O(D K^2) per node.
std::vector<Matrix> exactGrams(const RowMatrix& Z, const Vector& lambda,
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

/// The same Grams from per-bin moments M_bj = sum_{d in b} (lambda_d - lambda_b)^j z_d z_d^T,
/// using 1/(t^2 + lambda) = sum_j (-1)^j (lambda - lambda_b)^j / (t^2 + lambda_b)^(j+1).
/// The moments cost O(D K^2 order) once; all nodes then come from one GEMM whose size does
/// not depend on D.
std::vector<Matrix> binnedGrams(const RowMatrix& Z, const Vector& lambda,
                                const std::vector<double>& t2s, double width, int order) {
    const Eigen::Index D = Z.rows(), r = Z.cols();
    const Vector u = lambda.array().log();
    const double uMin = u.minCoeff();
    const auto bins = static_cast<Eigen::Index>(std::floor((u.maxCoeff() - uMin) / width)) + 1;
    std::vector<Eigen::Index> start(bins + 1, 0), binOf(D);
    for (Eigen::Index d = 0; d < D; ++d) {
        binOf[d] =
            std::min<Eigen::Index>(static_cast<Eigen::Index>((u[d] - uMin) / width), bins - 1);
        ++start[binOf[d] + 1];
    }
    for (Eigen::Index b = 0; b < bins; ++b)
        start[b + 1] += start[b];
    Vector centre(bins);
    for (Eigen::Index b = 0; b < bins; ++b)
        centre[b] = std::exp(uMin + (static_cast<double>(b) + 0.5) * width);
    // Counting sort by bin; gather column by column so reads and writes stay contiguous.
    std::vector<Eigen::Index> rowAt(D), next(start.begin(), start.end() - 1);
    for (Eigen::Index d = 0; d < D; ++d)
        rowAt[next[binOf[d]]++] = d;

    std::vector<Eigen::Index> used;
    for (Eigen::Index b = 0; b < bins; ++b)
        if (start[b + 1] > start[b])
            used.push_back(b);
    const auto terms = static_cast<Eigen::Index>(used.size()) * (order + 1);
    Matrix moments(r * r, terms); // column (bin, j) holds vec(M_bj)
    Matrix Zb, weighted, block;
    Vector offset, power;
    for (std::size_t ub = 0; ub < used.size(); ++ub) {
        const Eigen::Index b = used[ub], first = start[b], n = start[b + 1] - start[b];
        Zb.resize(n, r);
        offset.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::Index d = rowAt[first + i];
            Zb.row(i) = Z.row(d);
            offset[i] = lambda[d] - centre[b];
        }
        weighted.resize(n, r * (order + 1));
        power.setOnes(n);
        for (int j = 0; j <= order; ++j) {
            weighted.middleCols(j * r, r) = Zb.array().colwise() * power.array();
            power.array() *= offset.array();
        }
        block.noalias() = Zb.transpose() * weighted;
        for (int j = 0; j <= order; ++j)
            moments.col(static_cast<Eigen::Index>(ub) * (order + 1) + j) =
                block.middleCols(j * r, r).reshaped();
    }
    Matrix coefficients(terms, static_cast<Eigen::Index>(t2s.size()));
    for (std::size_t k = 0; k < t2s.size(); ++k)
        for (std::size_t ub = 0; ub < used.size(); ++ub) {
            const double inv = 1.0 / (t2s[k] + centre[used[ub]]);
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

double integrateLogDet(const RowMatrix& Z, const Vector& lambda, const Matrix& innerInv,
                       double logDetInner, double tailC, const W2QuadratureOptions& opt) {
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
        Z.rows() > opt.binAboveDim ? binnedGrams(Z, lambda, t2s, opt.binWidth, opt.taylorOrder)
                                   : exactGrams(Z, lambda, t2s);
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
    const Vector sqrt1 = a.psi.cwiseSqrt();
    const Vector lambda = a.psi.cwiseProduct(b.psi);

    const double base = (a.c - b.c).squaredNorm() + (sqrt1 - b.psi.cwiseSqrt()).squaredNorm() +
                        F1.squaredNorm() + F2.squaredNorm();

    const Eigen::Index K1 = F1.cols(), K2 = F2.cols();
    Matrix inner = Matrix::Identity(K1, K1); // I + F1^T Psi1^-1 F1
    const Matrix F1s = F1.array().colwise() / sqrt1.array();
    inner.noalias() += F1s.transpose() * F1s;
    const Eigen::LLT<Matrix> llt(inner);
    const Matrix L = llt.matrixL();
    const double logDetInner = 2.0 * L.diagonal().array().log().sum();
    const Matrix innerInv = llt.solve(Matrix::Identity(K1, K1));

    RowMatrix Z(F1.rows(), K2 + K1);
    Z.leftCols(K2) = F2.array().colwise() * sqrt1.array();
    Z.rightCols(K1) = F1s;
    // l(t) ~ c / t^2 for large t with c = tr(S1 S2) - tr(Psi1 Psi2).
    const double tailC = a.psi.dot(F2.rowwise().squaredNorm()) +
                         b.psi.dot(F1.rowwise().squaredNorm()) +
                         (F1.transpose() * F2).squaredNorm();

    const double cross = integrateLogDet(Z, lambda, innerInv, logDetInner, tailC, options);
    return std::sqrt(std::max(base - 2.0 * cross, 0.0));
}

} // namespace fa
