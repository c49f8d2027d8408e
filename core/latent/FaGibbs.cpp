#include "core/latent/FaGibbs.h"

#include "core/latent/McmcDiagnostics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fa {
namespace gibbs {

Matrix latentMeans(const Matrix& F, const Vector& psi, const Vector& c, const ConstMatrixRef& X) {
    const Eigen::Index k = F.cols();
    const Matrix A = F.array().colwise() / psi.array(); // Ψ⁻¹F
    const Eigen::LLT<Matrix> llt(Matrix::Identity(k, k) + F.transpose() * A);
    // m_nᵀ = (x_n - c)ᵀ A M⁻¹ as rows, M = I + FᵀA.
    const Matrix projected = (X * A).rowwise() - (c.transpose() * A);
    return llt.solve(projected.transpose()).transpose();
}

void drawLatents(const Matrix& F, const Vector& psi, const Vector& c, const ConstMatrixRef& X,
                 Rng& rng, Matrix& Z) {
    const Eigen::Index k = F.cols(), n = X.rows();
    Z = latentMeans(F, psi, c, X);
    // Each draw adds ε_nᵀ L⁻¹ with M = L Lᵀ (covariance L⁻ᵀL⁻¹ = M⁻¹).
    const Matrix A = F.array().colwise() / psi.array();
    const Eigen::LLT<Matrix> llt(Matrix::Identity(k, k) + F.transpose() * A);
    const Matrix Linv = llt.matrixL().solve(Matrix::Identity(k, k));
    Matrix noise(n, k);
    for (Eigen::Index j = 0; j < k; ++j)
        for (Eigen::Index i = 0; i < n; ++i)
            noise(i, j) = rng.normal();
    Z.noalias() += noise * Linv;
}

void latentPosterior(const Matrix& F, const Vector& psi, const Vector& c, const ConstVectorRef& x,
                     Vector& mean, Matrix& covariance) {
    const Eigen::Index k = F.cols();
    const Matrix A = F.array().colwise() / psi.array();
    const Eigen::LLT<Matrix> llt(Matrix::Identity(k, k) + F.transpose() * A);
    covariance = llt.solve(Matrix::Identity(k, k));
    mean = covariance * (A.transpose() * (x - c));
}

void loadingPosterior(const Matrix& ztz, const Vector& ztx, double psi,
                      const Vector& priorPrecision, Vector& mean, Matrix& precision) {
    precision = ztz / psi;
    precision.diagonal() += priorPrecision;
    mean = precision.llt().solve(ztx / psi);
}

std::pair<double, double> noisePosterior(double sumSquaredResidual, Eigen::Index n, double a0,
                                         double b0) {
    return {a0 + 0.5 * static_cast<double>(n), b0 + 0.5 * sumSquaredResidual};
}

} // namespace gibbs

namespace {

bool positiveFinite(double v) {
    return v > 0.0 && std::isfinite(v);
}

/// The type-7 (linear interpolation) quantile of sorted values.
double quantile(const std::vector<double>& sorted, double p) {
    const double h = p * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}
} // namespace

FaGibbs::FaGibbs(const ConstMatrixRef& X, const FaGibbsOptions& options) : m_options(options) {
    const Eigen::Index n = X.rows(), dim = X.cols(), k = options.latent;
    if (k < 1 || k >= dim)
        throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D");
    if (n <= k + 1)
        throw std::invalid_argument("Gibbs sampling needs more than K + 1 rows");
    if (options.chains < 1 || options.chains > 64)
        throw std::invalid_argument("the number of chains must lie between 1 and 64");
    if (options.burnIn < 0 || options.thin < 1)
        throw std::invalid_argument("the burn-in must be >= 0 and the thinning >= 1");
    if (!positiveFinite(options.priorShape) || !positiveFinite(options.priorScale) ||
        !positiveFinite(options.loadingPrecision))
        throw std::invalid_argument("the prior parameters must be positive and finite");
    if (options.prior == FaPrior::None)
        throw std::invalid_argument("maximum likelihood is not a prior to sample: Gibbs takes "
                                    "the jeffreys (improper), conjugate or independent prior");
    const ConjugateHyper& h = options.conjugate;
    if (!positiveFinite(h.nu0) || !positiveFinite(h.tau0) || !positiveFinite(h.lambda0) ||
        !(options.psiFloor > 0.0 && options.psiFloor < 1.0))
        throw std::invalid_argument("the conjugate prior needs positive, finite ν₀, τ₀² and λ₀, "
                                    "and the floor on ψ must lie in (0, 1)");
    if (!X.allFinite())
        throw std::invalid_argument("the data contain a value that is not finite");
    m_X = X;
    const Vector mean = X.colwise().mean().transpose();
    m_varX = (X.rowwise() - mean.transpose()).colwise().squaredNorm().transpose() /
             static_cast<double>(n);
    for (Eigen::Index d = 0; d < dim; ++d)
        if (!(m_varX(d) > 0.0))
            throw std::invalid_argument("column " + std::to_string(d + 1) +
                                        " is constant: it has no variance to explain");

    // Dispersed starts: random F with column-scaled entries, ψ = v_d U(0.5, 1), c = x̄.
    for (int i = 0; i < options.chains; ++i) {
        Chain chain{Matrix(n, k), Matrix(dim, k), mean, Vector(dim),
                    Rng(deriveSeed(options.seed, static_cast<std::uint64_t>(i)))};
        for (Eigen::Index d = 0; d < dim; ++d) {
            const double scale = std::sqrt(m_varX(d) / static_cast<double>(k));
            for (Eigen::Index j = 0; j < k; ++j)
                chain.F(d, j) = scale * chain.rng.normal();
            chain.psi(d) = m_varX(d) * chain.rng.uniform(0.5, 1.0);
        }
        m_chains.push_back(std::move(chain));
    }

    const Eigen::Index entries = dim * (dim + 1) / 2;
    if (entries <= options.maxTracked) {
        for (Eigen::Index i = 0; i < dim; ++i)
            for (Eigen::Index j = i; j < dim; ++j)
                m_tracked.emplace_back(i, j);
    } else {
        for (Eigen::Index i = 0; i < dim && long(m_tracked.size()) < options.maxTracked; ++i)
            m_tracked.emplace_back(i, i);
        for (Eigen::Index i = 0; i < dim; ++i)
            for (Eigen::Index j = i + 1; j < dim && long(m_tracked.size()) < options.maxTracked;
                 ++j)
                m_tracked.emplace_back(i, j);
    }
    m_draws.assign(static_cast<std::size_t>(options.chains),
                   std::vector<std::vector<double>>(m_tracked.size()));
    m_sumC = Matrix::Zero(dim, dim);
    m_sumMean = Vector::Zero(dim);
    m_floored.assign(static_cast<std::size_t>(dim), false);
}

void FaGibbs::sweepChain(Chain& ch) {
    const Eigen::Index n = m_X.rows(), dim = m_X.cols(), k = m_options.latent;
    // 1. Every z_n | rest.
    gibbs::drawLatents(ch.F, ch.psi, ch.c, m_X, ch.rng, ch.Z);
    if (m_options.prior != FaPrior::Independent) { // 2 and 3 as one joint draw (§2.5)
        const gibbs::RowPosterior post =
            gibbs::jointRowPosterior(ch.Z, m_X, m_varX, m_options.prior, m_options.conjugate);
        if (!post.valid) {
            m_diverged = true; // Z̃ᵀZ̃ singular: the chain keeps its last (finite) state
            return;
        }
        const Vector floor = m_options.psiFloor * m_varX;
        for (const Eigen::Index d : gibbs::drawJointRows(post, floor, ch.rng, ch.F, ch.c, ch.psi))
            m_floored[static_cast<std::size_t>(d)] = true;
        return;
    }
    // 2. Every [f_d; c_d] | rest from the shared Z̃ᵀZ̃ and Z̃ᵀX, Z̃ = [Z, 1].
    Matrix ztz(k + 1, k + 1), ztx(k + 1, dim);
    ztz.topLeftCorner(k, k).noalias() = ch.Z.transpose() * ch.Z;
    const Vector zSum = ch.Z.colwise().sum().transpose();
    ztz.topRightCorner(k, 1) = zSum;
    ztz.bottomLeftCorner(1, k) = zSum.transpose();
    ztz(k, k) = static_cast<double>(n);
    ztx.topRows(k).noalias() = ch.Z.transpose() * m_X;
    ztx.row(k) = m_X.colwise().sum();
    Vector prior(k + 1), mean, eps(k + 1);
    Matrix precision;
    for (Eigen::Index d = 0; d < dim; ++d) {
        prior.head(k).setConstant(m_options.loadingPrecision / m_varX(d));
        prior(k) = 0.0; // c_d flat
        gibbs::loadingPosterior(ztz, ztx.col(d), ch.psi(d), prior, mean, precision);
        const Eigen::LLT<Matrix> llt(precision);
        for (Eigen::Index j = 0; j <= k; ++j)
            eps(j) = ch.rng.normal();
        const Vector draw = mean + llt.matrixU().solve(eps); // covariance L⁻ᵀL⁻¹ = P⁻¹
        ch.F.row(d) = draw.head(k).transpose();
        ch.c(d) = draw(k);
    }
    // 3. Every ψ_d | rest.
    const Vector ssr = ((m_X - ch.Z * ch.F.transpose()).rowwise() - ch.c.transpose())
                           .colwise()
                           .squaredNorm()
                           .transpose();
    for (Eigen::Index d = 0; d < dim; ++d) {
        const auto [shape, rate] = gibbs::noisePosterior(ssr(d), n, m_options.priorShape,
                                                         m_options.priorScale * m_varX(d));
        ch.psi(d) = rate / ch.rng.gamma(shape);
    }
}

void FaGibbs::sweep() {
    for (Chain& ch : m_chains) {
        sweepChain(ch);
        if (!ch.F.allFinite() || !ch.psi.allFinite() || !ch.c.allFinite())
            m_diverged = true;
    }
    ++m_sweeps;
    if (m_diverged || m_sweeps <= m_options.burnIn ||
        (m_sweeps - m_options.burnIn) % m_options.thin != 0)
        return;
    for (std::size_t i = 0; i < m_chains.size(); ++i) {
        const Chain& ch = m_chains[i];
        m_sumC.triangularView<Eigen::Upper>() += ch.F * ch.F.transpose();
        m_sumC.diagonal() += ch.psi;
        m_sumMean += ch.c;
        for (std::size_t e = 0; e < m_tracked.size(); ++e) {
            const auto [r, c] = m_tracked[e];
            const double value = ch.F.row(r).dot(ch.F.row(c)) + (r == c ? ch.psi(r) : 0.0);
            m_draws[i][e].push_back(value);
        }
    }
    ++m_kept;
}

Matrix FaGibbs::meanCovariance() const {
    Matrix C;
    if (m_kept > 0) {
        C = m_sumC / static_cast<double>(m_kept * long(m_chains.size()));
    } else {
        C = Matrix::Zero(m_X.cols(), m_X.cols());
        for (const Chain& ch : m_chains) {
            C.triangularView<Eigen::Upper>() += ch.F * ch.F.transpose();
            C.diagonal() += ch.psi;
        }
        C /= static_cast<double>(m_chains.size());
    }
    return C.selfadjointView<Eigen::Upper>();
}

Vector FaGibbs::meanMean() const {
    if (m_kept > 0)
        return m_sumMean / static_cast<double>(m_kept * long(m_chains.size()));
    Vector c = Vector::Zero(m_X.cols());
    for (const Chain& ch : m_chains)
        c += ch.c;
    return c / static_cast<double>(m_chains.size());
}

double FaGibbs::loglik(const ConstMatrixRef& rows) const {
    const Eigen::LLT<Matrix> llt(meanCovariance());
    if (llt.info() != Eigen::Success)
        return std::numeric_limits<double>::quiet_NaN();
    const Matrix centred = (rows.rowwise() - meanMean().transpose()).transpose();
    const double quad = llt.matrixL().solve(centred).squaredNorm();
    const Matrix L = llt.matrixL();
    const double logDet = 2.0 * L.diagonal().array().log().sum();
    const auto dim = static_cast<double>(rows.cols());
    return -0.5 * (dim * kLog2Pi + logDet + quad / static_cast<double>(rows.rows()));
}

double FaGibbs::loglikPerRow() const {
    return loglik(m_X);
}

double FaGibbs::loglikPerRow(const ConstMatrixRef& rows) const {
    if (rows.cols() != m_X.cols())
        throw std::invalid_argument("held-out rows must have as many columns as the data");
    return loglik(rows);
}

GibbsEntrySummary FaGibbs::summarise(std::size_t entry) const {
    GibbsEntrySummary s;
    std::tie(s.row, s.col) = m_tracked.at(entry);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.mean = s.lower = s.upper = s.rhat = s.ess = nan;
    if (m_kept == 0)
        return s;
    std::vector<std::vector<double>> chains;
    std::vector<double> pooled;
    for (const auto& chain : m_draws) {
        chains.push_back(chain[entry]);
        pooled.insert(pooled.end(), chain[entry].begin(), chain[entry].end());
    }
    double sum = 0.0;
    for (double v : pooled)
        sum += v;
    s.mean = sum / static_cast<double>(pooled.size());
    std::sort(pooled.begin(), pooled.end());
    s.lower = quantile(pooled, 0.025);
    s.upper = quantile(pooled, 0.975);
    if (m_kept >= 4) {
        s.rhat = splitRhat(chains);
        s.ess = effectiveSampleSize(chains);
    }
    return s;
}

std::vector<GibbsEntrySummary> FaGibbs::summary() const {
    std::vector<GibbsEntrySummary> out;
    for (std::size_t e = 0; e < m_tracked.size(); ++e)
        out.push_back(summarise(e));
    return out;
}

FAModel FaGibbs::chainState(int chain) const {
    const Chain& ch = m_chains.at(static_cast<std::size_t>(chain));
    return {ch.c, ch.F, ch.psi};
}

std::vector<Eigen::Index> FaGibbs::flooredColumns() const {
    std::vector<Eigen::Index> out;
    for (std::size_t d = 0; d < m_floored.size(); ++d)
        if (m_floored[d])
            out.push_back(static_cast<Eigen::Index>(d));
    return out;
}

FitStatus FaGibbs::status() const {
    if (m_diverged)
        return FitStatus::Diverged;
    return flooredColumns().empty() ? FitStatus::Running : FitStatus::PsiFloor;
}

} // namespace fa
