// LatentLive::snapshot: what the latent lab's views draw, projected onto the view plane.
#include "core/lab/Methods.h"
#include "core/latent/FaGibbs.h"
#include "core/latent/LatentLive.h"
#include "core/latent/McmcDiagnostics.h"
#include "core/models/Imputation.h"
#include "core/models/Mppca.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace fa {
namespace {

bool usable(const Marginal2& m) {
    return m.mean.allFinite() && m.cov.allFinite() && m.cov(0, 0) > 0.0 &&
           m.cov.determinant() > 0.0;
}

/// The marginal of N(c, F Fᵀ + diag(ψ)) on the plane P (D x 2) after subtracting shift.
Marginal2 project(const Matrix& P, const Vector& shift, const Vector& c, const Matrix& F,
                  const Vector& psi) {
    Marginal2 m;
    m.mean = P.transpose() * (c - shift);
    const Matrix PF = P.transpose() * F;
    m.cov = PF * PF.transpose() + P.transpose() * psi.asDiagonal() * P;
    return m;
}

/// E[z | x, c] of each shown row under its most responsible component c = labels[n]
/// (docs/maths/latent.md §3.4): component c's PPCA posterior mean M_c⁻¹ W_cᵀ (x − μ_c) with
/// M_c = W_cᵀW_c + σ_c² I, which is FA's with Ψ = σ_c² I. Each row in its own piece's coordinates.
std::vector<Eigen::Vector2d> mixtureMeans(const Mppca& mix, const Matrix& shown,
                                          const std::vector<int>& labels) {
    std::vector<Eigen::Vector2d> out(labels.size());
    const auto& comps = mix.components();
    for (std::size_t c = 0; c < comps.size(); ++c) {
        const PpcaModel& m = comps[c].ppca;
        const Matrix Z =
            gibbs::latentMeans(m.W, Vector::Constant(m.W.rows(), m.sigma2), m.mu, shown);
        for (std::size_t n = 0; n < labels.size(); ++n)
            if (labels[n] == static_cast<int>(c))
                out[n] = {Z(Eigen::Index(n), 0), Z.cols() > 1 ? Z(Eigen::Index(n), 1) : 0.0};
    }
    return out;
}

} // namespace

LatentLiveSnapshot::Method LatentLive::methodSnapshot(std::size_t i, const Matrix& shown,
                                                      LatentLiveSnapshot& s) const {
    const LatentFit& fit = *m_fits[i];
    LatentLiveSnapshot::Method m;
    m.method = m_config.methods[i];
    m.status = m_rows[i].empty() ? "ok" : m_rows[i].back().status;
    for (const LatentRow& r : m_rows[i])
        m.curve.push_back({r.iteration, r.loglik, r.heldout});
    m.staircase = m_staircases[i];
    if (const auto fa = fit.faModel()) {
        m.marginal = project(m_plane, m_planeMean, fa->c, fa->F, fa->psi);
        // Loadings in canonical rotation (F is identified only up to rotation and sign), so
        // every fit's arrows are comparable.
        const Matrix PF = m_plane.transpose() * canonicalLoadings(fa->F, fa->psi);
        for (Eigen::Index k = 0; k < PF.cols(); ++k)
            m.arrows.emplace_back(PF(0, k), PF(1, k));
        m.valid = usable(m.marginal);
    } else if (const FaGibbs* g = fit.gibbs()) {
        const Matrix C = g->meanCovariance();
        m.marginal.mean = m_plane.transpose() * (g->meanMean() - m_planeMean);
        m.marginal.cov = m_plane.transpose() * C * m_plane;
        m.valid = usable(m.marginal);
    } else if (const Mppca* mix = fit.mixture()) {
        for (const MppcaComponent& c : mix->components()) {
            LatentLiveSnapshot::Component comp;
            comp.weight = c.weight;
            comp.marginal = project(m_plane, m_planeMean, c.ppca.mu, c.ppca.W,
                                    Vector::Constant(m_data.train.cols(), c.ppca.sigma2));
            m.components.push_back(comp);
        }
        if (s.labels.empty() && shown.rows() > 0) {
            const Matrix r = mix->responsibilities(shown);
            for (Eigen::Index n = 0; n < r.rows(); ++n) {
                Eigen::Index best = 0;
                r.row(n).maxCoeff(&best);
                s.labels.push_back(static_cast<int>(best));
            }
        }
    }
    return m;
}

void LatentLive::diagnostics(const FaGibbs& g, LatentLiveSnapshot::Trace& t) const {
    t.maxRhat = t.minEss = kNaN;
    if (g.kept() < 4)
        return;
    DiagnosticsCache& cache = m_diagnostics;
    if (g.kept() < cache.kept || cache.kept < 0 ||
        g.kept() >= cache.kept + std::max(10L, cache.kept / 10)) {
        cache.kept = g.kept();
        cache.maxRhat = 0.0;
        cache.minEss = INFINITY;
        std::vector<std::vector<double>> chains(static_cast<std::size_t>(g.options().chains));
        for (std::size_t e = 0; e < g.tracked().size(); ++e) {
            for (int ch = 0; ch < g.options().chains; ++ch)
                chains[static_cast<std::size_t>(ch)] = g.trace(ch, e);
            cache.maxRhat = std::max(cache.maxRhat, splitRhat(chains));
            cache.minEss = std::min(cache.minEss, effectiveSampleSize(chains));
        }
    }
    t.maxRhat = cache.maxRhat;
    t.minEss = cache.minEss;
}

void LatentLive::traceSnapshot(const FaGibbs& g, const LatentFit* emFit,
                               LatentLiveSnapshot& s) const {
    auto& t = s.trace;
    t.present = true;
    t.entries = static_cast<int>(g.tracked().size());
    const auto label = [&](Eigen::Index i, Eigen::Index j) {
        return "C(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
               "): " + m_data.columns[static_cast<std::size_t>(i)] + " × " +
               m_data.columns[static_cast<std::size_t>(j)];
    };
    for (const auto& [i, j] : g.tracked())
        t.entryLabels.push_back(label(i, j));
    const std::size_t entry =
        static_cast<std::size_t>(std::clamp(m_config.traceEntry, 0, std::max(0, t.entries - 1)));
    const auto [r, c] = g.tracked()[entry];
    t.label = label(r, c);
    t.keptPerChain = g.kept();
    t.burnIn = g.options().burnIn;
    t.sweeps = g.sweeps();
    const std::size_t n = static_cast<std::size_t>(g.kept());
    const std::size_t stride =
        std::max<std::size_t>(1, n / static_cast<std::size_t>(std::max(1, m_config.maxTrace)));
    for (int ch = 0; ch < g.options().chains; ++ch) {
        std::vector<double> thinned;
        const auto& draws = g.trace(ch, entry);
        for (std::size_t d = 0; d < draws.size(); d += stride)
            thinned.push_back(draws[d]);
        t.chains.push_back(std::move(thinned));
    }
    // The running posterior mean: over every chain's first d kept draws.
    double total = 0.0;
    for (std::size_t d = 0; d < n; ++d) {
        for (int ch = 0; ch < g.options().chains; ++ch)
            total += g.trace(ch, entry)[d];
        if (d % stride == 0)
            t.runningMean.push_back(
                total / static_cast<double>((d + 1) * static_cast<std::size_t>(t.chains.size())));
    }
    const GibbsEntrySummary sum = g.summarise(entry);
    t.mean = sum.mean, t.lower = sum.lower, t.upper = sum.upper;
    t.rhat = sum.rhat, t.ess = sum.ess;
    t.emValue = kNaN;
    if (emFit) {
        const FAModel fa = *emFit->faModel();
        t.emValue = fa.F.row(r).dot(fa.F.row(c)) + (r == c ? fa.psi(r) : 0.0);
        t.emMethod = s.latentMethod;
    }
    diagnostics(g, t);
    if (g.sweeps() <= g.options().burnIn)
        s.status += "   (Gibbs burn-in " + std::to_string(g.sweeps()) + "/" +
                    std::to_string(g.options().burnIn) + ")";
}

void LatentLive::imputationSnapshot(LatentLiveSnapshot& s) const {
    auto& im = s.imputation;
    for (std::size_t i = 0; i < m_fits.size() && !m_data.hidden.empty(); ++i) {
        const auto fa = m_fits[i]->faModel();
        if (!fa)
            continue;
        // §3.6: only the rows of the entries drawn are filled here; the RMSE over every hidden
        // entry is the one record() wrote for this iteration.
        Matrix rows(static_cast<Eigen::Index>(m_hiddenRows.size()), m_data.train.cols());
        for (std::size_t r = 0; r < m_hiddenRows.size(); ++r)
            rows.row(static_cast<Eigen::Index>(r)) = m_data.train.row(m_hiddenRows[r]);
        const Matrix filled = imputeConditionalMean(*fa, rows);
        im.present = true;
        im.method = latentMethodName(m_config.methods[i]);
        im.hidden = static_cast<long>(m_data.hidden.size());
        im.hideFraction = m_data.hideFraction;
        im.rmse = m_rows[i].back().imputation.conditionalMean;
        im.meanRmse = m_meanFill;
        std::size_t r = 0; // the entries drawn are in row-major order, as m_hiddenRows
        for (const std::size_t k : m_shownHidden) {
            const HiddenEntry& h = m_data.hidden[k];
            while (m_hiddenRows[r] != h.row)
                ++r;
            im.fitted.emplace_back(h.value, filled(static_cast<Eigen::Index>(r), h.col));
        }
        im.means = m_meanPoints;
        return;
    }
}

LatentLiveSnapshot LatentLive::snapshot() const {
    LatentLiveSnapshot s = startSnapshot();
    s.rows = rows();
    s.iteration = m_position;
    s.dataset = m_data.name;
    s.model = latentModelName(m_config.data.model);
    s.columns = m_data.columns;
    s.leftOut = m_data.leftOut;
    s.trainRows = m_data.train.rows();
    s.testRows = m_data.test.rows();
    const Matrix& X = m_viewRows;

    if (m_config.viewX >= 0) {
        s.xLabel = m_data.columns[static_cast<std::size_t>(m_config.viewX)];
        s.yLabel = m_data.columns[static_cast<std::size_t>(m_config.viewY)];
    } else {
        s.xLabel = "principal axis 1";
        s.yLabel = "principal axis 2";
    }
    Matrix shown(static_cast<Eigen::Index>(m_shown.size()), X.cols());
    for (std::size_t i = 0; i < m_shown.size(); ++i)
        shown.row(static_cast<Eigen::Index>(i)) = X.row(m_shown[i]);
    const Matrix projected = (shown.rowwise() - m_planeMean.transpose()) * m_plane;
    for (Eigen::Index i = 0; i < projected.rows(); ++i)
        s.points.emplace_back(projected(i, 0), projected(i, 1));

    std::string status;
    const LatentFit* emFit = nullptr; // batch EM's when it runs, else the first FA-shaped fit
    for (std::size_t i = 0; i < m_fits.size(); ++i) {
        LatentLiveSnapshot::Method m = methodSnapshot(i, shown, s);
        const bool faShaped = !m.arrows.empty(); // a FA model's loadings (K >= 1 arrows)
        if (faShaped && (m.method == LatentMethod::Em || !emFit))
            emFit = m_fits[i].get();
        status += (status.empty() ? "" : "   ") +
                  methodShortLabel(latentMethodName(m.method), Lab::Latent) + ": " +
                  statusNameOfCsvWord(m.status);
        s.methods.push_back(std::move(m));
    }
    s.status = status;

    // E[z | x] under batch EM (or the first FA-shaped fit).
    if (emFit && shown.rows() > 0) {
        const FAModel fa = *emFit->faModel();
        const Eigen::Index k = fa.F.cols();
        const Matrix Z = gibbs::latentMeans(fa.F, fa.psi, fa.c, shown);
        for (std::size_t i = 0; i < m_fits.size(); ++i)
            if (m_fits[i].get() == emFit)
                s.latentMethod = latentMethodName(m_config.methods[i]);
        for (Eigen::Index n = 0; n < Z.rows(); ++n)
            s.latentMeans.emplace_back(Z(n, 0), k > 1 ? Z(n, 1) : 0.0);
    } else if (!s.labels.empty() && s.labels.size() == std::size_t(shown.rows())) {
        for (std::size_t i = 0; i < m_fits.size(); ++i) // the mixture's, in its pieces
            if (const Mppca* mix = m_fits[i]->mixture()) {
                s.latentMethod = latentMethodName(m_config.methods[i]);
                s.latentMeans = mixtureMeans(*mix, shown, s.labels);
                break;
            }
    }

    imputationSnapshot(s);
    picturesSnapshot(emFit, s);

    // The Gibbs traces of one entry of C, its summary, and the worst entries (the first sampler).
    for (const auto& fit : m_fits)
        if (const FaGibbs* g = fit->gibbs()) {
            traceSnapshot(*g, emFit, s);
            break;
        }
    return s;
}

} // namespace fa
