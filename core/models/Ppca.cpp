#include "core/models/Ppca.h"

#include "core/math/Rng.h"
#include "core/math/TruncatedSvd.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace fa {
namespace {

void checkShape(Eigen::Index n, Eigen::Index dim, int latent) {
    if (latent < 1 || latent >= dim)
        throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D");
    if (n <= latent)
        throw std::invalid_argument("PPCA needs more rows than latent dimensions");
}

/// A row's observed part (docs/maths/latent.md §3.3): its non-NaN coordinates, W's rows there and
/// x − μ there. No coordinate observed: `obs` is empty and the row says nothing.
struct ObservedPart {
    std::vector<Eigen::Index> obs;
    Matrix Wo;
    Vector xo;
};

ObservedPart observedPart(const PpcaModel& m, const ConstVectorRef& row) {
    ObservedPart p;
    for (Eigen::Index d = 0; d < row.size(); ++d)
        if (!std::isnan(row(d)))
            p.obs.push_back(d);
    const auto dn = static_cast<Eigen::Index>(p.obs.size());
    p.Wo.resize(dn, m.W.cols());
    p.xo.resize(dn);
    for (Eigen::Index i = 0; i < dn; ++i) {
        const Eigen::Index d = p.obs[static_cast<std::size_t>(i)];
        p.Wo.row(i) = m.W.row(d);
        p.xo(i) = row(d) - m.mu(d);
    }
    return p;
}
} // namespace

FAModel PpcaModel::asFa() const {
    return {mu, W, Vector::Constant(W.rows(), sigma2)};
}

PpcaModel ppcaClosedForm(const ConstMatrixRef& rows, int latent) {
    const Eigen::Index n = rows.rows(), dim = rows.cols();
    checkShape(n, dim, latent);
    if (!rows.allFinite())
        throw std::invalid_argument("the closed form needs complete rows of finite numbers");
    PpcaModel m;
    m.mu = rows.colwise().mean().transpose();
    const Matrix centred = (rows.rowwise() - m.mu.transpose()) / std::sqrt(double(n));
    const PrincipalAxes axes = principalAxes(centred, latent);
    const Vector lambda = axes.s.array().square();
    m.sigma2 = (centred.squaredNorm() - lambda.sum()) / static_cast<double>(dim - latent);
    if (!(m.sigma2 > 0.0))
        throw std::invalid_argument("the data lie in a K-dimensional subspace: σ² would be 0");
    m.W = axes.V * (lambda.array() - m.sigma2).max(0.0).sqrt().matrix().asDiagonal();
    return m;
}

double ppcaLoglikPerRow(const PpcaModel& m, const ConstMatrixRef& rows) {
    const Eigen::Index k = m.W.cols(), dim = m.W.rows();
    // One row's ℓ from its observed loadings W_O and centred values x̃_O, with M = W_OᵀW_O + σ²I:
    // log|C_O| = (|O| - K) log σ² + log|M|, x̃ᵀC_O⁻¹x̃ = (‖x̃‖² - ‖L_M⁻¹W_Oᵀx̃‖²) / σ² (§3.1).
    auto term = [&](const Matrix& L, double squaredNorm, double projected, Eigen::Index observed) {
        const double logDet = static_cast<double>(observed - k) * std::log(m.sigma2) +
                              2.0 * L.diagonal().array().log().sum();
        return -0.5 * (static_cast<double>(observed) * kLog2Pi + logDet +
                       (squaredNorm - projected) / m.sigma2);
    };
    auto choleskyL = [&](const Matrix& W) {
        Matrix M = W.transpose() * W;
        M.diagonal().array() += m.sigma2;
        return Matrix(Eigen::LLT<Matrix>(M).matrixL());
    };
    // Complete rows share one M: all of them in one product.
    std::vector<Eigen::Index> complete, partial;
    for (Eigen::Index n = 0; n < rows.rows(); ++n)
        (rows.row(n).array().isNaN().any() ? partial : complete).push_back(n);
    double total = 0.0;
    long counted = 0;
    if (!complete.empty()) {
        const Matrix L = choleskyL(m.W);
        Matrix X(static_cast<Eigen::Index>(complete.size()), dim);
        for (std::size_t i = 0; i < complete.size(); ++i)
            X.row(static_cast<Eigen::Index>(i)) = rows.row(complete[i]) - m.mu.transpose();
        const Matrix U = L.triangularView<Eigen::Lower>().solve(m.W.transpose() * X.transpose());
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            total += term(L, X.row(i).squaredNorm(), U.col(i).squaredNorm(), dim);
        counted += X.rows();
    }
    for (const Eigen::Index n : partial) {
        const ObservedPart p = observedPart(m, rows.row(n).transpose());
        if (p.obs.empty())
            continue;
        const Matrix L = choleskyL(p.Wo);
        const Vector u = L.triangularView<Eigen::Lower>().solve(p.Wo.transpose() * p.xo);
        total += term(L, p.xo.squaredNorm(), u.squaredNorm(), p.xo.size());
        ++counted;
    }
    return counted > 0 ? total / static_cast<double>(counted)
                       : std::numeric_limits<double>::quiet_NaN(); // nothing observed: no score
}

PpcaEm::PpcaEm(const ConstMatrixRef& rows, const PpcaOptions& options)
    : m_options(options), m_rows(rows) {
    const Eigen::Index n = rows.rows(), dim = rows.cols();
    checkShape(n, dim, options.latent);
    m_model.mu = Vector::Zero(dim);
    double variance = 0.0;
    for (Eigen::Index d = 0; d < dim; ++d) {
        double sum = 0.0, sq = 0.0;
        long count = 0;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double x = rows(i, d);
            if (std::isnan(x)) {
                if (!options.missingValues)
                    throw std::invalid_argument(
                        "row " + std::to_string(i + 1) + ", column " + std::to_string(d + 1) +
                        " is missing; missing values are handled only when asked for");
                continue;
            }
            if (!std::isfinite(x))
                throw std::invalid_argument("the data contain an infinite value");
            sum += x;
            ++count;
        }
        if (count <= options.latent)
            throw std::invalid_argument("column " + std::to_string(d + 1) + " is observed in " +
                                        std::to_string(count) +
                                        " rows, too few to estimate (more than K needed)");
        m_model.mu(d) = sum / static_cast<double>(count);
        for (Eigen::Index i = 0; i < n; ++i)
            if (!std::isnan(rows(i, d)))
                sq += (rows(i, d) - m_model.mu(d)) * (rows(i, d) - m_model.mu(d));
        variance += sq / static_cast<double>(count);
        m_anyMissing = m_anyMissing || count < n;
    }
    Rng rng(options.seed);
    m_model.W = rng.normalMatrix(dim, options.latent);
    m_model.sigma2 = variance / static_cast<double>(dim);
    m_meanVariance = m_model.sigma2;
    for (Eigen::Index i = 0; i < n; ++i)
        m_counted += rows.row(i).array().isNaN().all() ? 0 : 1;
    if (const auto& p = options.prior; p && !(p->alpha >= 0.0 && p->shape > 0.0 && p->scale > 0.0 &&
                                              std::isfinite(p->alpha + p->shape + p->scale)))
        throw std::invalid_argument("PPCA's prior needs α >= 0 and positive a₀, b₀ (all finite)");
}

double PpcaEm::logPriorPerRow() const {
    if (!m_options.prior)
        return 0.0;
    // §3.5, up to a constant: -(α/2)‖W‖² - (a₀ + 1) log σ² - b₀ v̄ / σ².
    const PpcaPrior& p = *m_options.prior;
    const double s2 = m_model.sigma2;
    return (-0.5 * p.alpha * m_model.W.squaredNorm() - (p.shape + 1.0) * std::log(s2) -
            p.scale * m_meanVariance / s2) /
           static_cast<double>(m_counted);
}

double PpcaEm::ridge() const {
    return m_options.prior ? m_options.prior->alpha * m_model.sigma2 : 0.0;
}

double PpcaEm::noiseUpdate(double residuals, double count) const {
    if (!m_options.prior)
        return residuals / count;
    // §3.5: σ² = (R + 2 b₀ v̄) / (count + 2 a₀ + 2), the mode of the σ² part of the M step.
    const PpcaPrior& p = *m_options.prior;
    return (residuals + 2.0 * p.scale * m_meanVariance) / (count + 2.0 * p.shape + 2.0);
}

double PpcaEm::iterate() {
    double before = loglikPerRow();
    if (m_options.prior)
        before += logPriorPerRow();
    if (m_options.missingValues)
        iterateMissing();
    else
        iterateComplete();
    if (!m_model.W.allFinite() || !(m_model.sigma2 > 0.0) || !std::isfinite(m_model.sigma2))
        m_diverged = true;
    ++m_iterations;
    return before;
}

void PpcaEm::iterateComplete() {
    // §3.2: E: M = WᵀW + σ²I, E[z_n] = M⁻¹Wᵀx̃_n, E[z_n z_nᵀ] = σ²M⁻¹ + E[z_n]E[z_n]ᵀ;
    // M: W = S_xz S_zz⁻¹, σ² = [Σ‖x̃_n‖² - 2 tr(WᵀS_xz) + tr(WᵀW S_zz)] / (N D). S never formed,
    // nor the centred rows x̃_n = x_n − μ all at once: they are made a block of rows at a time.
    const auto n = static_cast<double>(m_rows.rows());
    const auto dim = static_cast<double>(m_rows.cols());
    const Eigen::Index k = m_model.W.cols();
    Matrix M = m_model.W.transpose() * m_model.W;
    M.diagonal().array() += m_model.sigma2;
    const Matrix Minv = M.llt().solve(Matrix::Identity(k, k));
    const Matrix WM = m_model.W * Minv;
    Matrix szz = n * m_model.sigma2 * Minv;
    Matrix sxz = Matrix::Zero(m_rows.cols(), k);
    double squares = 0.0;
    constexpr Eigen::Index kBlock = 2048;
    for (Eigen::Index first = 0; first < m_rows.rows(); first += kBlock) {
        const Eigen::Index count = std::min(kBlock, m_rows.rows() - first);
        const Matrix X = m_rows.middleRows(first, count).rowwise() - m_model.mu.transpose();
        const Matrix Z = X * WM;
        szz.noalias() += Z.transpose() * Z;
        sxz.noalias() += X.transpose() * Z;
        squares += X.squaredNorm();
    }
    // §3.5: W = S_xz (S_zz + α σ²_old I)⁻¹ (α = 0 without a prior: maximum likelihood).
    Matrix shrunk = szz;
    shrunk.diagonal().array() += ridge();
    const Matrix W = shrunk.llt().solve(sxz.transpose()).transpose();
    m_model.sigma2 = noiseUpdate(squares - 2.0 * (W.array() * sxz.array()).sum() +
                                     ((W.transpose() * W).array() * szz.array()).sum(),
                                 n * dim);
    m_model.W = W;
}

void PpcaEm::iterateMissing() {
    // §3.3: the missing coordinates of each row integrated out; the mean estimated with W.
    const Eigen::Index n = m_rows.rows(), dim = m_rows.cols(), k = m_model.W.cols();
    const PpcaModel& old = m_model;
    std::vector<Matrix> ezz(static_cast<std::size_t>(dim), Matrix::Zero(k + 1, k + 1));
    Matrix rhs = Matrix::Zero(k + 1, dim);
    std::vector<Vector> means(static_cast<std::size_t>(n));
    std::vector<Matrix> covs(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) {
        const ObservedPart p = observedPart(old, m_rows.row(i).transpose());
        if (p.obs.empty())
            continue;
        const Matrix& Wo = p.Wo;
        Matrix Mn = Wo.transpose() * Wo;
        Mn.diagonal().array() += old.sigma2;
        const Eigen::LLT<Matrix> llt(Mn);
        Vector m = llt.solve(Wo.transpose() * p.xo);
        Matrix V = old.sigma2 * llt.solve(Matrix::Identity(k, k));
        Matrix moment(k + 1, k + 1); // E[[z; 1][z; 1]ᵀ]
        moment.topLeftCorner(k, k) = V + m * m.transpose();
        moment.topRightCorner(k, 1) = m;
        moment.bottomLeftCorner(1, k) = m.transpose();
        moment(k, k) = 1.0;
        for (const Eigen::Index d : p.obs) {
            ezz[static_cast<std::size_t>(d)] += moment;
            rhs.col(d).head(k) += m * m_rows(i, d);
            rhs(k, d) += m_rows(i, d);
        }
        means[static_cast<std::size_t>(i)] = std::move(m);
        covs[static_cast<std::size_t>(i)] = std::move(V);
    }
    PpcaModel next;
    next.W.resize(dim, k);
    next.mu.resize(dim);
    // §3.5: the prior adds α σ²_old to the loadings' block (μ_d is flat).
    const double alphaSigma2 = ridge();
    for (Eigen::Index d = 0; d < dim; ++d) {
        Matrix& system = ezz[static_cast<std::size_t>(d)];
        system.diagonal().head(k).array() += alphaSigma2;
        const Vector wm = system.llt().solve(rhs.col(d));
        next.W.row(d) = wm.head(k).transpose();
        next.mu(d) = wm(k);
    }
    double total = 0.0;
    long count = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const Vector& m = means[static_cast<std::size_t>(i)];
        if (m.size() == 0)
            continue;
        const Matrix& V = covs[static_cast<std::size_t>(i)];
        for (Eigen::Index d = 0; d < dim; ++d) {
            if (std::isnan(m_rows(i, d)))
                continue;
            const Vector w = next.W.row(d).transpose();
            const double r = m_rows(i, d) - next.mu(d) - w.dot(m);
            total += r * r + w.dot(V * w);
            ++count;
        }
    }
    next.sigma2 = noiseUpdate(total, static_cast<double>(count));
    m_model = std::move(next);
}

FitStatus PpcaEm::status() const {
    return m_diverged ? FitStatus::Diverged : FitStatus::Running;
}

} // namespace fa
