// VaeLive::snapshot: the curves as recorded, and the two views of the view method drawn from its
// current model (a few hundred decoder passes, cheap next to an epoch).
#include "core/fa/GaussianFit.h"
#include "core/lab/Methods.h"
#include "core/vae/VaeLive.h"

#include "core/vae/VaeMetrics.h"

namespace fa {
namespace {

std::vector<Eigen::Vector2d> project(const Matrix& columns, const Matrix& plane,
                                     const Vector& mean) {
    const Matrix p = plane.transpose() * (columns.colwise() - mean);
    std::vector<Eigen::Vector2d> out(static_cast<std::size_t>(p.cols()));
    for (Eigen::Index n = 0; n < p.cols(); ++n)
        out[static_cast<std::size_t>(n)] = p.col(n);
    return out;
}

/// The decoded latent grid: per latent axis (two at most) g lines over [−2.5, 2.5]² of 4 g
/// points each, decoded and projected onto the data plane.
decltype(VaeLiveSnapshot::grid) decodedGrid(const NlfaModel& model, ElboPass& pass, int g,
                                            const Matrix& plane, const Vector& planeMean) {
    decltype(VaeLiveSnapshot::grid) grid;
    const int k = model.latent();
    const int fine = 4 * g; // points along each grid line
    auto at = [](int i, int n) { return -2.5 + 5.0 * i / (n - 1); };
    for (int axis = 0; axis < std::min(k, 2); ++axis)
        for (int level = 0; level < (k == 1 ? 1 : g); ++level) {
            Matrix Zl = Matrix::Zero(k, fine);
            for (int i = 0; i < fine; ++i) {
                Zl(axis, i) = at(i, fine);
                if (k > 1)
                    Zl(1 - axis, i) = at(level, g);
            }
            grid.push_back(project(pass.decode(model, Zl), plane, planeMean));
        }
    return grid;
}

/// The mosaic (VaeLiveSnapshot::mosaic): the decoder's mean over a g x g grid of the latent plane.
Matrix decodedMosaic(const NlfaModel& model, ElboPass& pass, int g) {
    const int k = model.latent(), rows = k == 1 ? 1 : g;
    Matrix Z = Matrix::Zero(k, Eigen::Index(rows) * g);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < g; ++c) {
            Z(0, Eigen::Index(r) * g + c) = -2.5 + 5.0 * c / (g - 1);
            if (k > 1)
                Z(1, Eigen::Index(r) * g + c) = 2.5 - 5.0 * r / (g - 1);
        }
    return pass.decode(model, Z).transpose();
}

/// The pictures of VaeLiveSnapshot: shown rows, reconstructions, samples and the mosaic.
void pictures(const NlfaModel& model, ElboPass& pass, const Matrix& shown, const Matrix& M,
              const Matrix& Z, int g, VaeLiveSnapshot& s) {
    const Eigen::Index n = std::min<Eigen::Index>(VaeLiveSnapshot::kShownPictures, shown.cols());
    s.shownPictures = shown.leftCols(n).transpose();
    if (M.cols() >= n)
        s.reconstructedPictures = pass.decode(model, M.leftCols(n)).transpose();
    s.samplePictures =
        pass.decode(model, Z.leftCols(std::min<Eigen::Index>(n, Z.cols()))).transpose();
    s.mosaic = decodedMosaic(model, pass, g);
    s.mosaicColumns = g;
}

} // namespace

VaeLiveSnapshot VaeLive::snapshot() const {
    VaeLiveSnapshot s = startSnapshot();
    s.rows = rows();
    s.dataset = m_data.rows.name;
    s.columns = m_data.rows.columns;
    s.leftOut = m_data.rows.leftOut;
    s.epoch = m_position;
    s.trainRows = m_data.rows.train.rows();
    s.testRows = m_data.rows.test.rows();
    s.latent = m_config.fit.latent;
    for (const auto& f : m_fits) {
        VaeLiveSnapshot::Method m{f->method, f->status, f->curve, f->last};
        if (!s.status.empty())
            s.status.append("   ");
        s.status.append(methodShortLabel(vaeMethodName(f->method), Lab::Nonlinear))
            .append(": ")
            .append(statusNameOfCsvWord(f->status));
        s.methods.push_back(std::move(m));
    }

    // The data plane.
    s.xLabel = m_config.viewX < 0 ? "principal axis 1"
                                  : m_data.rows.columns[static_cast<std::size_t>(m_config.viewX)];
    s.yLabel = m_config.viewY < 0 ? "principal axis 2"
                                  : m_data.rows.columns[static_cast<std::size_t>(m_config.viewY)];
    s.points = project(m_shown, m_plane, m_planeMean);
    const Fitted& view = *m_fits[static_cast<std::size_t>(m_config.viewMethod)];
    s.viewMethod = vaeMethodName(view.method);
    if (view.status == "diverged")
        return s;
    const NlfaModel model = view.fit ? view.fit->model() : decoderFromPpca(m_ppca);
    const int k = model.latent();
    Matrix M, L;
    if (!view.fit) {
        linearOptimalQ(model, m_shown, M, L); // E[z | x], exact
    } else if (view.fit->amortised()) {
        view.fit->encode(m_shown, M, L);
    } else if (m_data.rows.test.rows() == 0) { // vEM on its own fitting rows
        view.fit->trainPosterior(M, L);
        M = M.leftCols(m_shown.cols()).eval();
    } else if (view.best.mean.cols() >= m_shown.cols()) { // vEM: the last scoring's q*
        M = view.best.mean.leftCols(m_shown.cols());
    }
    ElboPass pass(model.shape);
    if (M.cols() == m_shown.cols())
        s.reconstructions = project(pass.decode(model, M), m_plane, m_planeMean);
    Rng rng(deriveSeed(m_config.data.modelSeed,
                       SeedStream::VaeLiveDraws)); // the same draws every frame
    const Matrix Z = rng.normalMatrix(k, 300);
    Matrix X = pass.decode(model, Z);
    if (model.noise == NoiseKind::Network) { // x | z ~ N(μ(z), diag σ²(z)) (§8)
        const Matrix sd = (0.5 * pass.decodeLogVar(model, Z).array()).exp().matrix();
        for (Eigen::Index d = 0; d < X.rows(); ++d)
            X.row(d) += sd.row(d).cwiseProduct(rng.normalMatrix(1, X.cols()));
    } else {
        for (Eigen::Index d = 0; d < X.rows(); ++d)
            X.row(d) += std::exp(0.5 * model.logPsi(d)) * rng.normalMatrix(1, X.cols());
    }
    s.samples = project(X, m_plane, m_planeMean);
    s.grid = decodedGrid(model, pass, std::max(2, m_config.gridSize), m_plane, m_planeMean);
    s.image = m_data.rows.image;
    if (s.image.isImage())
        pictures(model, pass, m_shown, M, Z, std::max(2, m_config.gridSize), s);

    // The latent space.
    s.hasPosition = m_shownColour.size() > 0;
    const bool position = m_config.colourBy < 0 && s.hasPosition;
    const int column = m_config.colourBy < 0 ? 0 : m_config.colourBy;
    s.colourLabel =
        position ? (m_data.positionName == "class" ? std::string("class")
                                                   : "position (" + m_data.positionName + ")")
                 : m_data.rows.columns[static_cast<std::size_t>(column)];
    const Vector colour = position ? m_shownColour : Vector(m_shown.row(column).transpose());
    s.colours.assign(colour.data(), colour.data() + colour.size());
    s.latentXLabel = k == 1 ? "z" : "z1";
    s.latentYLabel = k == 1 ? s.colourLabel : "z2";
    if (M.cols() == m_shown.cols())
        for (Eigen::Index n = 0; n < M.cols(); ++n)
            s.latentMeans.emplace_back(M(0, n), k == 1 ? colour(n) : M(1, n));
    return s;
}

} // namespace fa
