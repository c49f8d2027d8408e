#include "ui/latent/LatentPictureViews.h"

#include "ui/common/MethodStyle.h"

#include <cmath>

namespace {
constexpr fa::Lab kLab = fa::Lab::Latent;

QString fitName(const fa::LatentLiveSnapshot& s) {
    return legendName(s.latentMethod, kLab);
}
/// What the views say without a fit to draw (the mixture, Gibbs alone).
QString noFit(const fa::LatentLiveSnapshot& s) {
    return s.model == "mppca" ? "each component of the mixture has its own: none is drawn"
                              : "no FA-shaped fit is running (tick batch EM or another)";
}
/// "0.052": a positive scale's top, two significant digits.
QString top(const fa::Vector& v) {
    return QString::number(v.size() > 0 ? v.maxCoeff() : 0.0, 'g', 2);
}
/// No fit's pictures to show (`none`): the tiles cleared under "<what>: why none"; true then.
bool showsNone(ImageTiles& tiles, bool none, const QString& what, const fa::LatentLiveSnapshot& s) {
    if (none) {
        tiles.setTitle(what + ": " + noFit(s));
        tiles.clear();
    }
    return none;
}
} // namespace

void LoadingsTiles::show(const fa::LatentLiveSnapshot& s) {
    const auto& p = s.pictures;
    if (showsNone(*this, p.loadings.size() == 0, "Loadings as pictures", s))
        return;
    const QString letter = s.model == "ppca" ? "W" : "F";
    setTitle(QString("%1's mean and loadings %2, by decreasing norm (red +, blue −)")
                 .arg(fitName(s), letter));
    std::vector<Tile> tiles{{p.mean, "mean", Scale::Grey}};
    for (Eigen::Index k = 0; k < p.loadings.cols(); ++k)
        tiles.push_back({p.loadings.col(k), letter + QString::number(k + 1), Scale::Signed});
    setTiles(p.layout.width, p.layout.height, std::move(tiles));
}

void RowTiles::show(const fa::LatentLiveSnapshot& s) {
    const auto& p = s.pictures;
    if (p.rows.rows() == 0) {
        clear();
        return;
    }
    std::vector<Tile> tiles;
    for (Eigen::Index k = 0; k < p.rows.rows(); ++k) {
        const auto label = static_cast<std::size_t>(p.labels[static_cast<std::size_t>(k)]);
        tiles.push_back({p.rows.row(k).transpose(),
                         label < p.layout.classNames.size()
                             ? QString::fromStdString(p.layout.classNames[label])
                             : QString(),
                         Scale::Grey});
    }
    for (Eigen::Index k = 0; k < p.holes.rows(); ++k)
        tiles.push_back({p.holes.row(k).transpose(), QString(), Scale::Grey});
    for (Eigen::Index k = 0; k < p.filled.rows(); ++k) // a fill's RMSE over its hole beneath it
        tiles.push_back(
            {p.filled.row(k).transpose(),
             p.fills ? QString::number(p.rmse[static_cast<std::size_t>(k)], 'f', 3) : QString(),
             Scale::Grey});
    QString title;
    if (p.holes.rows() > 0 && p.fills)
        title = QString("Pictures, their holes, %1's fill E[x_miss | x_obs] and its RMSE")
                    .arg(fitName(s));
    else if (p.holes.rows() > 0)
        title = "Pictures and their holes: " + noFit(s);
    else if (p.filled.rows() > 0)
        title = QString("Fitting pictures (top) and %1's reconstructions c + F E[z | x] (below)")
                    .arg(fitName(s));
    else
        title = "Fitting pictures: " + noFit(s);
    setTitle(title);
    setTiles(p.layout.width, p.layout.height, std::move(tiles), int(p.rows.rows()));
}

void NoiseTiles::show(const fa::LatentLiveSnapshot& s) {
    const auto& p = s.pictures;
    if (showsNone(*this, p.psi.size() == 0, "Noise Ψ as a picture", s))
        return;
    fa::Vector share(p.psi.size()); // Ψ_d / Var x_d, 1 where a pixel does not vary
    for (Eigen::Index d = 0; d < share.size(); ++d)
        share(d) = p.variance(d) > 0.0 ? std::min(1.0, p.psi(d) / p.variance(d)) : 1.0;
    setTitle(s.model == "ppca"
                 ? QString("%1's noise σ² = %2 in every pixel: each pixel's variance (white: the "
                           "largest) and σ² as its share")
                       .arg(fitName(s))
                       .arg(p.psi(0), 0, 'g', 3)
                 : QString("%1's noise Ψ per pixel beside each pixel's variance: white where a "
                           "pixel is noisy")
                       .arg(fitName(s)));
    const QString noise = s.model == "ppca" ? "σ²" : "Ψ";
    if (s.model == "ppca") // one σ² everywhere: a tile of it alone would be plain white
        setTiles(p.layout.width, p.layout.height,
                 {{p.variance, "variance ≤ " + top(p.variance), Scale::Positive},
                  {share, noise + " / variance ≤ 1", Scale::Grey}},
                 2);
    else
        setTiles(p.layout.width, p.layout.height,
                 {{p.variance, "variance ≤ " + top(p.variance), Scale::Positive},
                  {p.psi, noise + " ≤ " + top(p.psi), Scale::Positive},
                  {share, noise + " / variance ≤ 1", Scale::Grey}},
                 3);
}
