#include "core/models/Imputation.h"

#include "core/math/Rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fa {

std::vector<HiddenEntry> hideEntries(Matrix& rows, double fraction, std::uint64_t seed) {
    if (!(fraction >= 0.0 && fraction < 1.0))
        throw std::invalid_argument("the share of entries to hide must lie in [0, 1)");
    // Observed entries as row-major indices n D + d, shuffled; the first round(f M) are hidden.
    const Eigen::Index dim = rows.cols();
    std::vector<Eigen::Index> observed;
    for (Eigen::Index n = 0; n < rows.rows(); ++n)
        for (Eigen::Index d = 0; d < dim; ++d)
            if (!std::isnan(rows(n, d)))
                observed.push_back(n * dim + d);
    const auto count =
        static_cast<std::size_t>(std::llround(fraction * static_cast<double>(observed.size())));
    std::vector<HiddenEntry> hidden;
    if (count == 0)
        return hidden;
    Rng rng(seed);
    shuffle(observed, rng);
    observed.resize(count);
    std::sort(observed.begin(), observed.end());
    hidden.reserve(count);
    for (const Eigen::Index i : observed) {
        const Eigen::Index n = i / dim, d = i % dim;
        hidden.push_back({n, d, rows(n, d)});
        rows(n, d) = std::numeric_limits<double>::quiet_NaN();
    }
    return hidden;
}

Matrix imputeConditionalMean(const FAModel& model, const ConstMatrixRef& rows) {
    const Eigen::Index k = model.F.cols(), dim = rows.cols();
    if (model.F.rows() != dim || model.c.size() != dim || model.psi.size() != dim)
        throw std::invalid_argument("the model and the rows differ in dimension");
    Matrix out = rows;
    // §3.6: with A = I + F_Oᵀ Ψ_O⁻¹ F_O and b = F_Oᵀ Ψ_O⁻¹ (x_O - c_O), E[z | x_O] = A⁻¹ b and
    // E[x_M | x_O] = c_M + F_M A⁻¹ b. Buffers are made once, not per row.
    Matrix A(k, k);
    Vector b(k), m(k);
    Eigen::LLT<Matrix> llt(k);
    for (Eigen::Index n = 0; n < rows.rows(); ++n) {
        if (!rows.row(n).hasNaN())
            continue;
        A.setIdentity();
        b.setZero();
        for (Eigen::Index d = 0; d < dim; ++d) {
            const double x = rows(n, d);
            if (std::isnan(x))
                continue;
            const auto f = model.F.row(d).transpose();
            A.noalias() += (f / model.psi(d)) * f.transpose();
            b.noalias() += f * ((x - model.c(d)) / model.psi(d));
        }
        llt.compute(A);
        m = llt.solve(b);
        for (Eigen::Index d = 0; d < dim; ++d)
            if (std::isnan(rows(n, d)))
                out(n, d) = model.c(d) + model.F.row(d).dot(m);
    }
    return out;
}

Matrix imputeColumnMeans(const ConstMatrixRef& rows) {
    Matrix out = rows;
    for (Eigen::Index d = 0; d < rows.cols(); ++d) {
        double sum = 0.0;
        long count = 0;
        for (Eigen::Index n = 0; n < rows.rows(); ++n)
            if (!std::isnan(rows(n, d)))
                sum += rows(n, d), ++count;
        if (count == 0)
            throw std::invalid_argument("column " + std::to_string(d + 1) +
                                        " has nothing observed: no mean to fill it with");
        const double mean = sum / static_cast<double>(count);
        for (Eigen::Index n = 0; n < rows.rows(); ++n)
            if (std::isnan(rows(n, d)))
                out(n, d) = mean;
    }
    return out;
}

double imputationRmse(const ConstMatrixRef& imputed, const std::vector<HiddenEntry>& hidden) {
    if (hidden.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double total = 0.0;
    for (const HiddenEntry& h : hidden) {
        const double e = imputed(h.row, h.col) - h.value;
        total += e * e;
    }
    return std::sqrt(total / static_cast<double>(hidden.size()));
}

} // namespace fa
