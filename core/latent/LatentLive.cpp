#include "core/latent/LatentLive.h"
#include "core/latent/LatentParams.h"

#include "core/latent/FaGibbs.h"
#include "core/math/Rng.h"
#include "core/metrics/DenseMetrics.h"
#include "core/models/Imputation.h"
#include "core/models/Mppca.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {
constexpr Eigen::Index kMaxDimForDistance = 300; // the distance to the truth is D x D
constexpr int kPicturePoints = 200;              // rows projected for pictures

} // namespace

LatentLive::LatentLive(const LatentLiveConfig& config, AbandonFlag abandon)
    : ConfiguredRun(config, "iterations", std::move(abandon)) {
    checkLatentRun(config.data.model, config.methods, config.length);
    checkParams(latentLiveParams(), config);
    m_data = makeLatentData(config.data, config.loader);
    m_viewRows = m_data.train;
    for (const HiddenEntry& h : m_data.hidden)
        m_viewRows(h.row, h.col) = h.value;
    const Matrix& X = m_viewRows;
    m_meanFill = columnMeanRmse(m_data);
    if (!m_data.hidden.empty()) { // the hidden entries drawn
        const std::size_t n = m_data.hidden.size();
        const auto most = static_cast<std::size_t>(std::max(1, config.maxPoints));
        const std::size_t shown = std::min(n, most);
        const Matrix filled = imputeColumnMeans(m_data.train);
        // Evenly thinned; pictures' the first ones (whole pictures: their rows are few, and the
        // snapshot fills only these rows).
        const bool pictures = m_data.image.isImage();
        for (std::size_t k = 0; k < shown; ++k) {
            const std::size_t at = pictures ? k : n * k / shown;
            const HiddenEntry& h = m_data.hidden[at];
            m_shownHidden.push_back(at);
            m_meanPoints.emplace_back(h.value, filled(h.row, h.col));
            if (m_hiddenRows.empty() || m_hiddenRows.back() != h.row)
                m_hiddenRows.push_back(h.row); // hidden is in row-major order
        }
    }
    preparePictures();

    setView(config.viewX, config.viewY);
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        if (!X.row(i).hasNaN())
            m_shown.push_back(i);
    // Pictures: the plane and E[z | x] are not in view (the pictures are), so few rows are
    // projected (1500 rows of 784 pixels cost 25 ms a snapshot).
    const int most = !m_data.image.isImage() ? config.maxPoints
                     : config.maxPoints > 0  ? std::min(config.maxPoints, kPicturePoints)
                                             : kPicturePoints;
    if (static_cast<long>(m_shown.size()) > most && most > 0) {
        std::vector<Eigen::Index> thinned;
        for (int k = 0; k < most; ++k)
            thinned.push_back(m_shown[m_shown.size() * static_cast<std::size_t>(k) /
                                      static_cast<std::size_t>(most)]);
        m_shown = std::move(thinned);
    }

    for (std::size_t i = 0; i < config.methods.size(); ++i) {
        LatentFitOptions options = config.fit;
        options.seed = deriveSeed(config.fit.seed, SeedStream::LatentMethodBase, i);
        const auto start = std::chrono::steady_clock::now();
        m_fits.push_back(
            makeLatentFit(config.data.model, config.methods[i], m_data.train, options));
        m_seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    m_rows.resize(m_fits.size());
    m_staircases.resize(m_fits.size());
    record();
}

long LatentLive::advance(long n) {
    long done = 0;
    while (done < n && m_position < m_config.length) {
        for (std::size_t i = 0; i < m_fits.size(); ++i) {
            if (abandoned()) // the window closed: an EM or Gibbs pass is not cut, the next
                return done; // fit's is not begun
            const auto start = std::chrono::steady_clock::now();
            m_fits[i]->iterate();
            m_seconds[i] +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (const auto step = m_fits[i]->lastEmStep()) {
                const auto t = static_cast<double>(m_position);
                m_staircases[i].emplace_back(t, step->elboAfterE);
                m_staircases[i].emplace_back(t + 1.0, step->elboAfterM);
            }
        }
        ++m_position;
        ++done;
        record();
    }
    return done;
}

void LatentLive::record() {
    const bool last = m_position >= m_config.length;
    for (std::size_t i = 0; i < m_fits.size(); ++i) {
        const LatentFit& fit = *m_fits[i];
        LatentRow row;
        row.dataset = m_data.name;
        row.model = latentModelName(m_config.data.model);
        row.method = latentMethodName(m_config.methods[i]);
        row.latent = m_config.fit.latent;
        row.components = m_config.data.model == LatentModel::Mppca ? m_config.fit.components : 1;
        row.iteration = m_position;
        row.loglik = fit.loglikPerRow();
        row.heldout = m_data.test.rows() > 0 ? fit.loglikPerRow(m_data.test) : kNaN;
        row.elbo = m_position > 0 ? fit.elboPerRow() : kNaN;
        row.relCovDist = kNaN;
        if (m_data.hasTruth() && m_data.train.cols() <= kMaxDimForDistance) {
            Vector mean;
            Matrix cov;
            fit.moments(mean, cov);
            row.relCovDist = relativeCovarianceDistance(cov, m_data.trueCovariance);
        }
        row.seconds = m_seconds[i];
        row.imputation = scoreImputation(fit, m_data, m_meanFill);
        row.status = csvWord(fit.status(last));
        for (const Eigen::Index d : fit.flooredColumns())
            row.floored.push_back(m_data.columns[static_cast<std::size_t>(d)]);
        if (!fit.iterative() && !m_rows[i].empty())
            continue; // the closed form's one row
        m_rows[i].push_back(std::move(row));
    }
}

void LatentLive::setView(int x, int y) {
    viewPlane(m_viewRows, x, y, m_plane, m_planeMean); // core/data/LatentData.h
    m_config.viewX = x;
    m_config.viewY = y;
}

void LatentLive::setLength(long length) {
    checkLatentRun(m_config.data.model, m_config.methods, length);
    keepLength(length);
}

std::vector<LatentRow> LatentLive::rows() const {
    std::vector<LatentRow> out;
    for (const auto& perMethod : m_rows)
        out.insert(out.end(), perMethod.begin(), perMethod.end());
    return out;
}

} // namespace fa
