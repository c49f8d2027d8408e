#include "core/models/Mppca.h"

#include "core/math/Rng.h"
#include "core/math/SymmetricEigen.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {

/// lse_n = m + log Σ_c exp(a_nc - m), m = max_c a_nc.
Vector logSumExp(const Matrix& a) {
    Vector out(a.rows());
    for (Eigen::Index n = 0; n < a.rows(); ++n) {
        const double m = a.row(n).maxCoeff();
        out(n) = m + std::log((a.row(n).array() - m).exp().sum());
    }
    return out;
}
} // namespace

Mppca::Mppca(const ConstMatrixRef& rows, const MppcaOptions& options) : m_options(options) {
    const Eigen::Index n = rows.rows(), dim = rows.cols();
    if (options.latent < 1 || options.latent >= dim)
        throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D");
    if (options.components < 1)
        throw std::invalid_argument("a mixture needs at least one component");
    if (n < Eigen::Index(options.components) * (options.latent + 2))
        throw std::invalid_argument("a mixture of C components needs at least C (K + 2) rows");
    if (!rows.allFinite())
        throw std::invalid_argument("the data contain a value that is not finite");
    if (!(options.sigmaFloor > 0.0 && options.sigmaFloor < 1.0))
        throw std::invalid_argument("the floor on sigma² must lie in (0, 1)");
    m_X = rows;
    const Matrix centred = m_X.rowwise() - m_X.colwise().mean();
    const double totalVariance = centred.squaredNorm() / static_cast<double>(n);
    if (!(totalVariance > 0.0))
        throw std::invalid_argument("every row is the same point: there is nothing to fit");
    m_floor = options.sigmaFloor * totalVariance / static_cast<double>(dim);
    m_components.resize(static_cast<std::size_t>(options.components));
    kmeansStart();
}

void Mppca::kmeansStart() {
    const Eigen::Index n = m_X.rows(), nc = m_options.components;
    Rng rng(m_options.seed);
    // k-means++: the first centre uniform, each next one ∝ squared distance to the nearest.
    Matrix centres(nc, m_X.cols());
    centres.row(0) = m_X.row(static_cast<Eigen::Index>(rng.uniform() * double(n)));
    Vector nearest = (m_X.rowwise() - centres.row(0)).rowwise().squaredNorm();
    for (Eigen::Index c = 1; c < nc; ++c) {
        const double total = nearest.sum();
        double u = rng.uniform() * total, acc = 0.0;
        Eigen::Index pick = n - 1;
        for (Eigen::Index i = 0; i < n; ++i) {
            acc += nearest(i);
            if (u < acc) {
                pick = i;
                break;
            }
        }
        centres.row(c) = m_X.row(pick);
        nearest = nearest.cwiseMin((m_X.rowwise() - centres.row(c)).rowwise().squaredNorm());
    }
    // Lloyd steps; an emptied cluster keeps its centre.
    std::vector<Eigen::Index> label(static_cast<std::size_t>(n));
    for (int step = 0; step <= m_options.lloydSteps; ++step) {
        for (Eigen::Index i = 0; i < n; ++i) {
            Eigen::Index best = 0;
            (centres.rowwise() - m_X.row(i)).rowwise().squaredNorm().minCoeff(&best);
            label[static_cast<std::size_t>(i)] = best;
            nearest(i) = (centres.row(best) - m_X.row(i)).squaredNorm();
        }
        if (step == m_options.lloydSteps)
            break;
        Matrix sums = Matrix::Zero(nc, m_X.cols());
        Vector counts = Vector::Zero(nc);
        for (Eigen::Index i = 0; i < n; ++i) {
            sums.row(label[static_cast<std::size_t>(i)]) += m_X.row(i);
            counts(label[static_cast<std::size_t>(i)]) += 1.0;
        }
        for (Eigen::Index c = 0; c < nc; ++c)
            if (counts(c) > 0.0)
                centres.row(c) = sums.row(c) / counts(c);
    }
    Matrix r = Matrix::Zero(n, nc);
    for (Eigen::Index i = 0; i < n; ++i)
        r(i, label[static_cast<std::size_t>(i)]) = 1.0;
    mStep(r, nearest);
}

Matrix Mppca::logJoint(const ConstMatrixRef& rows) const {
    const Eigen::Index n = rows.rows(), dim = rows.cols(), k = m_options.latent;
    Matrix a(n, static_cast<Eigen::Index>(m_components.size()));
    for (std::size_t c = 0; c < m_components.size(); ++c) {
        const PpcaModel& p = m_components[c].ppca;
        // §3.1: M = WᵀW + σ²I, log|C| = (D - K) log σ² + log|M|,
        // x̃ᵀC⁻¹x̃ = (‖x̃‖² - ‖L_M⁻¹Wᵀx̃‖²) / σ².
        const Matrix centred = rows.rowwise() - p.mu.transpose();
        Matrix M = p.W.transpose() * p.W;
        M.diagonal().array() += p.sigma2;
        const Eigen::LLT<Matrix> llt(M);
        const Matrix L = llt.matrixL();
        const Matrix projected = llt.matrixL().solve((centred * p.W).transpose());
        const double logDet = static_cast<double>(dim - k) * std::log(p.sigma2) +
                              2.0 * L.diagonal().array().log().sum();
        const Vector quad =
            (centred.rowwise().squaredNorm() - projected.colwise().squaredNorm().transpose()) /
            p.sigma2;
        a.col(static_cast<Eigen::Index>(c)) =
            (-0.5 * (static_cast<double>(dim) * kLog2Pi + logDet + quad.array()) +
             std::log(m_components[c].weight))
                .matrix();
    }
    return a;
}

void Mppca::mStep(const Matrix& r, const Vector& badness) {
    const Eigen::Index n = m_X.rows(), dim = m_X.cols(), k = m_options.latent;
    std::vector<bool> taken(static_cast<std::size_t>(n), false);
    for (std::size_t c = 0; c < m_components.size(); ++c) {
        MppcaComponent& comp = m_components[c];
        const auto col = static_cast<Eigen::Index>(c);
        const double nc = r.col(col).sum();
        if (!(nc >= static_cast<double>(k + 2))) {
            // Re-seed at the worst-fitted point not yet used, with no loadings and the average
            // variance per coordinate: a collapsing component would drive σ_c² to 0.
            Eigen::Index worst = -1;
            for (Eigen::Index i = 0; i < n; ++i)
                if (!taken[static_cast<std::size_t>(i)] &&
                    (worst < 0 || badness(i) > badness(worst)))
                    worst = i;
            taken[static_cast<std::size_t>(worst)] = true;
            comp.ppca.mu = m_X.row(worst).transpose();
            comp.ppca.W = Matrix::Zero(dim, k);
            comp.ppca.sigma2 = std::max(m_floor, m_floor / m_options.sigmaFloor);
            comp.weight = static_cast<double>(k + 2) / static_cast<double>(n);
            ++m_reseeded;
            continue;
        }
        comp.weight = nc / static_cast<double>(n);
        comp.ppca.mu = (m_X.transpose() * r.col(col)) / nc;
        const Matrix centred = m_X.rowwise() - comp.ppca.mu.transpose();
        const Matrix S =
            centred.transpose() * (centred.array().colwise() * r.col(col).array()).matrix() / nc;
        const SymmetricEigen eig = symmetricEigen(S); // ascending
        const Vector lambda = eig.values.tail(k).reverse();
        const double sigma2 = (S.trace() - lambda.sum()) / static_cast<double>(dim - k);
        comp.ppca.sigma2 = std::max(sigma2, m_floor);
        comp.ppca.W = eig.vectors.rightCols(k).rowwise().reverse() *
                      (lambda.array() - comp.ppca.sigma2).max(0.0).sqrt().matrix().asDiagonal();
    }
    double total = 0.0;
    for (const MppcaComponent& comp : m_components)
        total += comp.weight;
    for (MppcaComponent& comp : m_components)
        comp.weight /= total;
}

double Mppca::iterate() {
    const Matrix a = logJoint(m_X);
    const Vector lse = logSumExp(a);
    const double loglik = lse.mean();
    if (!std::isfinite(loglik)) {
        m_diverged = true;
        return loglik;
    }
    const Matrix r = (a.colwise() - lse).array().exp().matrix();
    mStep(r, -lse);
    if (m_iterations > 0)
        m_converged =
            std::abs(loglik - m_lastLoglik) < m_options.tolerance * (1.0 + std::abs(loglik));
    m_lastLoglik = loglik;
    ++m_iterations;
    return loglik;
}

double Mppca::loglikPerRow() const {
    return logSumExp(logJoint(m_X)).mean();
}

double Mppca::loglikPerRow(const ConstMatrixRef& rows) const {
    if (rows.cols() != m_X.cols())
        throw std::invalid_argument("held-out rows must have as many columns as the data");
    return logSumExp(logJoint(rows)).mean();
}

Matrix Mppca::responsibilities(const ConstMatrixRef& rows) const {
    const Matrix a = logJoint(rows);
    return (a.colwise() - logSumExp(a)).array().exp().matrix();
}

bool Mppca::floored() const {
    for (const MppcaComponent& comp : m_components)
        if (comp.ppca.sigma2 <= m_floor * (1.0 + 1e-12))
            return true;
    return false;
}

void Mppca::moments(Vector& mean, Matrix& covariance) const {
    mixtureMoments(m_components, mean, covariance);
}

void mixtureMoments(const std::vector<MppcaComponent>& components, Vector& mean,
                    Matrix& covariance) {
    const Eigen::Index dim = components.front().ppca.mu.size();
    mean = Vector::Zero(dim);
    covariance = Matrix::Zero(dim, dim);
    for (const MppcaComponent& comp : components) {
        const PpcaModel& p = comp.ppca;
        mean += comp.weight * p.mu;
        covariance += comp.weight * (p.W * p.W.transpose() + p.mu * p.mu.transpose());
        covariance.diagonal().array() += comp.weight * p.sigma2;
    }
    covariance -= mean * mean.transpose();
}

Matrix mixtureOfPieces(int dim, int components, int latent, int samples, double noise,
                       std::uint64_t seed, std::vector<MppcaComponent>* truth) {
    if (dim < 2 || latent < 1 || latent >= dim || components < 1 || samples < 1 || !(noise > 0.0))
        throw std::invalid_argument(
            "mixture data need D >= 2, 1 <= K < D, C >= 1, N >= 1 and positive noise");
    Rng rng(seed);
    std::vector<MppcaComponent> pieces(static_cast<std::size_t>(components));
    double total = 0.0;
    for (int c = 0; c < components; ++c) {
        MppcaComponent& piece = pieces[static_cast<std::size_t>(c)];
        piece.ppca.mu = 3.0 * rng.normalMatrix(dim, 1).col(0);
        const Eigen::HouseholderQR<Matrix> qr(rng.normalMatrix(dim, latent));
        const Matrix Q = qr.householderQ() * Matrix::Identity(dim, latent);
        Vector lengths(latent);
        for (int j = 0; j < latent; ++j)
            lengths(j) = rng.uniform(1.0, 3.0);
        piece.ppca.W = Q * lengths.asDiagonal();
        piece.ppca.sigma2 = noise;
        piece.weight = 1.0 + double(c) / double(components);
        total += piece.weight;
    }
    for (MppcaComponent& piece : pieces)
        piece.weight /= total;
    Matrix X(samples, dim);
    const double sd = std::sqrt(noise);
    for (int i = 0; i < samples; ++i) {
        double u = rng.uniform(), acc = 0.0;
        std::size_t c = pieces.size() - 1;
        for (std::size_t j = 0; j < pieces.size(); ++j) {
            acc += pieces[j].weight;
            if (u < acc) {
                c = j;
                break;
            }
        }
        const PpcaModel& p = pieces[c].ppca;
        const Vector z = rng.normalMatrix(latent, 1).col(0);
        const Vector eps = rng.normalMatrix(dim, 1).col(0);
        X.row(i) = (p.mu + p.W * z + sd * eps).transpose();
    }
    if (truth)
        *truth = std::move(pieces);
    return X;
}

} // namespace fa
