#include "ui/latent/LatentViews.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/ChartTitle.h"
#include "ui/common/MethodStyle.h"

#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

namespace {
constexpr fa::Lab kLab = fa::Lab::Latent;

/// Colours of the mixture's components and of the Gibbs chains (none is a method's colour).
QColor componentColour(std::size_t c) {
    static const QColor palette[] = {QColor(0x1b, 0x9e, 0x77), QColor(0xd9, 0x5f, 0x02),
                                     QColor(0x75, 0x70, 0xb3), QColor(0xe7, 0x29, 0x8a),
                                     QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
                                     QColor(0xa6, 0x76, 0x1d), QColor(0x66, 0x66, 0x66)};
    return palette[c % 8];
}
QColor chainColour(std::size_t c) {
    static const QColor palette[] = {QColor(0x4c, 0x72, 0xb0), QColor(0x55, 0xa8, 0x68),
                                     QColor(0xc4, 0x4e, 0x52), QColor(0x81, 0x72, 0xb2)};
    return palette[c % 4];
}

QList<QPointF> ellipse(const fa::Marginal2& m, double radius) {
    QList<QPointF> out;
    for (const auto& p : fa::massEllipse(m, 1.0 - std::exp(-0.5 * radius * radius)))
        out.append({p.x(), p.y()});
    return out;
}
} // namespace

LoglikView::LoglikView(QWidget* parent) : SeriesChart("iteration", "per row", parent) {}

void LoglikView::show(const fa::LatentLiveSnapshot& s) {
    clearAll();
    // The range follows the later iterations: the first few (far below the rest) would flatten
    // everything; stepping from the start shows them all.
    double lo = INFINITY, hi = -INFINITY;
    const long from =
        m_window > 0 ? std::max(0L, s.iteration - m_window) : std::max(1L, s.iteration / 10);
    setTitle(m_window > 0 ? QString("Log-likelihood per row, the last %1 iterations (dotted: "
                                    "held out; dashed: EM's bound)")
                                .arg(m_window)
                          : QString("Log-likelihood per row (solid: fitting rows, dotted: held "
                                    "out; dashed: EM's bound)"));
    for (const auto& m : s.methods) {
        const std::string id = fa::latentMethodName(m.method);
        const QColor colour = colourFor(id, kLab);
        QList<QPointF> train, held;
        for (const auto& p : m.curve) {
            const auto x = static_cast<double>(p.iteration);
            appendFinite(train, x, p.loglik);
            appendFinite(held, x, p.heldout);
            // (A closed form's one level counts, but in the zoom on the last iterations.)
            if ((m_window > 0 || s.iteration >= 1) && p.iteration < from &&
                (m.curve.size() > 1 || m_window > 0))
                continue;
            for (double v : {p.loglik, p.heldout})
                widenRange(v, lo, hi);
        }
        if (m.curve.size() == 1 && s.iteration > 0) // the closed form: a level across
            train.append({static_cast<double>(s.iteration), m.curve.front().loglik}),
                held.append({static_cast<double>(s.iteration), m.curve.front().heldout});
        line(id + "/train", QPen(colour, 2.0), legendName(id, kLab))->replace(train);
        line(id + "/held", QPen(colour, 1.4, Qt::DotLine), "")->replace(held);
        if (!m.staircase.empty()) {
            QList<QPointF> stairs;
            for (const auto& p : m.staircase)
                appendFinite(stairs, p.x(), p.y());
            // Black and dashed over the red EM curve: after each E step it touches it.
            line(id + "/elbo", QPen(Qt::black, 1.4, Qt::DashLine), "EM bound (ELBO)")
                ->replace(stairs);
            for (const auto& p : m.staircase)
                if (p.x() >= static_cast<double>(from) && (m_window > 0 || s.iteration >= 1))
                    widenRange(p.y(), lo, hi);
        }
    }
    const double xlo = m_window > 0 ? static_cast<double>(from) : 0.0;
    fit(xlo, std::max(xlo + 5.0, static_cast<double>(s.iteration)), lo, hi);
    m_x->setLabelFormat("%.0f");
    m_x->setMin(xlo);
    endFrame();
}

DataPlaneView::DataPlaneView(QWidget* parent) : SeriesChart("", "", parent) {}

void DataPlaneView::show(const fa::LatentLiveSnapshot& s) {
    clearAll();
    m_x->setTitleText(QString::fromStdString(s.xLabel));
    m_y->setTitleText(QString::fromStdString(s.yLabel));
    setTitle(QString("%1, %2 fitting rows: each model's 1 and 2 sd ellipses (arrows: loadings)")
                 .arg(QString::fromStdString(s.dataset))
                 .arg(s.trainRows));
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    std::map<int, QList<QPointF>> byLabel;
    for (std::size_t i = 0; i < s.points.size(); ++i) {
        const auto& p = s.points[i];
        byLabel[s.labels.empty() ? -1 : s.labels[i]].append({p.x(), p.y()});
        xlo = std::min(xlo, p.x()), xhi = std::max(xhi, p.x());
        ylo = std::min(ylo, p.y()), yhi = std::max(yhi, p.y());
    }
    for (auto& [label, points] : byLabel) {
        const QColor colour =
            label < 0 ? QColor(150, 150, 150) : componentColour(label).lighter(125);
        scatter("points/" + std::to_string(label), colour, 4.0, "")->replace(points);
    }
    auto grow = [&](const QList<QPointF>& ring) { // the axes hold the ellipses too
        for (const QPointF& p : ring) {
            xlo = std::min(xlo, p.x()), xhi = std::max(xhi, p.x());
            ylo = std::min(ylo, p.y()), yhi = std::max(yhi, p.y());
        }
    };
    for (const auto& m : s.methods) {
        const std::string id = fa::latentMethodName(m.method);
        const QColor colour = colourFor(id, kLab);
        if (m.valid) {
            const QList<QPointF> outer = ellipse(m.marginal, 2);
            grow(outer);
            line(id + "/1", QPen(colour, 2.0), legendName(id, kLab))
                ->replace(ellipse(m.marginal, 1));
            line(id + "/2", QPen(colour, 1.2), "")->replace(outer);
            for (std::size_t k = 0; k < m.arrows.size() && k < 4; ++k) {
                const auto& a = m.arrows[k];
                const QPointF from(m.marginal.mean.x(), m.marginal.mean.y());
                const QPointF to = from + QPointF(a.x(), a.y());
                // A shaft and a small head, so a loading's sign is visible.
                const QPointF d = to - from;
                const QPointF back = from + 0.85 * d, side(-0.06 * d.y(), 0.06 * d.x());
                line(id + "/arrow" + std::to_string(k), QPen(colour, 2.2), "")
                    ->replace({from, to, back + side, to, back - side});
            }
        }
        for (std::size_t c = 0; c < m.components.size(); ++c) {
            const auto& comp = m.components[c];
            const QColor cc = componentColour(c);
            const QList<QPointF> ring = ellipse(comp.marginal, 2);
            grow(ring);
            // Named in the legend while they fit in it (up to 4); the line width is π anyway.
            line("comp" + std::to_string(c), QPen(cc, 1.0 + 4.0 * comp.weight),
                 m.components.size() <= 4
                     ? QString("π%1 = %2").arg(c + 1).arg(comp.weight, 0, 'f', 2)
                     : QString())
                ->replace(ring);
        }
    }
    fit(xlo, xhi, ylo, yhi, true);
    endFrame();
}

TraceView::TraceView(QWidget* parent) : SeriesChart("kept sweep (after burn-in)", "", parent) {}

void TraceView::show(const fa::LatentLiveSnapshot& s) {
    clearAll();
    const auto& t = s.trace;
    if (!t.present) {
        setTitle(s.model == "fa" ? "Gibbs traces: tick Gibbs sampling to sample the posterior"
                                 : "Gibbs traces: the sampler fits FA; choose FA as the model "
                                   "to sample");
        m_y->setTitleText(QString());
        endFrame();
        return;
    }
    m_y->setTitleText(QString::fromStdString(t.label));
    QString title;
    if (t.keptPerChain < 4)
        title = QString("Gibbs: burn-in, sweep %1 of %2 (nothing kept yet)")
                    .arg(t.sweeps)
                    .arg(t.burnIn);
    else
        title = QString("%1 chains, %2 kept each: R̂ %3, ESS %4   (all of C: max R̂ %5, min ESS "
                        "%6)")
                    .arg(t.chains.size())
                    .arg(t.keptPerChain)
                    .arg(t.rhat, 0, 'f', 3)
                    .arg(t.ess, 0, 'f', 0)
                    .arg(t.maxRhat, 0, 'f', 3)
                    .arg(t.minEss, 0, 'f', 0);
    setTitle(title);
    double lo = INFINITY, hi = -INFINITY;
    const double stride =
        t.chains.empty() || t.chains.front().empty()
            ? 1.0
            : static_cast<double>(t.keptPerChain) / static_cast<double>(t.chains.front().size());
    for (std::size_t c = 0; c < t.chains.size(); ++c) {
        QList<QPointF> points;
        for (std::size_t d = 0; d < t.chains[c].size(); ++d) {
            points.append({static_cast<double>(d) * stride, t.chains[c][d]});
            lo = std::min(lo, t.chains[c][d]), hi = std::max(hi, t.chains[c][d]);
        }
        line("chain" + std::to_string(c), QPen(chainColour(c), 1.0),
             c == 0 ? QString("chains") : QString())
            ->replace(points);
    }
    QList<QPointF> running;
    for (std::size_t d = 0; d < t.runningMean.size(); ++d)
        running.append({static_cast<double>(d) * stride, t.runningMean[d]});
    line("running", QPen(Qt::black, 2.0, Qt::DashDotLine), "running mean")->replace(running);
    const double end = std::max(4.0, static_cast<double>(t.keptPerChain));
    auto level = [&](const std::string& key, double v, const QPen& pen, const QString& name) {
        QList<QPointF> pts;
        if (std::isfinite(v)) {
            pts = {{0.0, v}, {end, v}};
            lo = std::min(lo, v), hi = std::max(hi, v);
        }
        line(key, pen, name)->replace(pts);
    };
    level("mean", t.mean, QPen(Qt::black, 2.0), "mean");
    level("lower", t.lower, QPen(Qt::black, 1.2, Qt::DashLine), "95 %");
    level("upper", t.upper, QPen(Qt::black, 1.2, Qt::DashLine), "");
    level("em", t.emValue, QPen(colourFor(t.emMethod, kLab), 2.0, Qt::DotLine),
          legendName(t.emMethod, kLab));
    fit(0, end, lo, hi);
    m_x->setLabelFormat("%.0f");
    m_x->setMin(0.0);
    endFrame();
}

LatentMeansView::LatentMeansView(QWidget* parent) : SeriesChart("z₁", "z₂", parent) {}

void LatentMeansView::show(const fa::LatentLiveSnapshot& s) {
    clearAll();
    m_y->setTitleText("z₂");
    if (s.latentMeans.empty()) {
        setTitle(s.model == "mppca" ? "Posterior means E[z | x,\u00A0c]: no rows to show yet"
                                    : "Posterior means E[z | x]: no FA-shaped fit is running");
        return;
    }
    // A mixture: each row in its most responsible piece's own coordinates, coloured by piece
    // (with K = 1, one strip per piece).
    const bool pieces = s.labels.size() == s.latentMeans.size();
    const bool strips = pieces && s.config.fit.latent == 1;
    setTitle(
        pieces
            ? QString("E[z | x,\u00A0c] under %1: each row in its most responsible piece c")
                  .arg(displayName(s.latentMethod, kLab))
            : QString("Posterior means E[z | x] under %1").arg(displayName(s.latentMethod, kLab)));
    if (strips)
        m_y->setTitleText("piece c");
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    std::map<int, QList<QPointF>> byPiece;
    for (std::size_t n = 0; n < s.latentMeans.size(); ++n) {
        const int piece = pieces ? s.labels[n] : -1;
        const QPointF p(s.latentMeans[n].x(), strips ? piece + 1.0 : s.latentMeans[n].y());
        byPiece[piece].append(p);
        xlo = std::min(xlo, p.x()), xhi = std::max(xhi, p.x());
        ylo = std::min(ylo, p.y()), yhi = std::max(yhi, p.y());
    }
    for (auto& [piece, points] : byPiece)
        scatter("z/" + std::to_string(piece),
                piece < 0 ? colourFor(s.latentMethod, kLab) : componentColour(std::size_t(piece)),
                4.0, "")
            ->replace(points);
    if (strips)
        ylo = 0.6, yhi = std::max(yhi, 1.0) + 0.4; // with fit's margins about 0.5 .. C + 0.5
    else if (!(yhi > ylo))
        ylo = -1.0, yhi = 1.0; // K = 1: a strip
    fit(xlo, xhi, ylo, yhi);
    m_y->setLabelFormat(strips ? "%.0f" : "%.4g");
    if (strips)
        setTickStep(m_y, 1.0); // a tick per piece, none between
    endFrame();
}

ImputationView::ImputationView(QWidget* parent)
    : SeriesChart("hidden value (z-scored)", "filled value", parent) {
    fit(-3.0, 3.0, -3.0, 3.0, true);
}

void ImputationView::show(const fa::LatentLiveSnapshot& s) {
    clearAll();
    const auto& im = s.imputation;
    if (!im.present) {
        setTitle("Imputation: set a hidden share (PPCA by EM) to fill and score hidden entries");
        fit(-3.0, 3.0, -3.0, 3.0, true); // z-scores' usual range until there is something
        endFrame();
        return;
    }
    m_x->setTitleText(s.pictures.layout.isImage() ? "hidden pixel" : "hidden value (z-scored)");
    setTitle(QString("%1 hidden entries (%2 %), RMSE: %3 %4, column means %5")
                 .arg(im.hidden)
                 .arg(100.0 * im.hideFraction, 0, 'f', 0)
                 .arg(legendName(im.method, kLab))
                 .arg(im.rmse, 0, 'f', 3)
                 .arg(im.meanRmse, 0, 'f', 3));
    // Each axis to its own values (one far hidden value would squeeze a square chart); the
    // diagonal over the range both share.
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    auto points = [&](const std::vector<Eigen::Vector2d>& from) {
        QList<QPointF> out;
        for (const auto& p : from) {
            out.append({p.x(), p.y()});
            xlo = std::min(xlo, p.x()), xhi = std::max(xhi, p.x());
            ylo = std::min(ylo, p.y()), yhi = std::max(yhi, p.y());
        }
        return out;
    };
    scatter("means", QColor(150, 150, 150), 5.0, "column mean")->replace(points(im.means));
    scatter("fitted", colourFor(im.method, kLab), 5.0, "E[x_miss | x_obs]")
        ->replace(points(im.fitted));
    const double lo = std::max(xlo, ylo), hi = std::min(xhi, yhi);
    line("diagonal", QPen(Qt::black, 1.2, Qt::DashLine), "y = x")
        ->replace(hi > lo ? QList<QPointF>{{lo, lo}, {hi, hi}} : QList<QPointF>{});
    fit(xlo, xhi, ylo, yhi);
    endFrame();
}
