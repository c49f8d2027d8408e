#include "ui/nonlinear/NonlinearViews.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/ChartTitle.h"
#include "ui/common/ImageTiles.h"
#include "ui/common/MethodStyle.h"
#include "ui/common/ViewFocus.h"

#include <QHBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

namespace {
constexpr fa::Lab kLab = fa::Lab::Nonlinear;

/// A colour-blind-safe ramp (viridis, eight steps) for the latent view's colouring.
QColor ramp(int bin) {
    static const QColor colours[] = {QColor(0x44, 0x01, 0x54), QColor(0x46, 0x33, 0x7e),
                                     QColor(0x36, 0x5c, 0x8d), QColor(0x27, 0x7f, 0x8e),
                                     QColor(0x1f, 0xa1, 0x87), QColor(0x4a, 0xc1, 0x6d),
                                     QColor(0x9f, 0xda, 0x3a), QColor(0xfd, 0xe7, 0x25)};
    return colours[std::clamp(bin, 0, 7)];
}

/// Ten colours told apart on black (Tableau's ten, lightened where too dark): a picture's class.
QColor classColour(int c) {
    static const QColor colours[] = {QColor(0x4e, 0x9a, 0xf0), QColor(0xff, 0x9d, 0x3a),
                                     QColor(0x59, 0xc1, 0x4f), QColor(0xef, 0x5b, 0x5b),
                                     QColor(0xb7, 0x8c, 0xe0), QColor(0xc4, 0x8a, 0x6c),
                                     QColor(0xf2, 0x8e, 0xd4), QColor(0xbf, 0xbf, 0xbf),
                                     QColor(0xdb, 0xdb, 0x4a), QColor(0x3f, 0xd7, 0xe8)};
    return colours[std::clamp(c, 0, 9)];
}

} // namespace

ElboView::ElboView(QWidget* parent) : SeriesChart("epoch", "nats per row", parent) {
    m_x->setLabelFormat("%.7g"); // epochs are whole numbers: 1000, not 1e+03
}

void ElboView::show(const fa::VaeLiveSnapshot& s) {
    clearAll();
    setTitle("ELBO per row (thin: fitting rows, thick: held out); dotted: held-out "
             "IW log-likelihood");
    double lo = INFINITY, hi = -INFINITY;
    const long from = std::max(1L, s.epoch / 10); // the first epochs would flatten the rest
    for (const auto& m : s.methods) {
        const std::string id = fa::vaeMethodName(m.method);
        const QColor colour = colourFor(id, kLab);
        QList<QPointF> train, test, iw;
        if (m.method == fa::VaeMethod::Ppca) { // the closed form: a level across
            if (m.curve.empty())
                continue;
            const double v = std::isfinite(m.last.iwLoglik) ? m.last.iwLoglik : m.last.trainElbo;
            QPen pen(colour, 2.0, Qt::DashLine);
            line(id + "/level", pen,
                 legendName(id, kLab) + (std::isfinite(m.last.iwLoglik) ? " (held out)" : ""))
                ->replace(QList<QPointF>{{0.0, v}, {std::max(1.0, double(s.epoch)), v}});
            widenRange(v, lo, hi);
            continue;
        }
        for (const auto& p : m.curve) {
            const auto x = static_cast<double>(p.epoch);
            appendFinite(train, x, p.trainElbo);
            appendFinite(test, x, p.testElbo);
            appendFinite(iw, x, p.iwLoglik);
            if (p.epoch >= from) {
                widenRange(p.trainElbo, lo, hi);
                widenRange(p.testElbo, lo, hi);
                widenRange(p.iwLoglik, lo, hi);
            }
        }
        line(id + "/train", QPen(colour, 1.0), QString())->replace(train);
        line(id + "/test", QPen(colour, 2.5), legendName(id, kLab))->replace(test);
        QPen dotted(colour, 2.0, Qt::DotLine);
        line(id + "/iw", dotted, QString())->replace(iw);
    }
    endFrame();
    // A new run (epoch 0) shows its own empty axes (and PPCA's level), not the last run's.
    if (!(lo <= hi))
        lo = -1.0, hi = 0.0;
    fit(s.epoch < 1 ? 0.0 : std::max(0.0, double(from) - 1.0), std::max(2.0, double(s.epoch)), lo,
        hi);
}

GapView::GapView(QWidget* parent)
    : QChartView(parent), m_series(new QStackedBarSeries), m_approximation(new QBarSet("")),
      m_amortisation(new QBarSet("")), m_methods(new QBarCategoryAxis), m_y(new QValueAxis) {
    auto* c = new QChart;
    m_approximation->setLabel("approximation gap");
    m_amortisation->setLabel("amortisation gap");
    m_approximation->setColor(QColor(0x4c, 0x72, 0xb0));
    m_amortisation->setColor(QColor(0xdd, 0x84, 0x52));
    m_series->append(m_approximation);
    m_series->append(m_amortisation);
    c->addSeries(m_series);
    c->addAxis(m_methods, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_series->attachAxis(m_methods);
    m_series->attachAxis(m_y);
    m_y->setTitleText("nats per held-out row");
    m_y->setLabelFormat("%.3g");
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setMargins(QMargins(4, 4, 4, 4));
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(300, 220);
}

void GapView::show(const fa::VaeLiveSnapshot& s) {
    fitTitle(chart(), "Gaps at the latest scoring: log p(x) − ELBO = approximation + amortisation",
             width());
    m_drawn.clear();
    QStringList names;
    QList<qreal> approx, amort;
    double hi = 0.0;
    for (const auto& m : s.methods) {
        if (m.method == fa::VaeMethod::Ppca || m.last.epoch == 0)
            continue;
        const std::string id = fa::vaeMethodName(m.method);
        const double a = m.last.approximationGap, b = m.last.amortisationGap;
        m_drawn.push_back({id, {a, b}});
        names << legendName(id, kLab);
        // A gap a little below 0 is Monte Carlo error: drawn as 0, the number stays in the CSV.
        approx << (std::isfinite(a) ? std::max(0.0, a) : 0.0);
        amort << (std::isfinite(b) ? std::max(0.0, b) : 0.0);
        hi = std::max(hi, approx.last() + amort.last());
    }
    if (m_methods->categories() != names) {
        m_methods->clear();
        m_methods->append(names);
    }
    m_approximation->remove(0, m_approximation->count());
    m_amortisation->remove(0, m_amortisation->count());
    m_approximation->append(approx);
    m_amortisation->append(amort);
    setRoundTicks(m_y, 0.0, std::max(1e-3, 1.1 * hi), height() - 110.0, 35.0);
}

LatentSpaceView::LatentSpaceView(QWidget* parent) : SeriesChart("z1", "z2", parent) {}

void LatentSpaceView::show(const fa::VaeLiveSnapshot& s) {
    clearAll();
    setTitle(QString("Latent space (%1): q's means, coloured by %2")
                 .arg(legendName(s.viewMethod, kLab), QString::fromStdString(s.colourLabel)));
    m_x->setTitleText(QString::fromStdString(s.latentXLabel));
    m_y->setTitleText(QString::fromStdString(s.latentYLabel));
    const bool classes = s.image.isImage() && s.colourLabel.find("class") != std::string::npos;
    if (classes) {
        showClasses(s);
        return;
    }
    double clo = INFINITY, chi = -INFINITY;
    for (double c : s.colours)
        widenRange(c, clo, chi);
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    std::vector<QList<QPointF>> bins(kBins);
    for (std::size_t i = 0; i < s.latentMeans.size() && i < s.colours.size(); ++i) {
        const auto& p = s.latentMeans[i];
        const double t = chi > clo ? (s.colours[i] - clo) / (chi - clo) : 0.5;
        bins[static_cast<std::size_t>(std::clamp(int(t * kBins), 0, kBins - 1))].append(
            {p.x(), p.y()});
        widenRange(p.x(), xlo, xhi);
        widenRange(p.y(), ylo, yhi);
    }
    for (int b = 0; b < kBins; ++b) {
        const QString name = b == 0 ? QString("low %1").arg(QString::fromStdString(s.colourLabel))
                                    : (b == kBins - 1 ? QString("high") : QString());
        scatter("bin" + std::to_string(b), ramp(b), 6.0, name)->replace(bins[size_t(b)]);
    }
    endFrame();
    fit(xlo, xhi, ylo, yhi);
}

void LatentSpaceView::showClasses(const fa::VaeLiveSnapshot& s) {
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    std::vector<QList<QPointF>> byClass(kClasses);
    for (std::size_t i = 0; i < s.latentMeans.size() && i < s.colours.size(); ++i) {
        const auto& p = s.latentMeans[i];
        byClass[std::size_t(std::clamp(int(s.colours[i]), 0, kClasses - 1))].append({p.x(), p.y()});
        widenRange(p.x(), xlo, xhi);
        widenRange(p.y(), ylo, yhi);
    }
    for (int c = 0; c < kClasses; ++c) {
        const std::size_t at = std::size_t(c);
        const QString name = at < s.image.classNames.size() && !byClass[at].isEmpty()
                                 ? QString::fromStdString(s.image.classNames[at])
                                 : QString();
        scatter("class" + std::to_string(c), classColour(c), 6.0, name)->replace(byClass[at]);
    }
    endFrame();
    fit(xlo, xhi, ylo, yhi);
}

PictureView::PictureView(QWidget* parent)
    : QWidget(parent), m_mosaic(new ImageTiles), m_strip(new ImageTiles) {
    ViewFocus::markView(this); // the mosaic and its strip enlarged together
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_mosaic, 3);
    layout->addWidget(m_strip, 1);
    m_strip->setSpacing(2);
    m_mosaic->setSpacing(1); // a hairline between tiles: one picture of the manifold
    m_strip->setToolTip("Each line: a held-out row, the method's reconstruction of it (the "
                        "decoder's mean at q's mean) and a picture decoded from a draw of the "
                        "prior (the decoder's mean, without the noise).");
    m_mosaic->setToolTip("The decoder's mean f(z) at an even grid of latent points from −2.5 to "
                         "2.5 in z1 (across) and z2 (up), the other coordinates 0: the learned "
                         "manifold of pictures.");
}

void PictureView::show(const fa::VaeLiveSnapshot& s) {
    const int w = s.image.width, h = s.image.height;
    const QString method = legendName(s.viewMethod, kLab);
    std::vector<ImageTiles::Tile> tiles;
    for (Eigen::Index i = 0; i < s.mosaic.rows(); ++i)
        tiles.push_back({s.mosaic.row(i).transpose(), {}, ImageTiles::Scale::Grey});
    m_mosaic->setTitle(QString("%1's decoder f(z), z1 →, z2 ↑").arg(method));
    m_mosaic->setTiles(w, h, std::move(tiles), s.mosaicColumns);
    tiles.clear(); // one line per shown row: the row, its reconstruction, a draw
    for (Eigen::Index i = 0; i < s.shownPictures.rows(); ++i)
        for (const fa::Matrix* m : {&s.shownPictures, &s.reconstructedPictures, &s.samplePictures})
            tiles.push_back({i < m->rows() ? fa::Vector(m->row(i).transpose())
                                           : fa::Vector::Constant(w * h, 0.0),
                             {},
                             ImageTiles::Scale::Grey});
    m_strip->setTitle("row · fit · draw");
    m_strip->setTiles(w, h, std::move(tiles), 3);
}

DataSpaceView::DataSpaceView(QWidget* parent)
    : SeriesChart("principal axis 1", "principal axis 2", parent) {}

void DataSpaceView::show(const fa::VaeLiveSnapshot& s) {
    clearAll();
    const QColor colour = colourFor(s.viewMethod, kLab);
    setTitle(QString("Data space: rows (grey) and %1's reconstructions, samples (light), decoded "
                     "grid")
                 .arg(legendName(s.viewMethod, kLab)));
    m_x->setTitleText(QString::fromStdString(s.xLabel));
    m_y->setTitleText(QString::fromStdString(s.yLabel));
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    auto points = [&](const std::vector<Eigen::Vector2d>& from, bool range) {
        QList<QPointF> out;
        for (const auto& p : from) {
            out.append({p.x(), p.y()});
            if (range)
                widenRange(p.x(), xlo, xhi), widenRange(p.y(), ylo, yhi);
        }
        return out;
    };
    scatter("data", QColor(150, 150, 150), 5.0, "rows")->replace(points(s.points, true));
    QColor light = colour;
    light.setAlpha(90);
    // A handful of rows (a tiny data set) would leave the model's samples outside the view.
    scatter("samples", light, 5.0, "samples")->replace(points(s.samples, s.points.size() < 100));
    scatter("recon", colour, 4.0, "reconstructions")->replace(points(s.reconstructions, false));
    for (std::size_t i = 0; i < 64; ++i) {
        QList<QPointF> path = i < s.grid.size() ? points(s.grid[i], false) : QList<QPointF>{};
        if (!path.isEmpty())
            line("grid" + std::to_string(i), QPen(colour.darker(130), 1.2),
                 i == 0 ? QString("decoded grid") : QString())
                ->replace(path);
    }
    endFrame();
    fit(xlo, xhi, ylo, yhi, true);
}
