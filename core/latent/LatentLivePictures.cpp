// LatentLive's pictures (docs/maths/images.md): a few fitting rows, their fills E[x_miss | x_obs]
// (docs/maths/latent.md §3.6) or reconstructions c + F E[z | x], and the fit's mean, loadings and
// Ψ, one picture each. O(shown · D K² + D K²) per snapshot: nothing D x D, no pass over the rows.
#include "core/latent/FaBatchEm.h"
#include "core/latent/FaGibbs.h"
#include "core/latent/LatentLive.h"
#include "core/models/Imputation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace fa {
namespace {

/// F in canonical rotation (FaBatchEm.h), its columns reordered by decreasing norm.
Matrix loadingsByNorm(const FAModel& fa) {
    const Matrix F = canonicalLoadings(fa.F, fa.psi);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(F.cols()));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::stable_sort(order.begin(), order.end(), [&F](Eigen::Index a, Eigen::Index b) {
        return F.col(a).squaredNorm() > F.col(b).squaredNorm();
    });
    Matrix out(F.rows(), F.cols());
    for (std::size_t k = 0; k < order.size(); ++k)
        out.col(static_cast<Eigen::Index>(k)) = F.col(order[k]);
    return out;
}

} // namespace

void LatentLive::preparePictures() {
    if (!m_data.image.isImage())
        return;
    const Matrix& X = m_data.train;
    const Eigen::Index n = X.rows();
    const Eigen::Index shown = std::min<Eigen::Index>(n, LatentLiveSnapshot::Pictures::kShown);
    for (Eigen::Index k = 0; k < shown; ++k) // spread evenly over the fitting rows
        m_pictureRows.push_back(n * k / shown);
    m_pixelVariance.resize(X.cols()); // over each column's observed pixels (ddof 0)
    for (Eigen::Index d = 0; d < X.cols(); ++d) {
        double count = 0.0, sum = 0.0, squares = 0.0;
        for (Eigen::Index i = 0; i < n; ++i)
            if (const double v = X(i, d); !std::isnan(v))
                count += 1.0, sum += v, squares += v * v;
        const double mean = sum / count;
        m_pixelVariance(d) = std::max(0.0, squares / count - mean * mean);
    }
}

void LatentLive::picturesSnapshot(const LatentFit* fit, LatentLiveSnapshot& s) const {
    auto& p = s.pictures;
    if (!m_data.image.isImage())
        return;
    p.layout = m_data.image;
    p.variance = m_pixelVariance;
    const auto shown = static_cast<Eigen::Index>(m_pictureRows.size());
    const bool holes = !m_data.hidden.empty();
    p.rows.resize(shown, m_data.train.cols());
    if (holes)
        p.holes.resize(shown, m_data.train.cols());
    for (Eigen::Index k = 0; k < shown; ++k) {
        const Eigen::Index row = m_pictureRows[static_cast<std::size_t>(k)];
        p.rows.row(k) = m_viewRows.row(row);
        if (holes)
            p.holes.row(k) = m_data.train.row(row);
        p.labels.push_back(m_data.trainLabels[static_cast<std::size_t>(row)]);
    }
    const std::optional<FAModel> fa = fit ? fit->faModel() : std::nullopt;
    if (!fa)
        return;
    p.fills = holes;
    if (holes) { // E[x_miss | x_obs], and the RMSE over each row's hidden pixels
        p.filled = imputeConditionalMean(*fa, p.holes);
        for (Eigen::Index k = 0; k < shown; ++k) {
            double count = 0.0, squares = 0.0;
            for (Eigen::Index d = 0; d < p.holes.cols(); ++d)
                if (std::isnan(p.holes(k, d))) {
                    const double e = p.filled(k, d) - p.rows(k, d);
                    count += 1.0, squares += e * e;
                }
            p.rmse.push_back(count > 0.0 ? std::sqrt(squares / count) : kNaN);
        }
    } else { // c + F E[z | x]
        const Matrix Z = gibbs::latentMeans(fa->F, fa->psi, fa->c, p.rows);
        p.filled = (Z * fa->F.transpose()).rowwise() + fa->c.transpose();
    }
    p.mean = fa->c;
    p.loadings = loadingsByNorm(*fa);
    p.psi = fa->psi;
}

} // namespace fa
