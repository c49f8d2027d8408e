#include "core/fa/BatchFA.h"

#include "core/math/SymmetricEigen.h"
#include "core/math/TruncatedSvd.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {

constexpr double kSmall = 1e-12;

/// The leading K squared singular values s2 and left singular vectors U of the scaled data
/// Psi^-1/2 X_c / sqrt(N), and what they leave unexplained (|scaled|^2 - sum s2).
struct Spectrum {
    Vector s2;
    Matrix U;
    double unexplained = 0.0;
};

/// The sample covariance S = X_c X_c^T / N, both triangles.
Matrix sampleCovariance(const Matrix& centered) {
    const Eigen::Index D = centered.rows();
    Matrix S;
    S.setZero(D, D);
    S.selfadjointView<Eigen::Lower>().rankUpdate(centered,
                                                 1.0 / static_cast<double>(centered.cols()));
    S = S.selfadjointView<Eigen::Lower>();
    return S;
}

/// The spectrum from the Gram matrix Psi^-1/2 S Psi^-1/2: its eigenvalues are s2, its
/// eigenvectors U and its trace |scaled|^2.
void gramSpectrum(const Matrix& S, const Vector& sqrtPsi, Eigen::Index K, Spectrum& out) {
    const Vector inv = sqrtPsi.cwiseInverse();
    const Matrix G = inv.asDiagonal() * S * inv.asDiagonal();
    const SymmetricEigen eig = symmetricEigen(G); // ascending eigenvalues
    out.s2 = eig.values.tail(K).reverse().cwiseMax(0.0);
    out.U = eig.vectors.rightCols(K).rowwise().reverse();
    out.unexplained = G.trace() - out.s2.sum();
}

/// The spectrum from an SVD (randomised or exact) of the scaled data, formed in `scaled`; false
/// when cancelled (the SVD may have stopped half-way: not used).
bool svdSpectrum(const Matrix& centered, const Vector& sqrtPsi, Eigen::Index K,
                 const BatchFAOptions& options, Rng& rng, Matrix& scaled, Spectrum& out) {
    const double sqrtN = std::sqrt(static_cast<double>(centered.cols()));
    scaled = centered.array().colwise() / (sqrtPsi.array() * sqrtN);
    const TruncatedSvd svd = options.svd == SvdMethod::Randomized
                                 ? randomizedSvd(scaled, static_cast<int>(K), options.iteratedPower,
                                                 options.oversamples, rng, options.cancel)
                                 : exactSvd(scaled, static_cast<int>(K));
    if (options.cancel && options.cancel->load())
        return false;
    out.s2 = svd.s.array().square();
    out.U = svd.U;
    out.unexplained = scaled.squaredNorm() - out.s2.sum();
    return true;
}

} // namespace

BatchFAResult fitBatchFA(const ConstMatrixRef& X, const BatchFAOptions& options) {
    const Eigen::Index D = X.rows(), N = X.cols(), K = options.latent;
    if (N < 2)
        throw std::invalid_argument("batch FA needs at least two samples");
    if (K < 1 || K >= D)
        throw std::invalid_argument("latent K must satisfy 1 <= K < D");

    BatchFAResult result;
    const Vector mean = X.rowwise().mean();
    const Matrix centered = X.colwise() - mean;
    const Vector variance = centered.rowwise().squaredNorm() / static_cast<double>(N);
    const double llConst = static_cast<double>(D) * kLog2Pi + static_cast<double>(K);

    if (options.startPsi.size() != 0 && options.startPsi.size() != D)
        throw std::invalid_argument("the starting psi must have one entry per coordinate");
    Vector psi = options.startPsi.size() == D ? options.startPsi : Vector::Ones(D);
    Matrix F = Matrix::Zero(D, K);
    // The exact SVD with more samples than coordinates goes through the D x D Gram matrix:
    // scaled scaled^T = Psi^-1/2 S Psi^-1/2 with S the sample covariance, formed once, so an
    // iteration is one D x D symmetric eigensolve instead of an SVD of the D x N data (at
    // D = 1000, N = 10^5 about 0.5 s instead of minutes). The same maths: the squared singular
    // values are the eigenvalues, U the eigenvectors, and |scaled|^2 the trace.
    const bool viaGram = options.svd == SvdMethod::Exact && N >= D;
    const Matrix S = viaGram ? sampleCovariance(centered) : Matrix();
    Matrix scaled(viaGram ? 0 : D, viaGram ? 0 : N);
    Spectrum spectrum;
    const Vector& s2 = spectrum.s2;
    Rng rng(options.seed);
    double oldLl = -std::numeric_limits<double>::infinity();
    for (int it = 0; it < options.maxIter; ++it) {
        if (options.cancel && options.cancel->load()) {
            result.cancelled = true;
            break;
        }
        const Vector sqrtPsi = psi.array().sqrt() + kSmall;
        if (viaGram) {
            gramSpectrum(S, sqrtPsi, K, spectrum);
        } else if (!svdSpectrum(centered, sqrtPsi, K, options, rng, scaled, spectrum)) {
            result.cancelled = true;
            break;
        }
        // F = sqrt(psi) .* U sqrt(max(s^2 - 1, 0)): the optimal loadings for this psi.
        F = spectrum.U * (s2.array() - 1.0).max(0.0).sqrt().matrix().asDiagonal();
        F.array().colwise() *= sqrtPsi.array();
        double ll =
            llConst + s2.array().log().sum() + spectrum.unexplained + psi.array().log().sum();
        ll *= -static_cast<double>(N) / 2.0;
        result.logLikelihood.push_back(ll);
        result.iterations = it + 1;
        if (ll - oldLl < options.tol) {
            result.converged = true;
            break;
        }
        oldLl = ll;
        psi = (variance - F.rowwise().squaredNorm()).cwiseMax(options.psiFloor);
    }
    result.model = FAModel{mean, F, psi};
    return result;
}

BatchFit::BatchFit(const ConstMatrixRef& X, const BatchFAOptions& options)
    : m_result(fitBatchFA(X, options)) {}

FitStatus BatchFit::status() const {
    if (m_result.cancelled)
        return FitStatus::Failed;
    const FAModel& m = m_result.model;
    if (!std::isfinite(m.c.sum() + m.F.sum() + m.psi.sum()))
        return FitStatus::Diverged;
    return FitStatus::Running;
}

std::string storedSamplesTooLarge(long samples, double bytes) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "batch FA would keep all %ld samples (%.1f GB) in memory (at most %.0f GB): "
                  "lower the samples or turn batch FA off",
                  samples, bytes / 1e9, kMaxStoredBytes / 1e9);
    return text;
}

} // namespace fa
