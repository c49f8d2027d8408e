#include "ui/common/ContourView.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/ChartTitle.h"
#include "ui/common/MethodStyle.h"

#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

ContourView::ContourView(QWidget* parent)
    : QChartView(parent), m_x(new QValueAxis), m_y(new QValueAxis), m_points(new QScatterSeries),
      m_stepped(new QScatterSeries), m_levels(fa::standardMassLevels()) {
    auto* c = new QChart;
    c->legend()->setAlignment(Qt::AlignBottom);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_x->setLabelFormat("%.3g");
    m_y->setLabelFormat("%.3g");
    m_points->setName("observations"); // the latest ones: whole in a legend at 200 %
    m_points->setMarkerSize(4);
    m_points->setColor(QColor(90, 90, 90, 70));
    m_points->setBorderColor(Qt::transparent);
    c->addSeries(m_points);
    m_points->attachAxis(m_x);
    m_points->attachAxis(m_y);
    m_stepped->setName("stepped observation");
    m_stepped->setMarkerSize(14);
    m_stepped->setColor(Qt::transparent);
    m_stepped->setBorderColor(QColor(214, 39, 40));
    m_stepped->setPen(QPen(QColor(214, 39, 40), 2.5));
    c->addSeries(m_stepped);
    m_stepped->attachAxis(m_x);
    m_stepped->attachAxis(m_y);
    for (QLegendMarker* marker : c->legend()->markers(m_stepped))
        marker->setVisible(false); // in the legend only while there is one
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 240); // two rows of views and a caption fit 1280 x 800 at 200 %
    setToolTip("Contours of N(c, F Fᵀ + Ψ) restricted to two coordinates. The ellipse (x − c)ᵀ S⁻¹ "
               "(x − c) = r² "
               "holds mass 1 − exp(−r²/2): r = 1, 2, 3 give 39 %, 86 %, 99 %.");
}

std::vector<QLineSeries*>& ContourView::seriesFor(const std::string& model) {
    auto it = m_contours.find(model);
    if (it != m_contours.end())
        return it->second;
    std::vector<QLineSeries*> pool;
    for (std::size_t level = 0; level < m_levels.size(); ++level) {
        auto* s = new QLineSeries;
        const bool reference = model == "truth" || model.rfind("exact", 0) == 0;
        QPen pen(colourFor(model), reference ? 2.2 : 1.6);
        if (model == "batch" || model == "exact-laplace") // over the solid line it may cover
            pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        s->setName(m_shortNames ? legendName(model) : displayName(model));
        chart()->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        if (level > 0) // one legend entry per model
            for (QLegendMarker* m : chart()->legend()->markers(s))
                m->setVisible(false);
        pool.push_back(s);
    }
    auto& added = m_contours.emplace(model, std::move(pool)).first->second;
    placeLegend(); // one more entry
    return added;
}

QLineSeries* ContourView::contour(const QString& model, int level) const {
    const auto it = m_contours.find(model.toStdString());
    if (it == m_contours.end() || level < 0 || level >= static_cast<int>(it->second.size()))
        return nullptr;
    return it->second[static_cast<std::size_t>(level)];
}

void ContourView::setCloudName(const QString& name) {
    m_points->setName(name);
    placeLegend();
}

void ContourView::useShortNames(bool on) {
    m_shortNames = on;
    QFont small = chart()->legend()->font();
    small.setPointSizeF(small.pointSizeF() * (on ? 0.85 : 1.0 / 0.85)); // room for seven entries
    chart()->legend()->setFont(small);
    placeLegend();
}

void ContourView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fitTitle(chart(), m_title, width());
    placeLegend();
}

void ContourView::placeLegend() {
    QLegend* legend = chart()->legend();
    // A row entry's width as Qt Charts lays it out (LegendMarkerItem::sizeHint, LegendLayout):
    // the label with its text margins, a marker half the font's height, 3 + 4 + 3 + 3 px of item
    // margins and spacing, and 2 px to spare (Qt cuts every label once the row is too wide).
    const QFontMetricsF fm(legend->font());
    const auto entry = [&](const QString& label) {
        return fm.horizontalAdvance(label) + fm.height() / 2 + 21;
    };
    // One entry for the cloud and one per model (its first ellipse). Markers are not asked:
    // isVisible() is false for all of them until the legend's next layout.
    double row = entry(m_points->name());
    for (const auto& [name, pool] : m_contours)
        row += entry(pool.front()->name());
    // The row's room: the view less the chart's margins and its and the legend's layout margins.
    qreal left = 0, top = 0, right = 0, bottom = 0, legendLeft = 0, legendRight = 0;
    chart()->layout()->getContentsMargins(&left, &top, &right, &bottom);
    legend->layout()->getContentsMargins(&legendLeft, &top, &legendRight, &bottom);
    const QMargins margins = chart()->margins();
    const double room =
        width() - margins.left() - margins.right() - left - right - legendLeft - legendRight;
    const Qt::Alignment where = row <= room ? Qt::AlignBottom : Qt::AlignRight;
    if (legend->alignment() != where)
        legend->setAlignment(where);
}

void ContourView::showSnapshot(const fa::ExplorerSnapshot& snap) {
    const int i = snap.view.coordI + 1, j = snap.view.coordJ + 1;
    ContourScene scene;
    scene.title = QString("2D marginal of θ%1, θ%2: 39 / 86 / 99 % mass contours").arg(i).arg(j);
    scene.xLabel = QString("θ%1").arg(i);
    scene.yLabel = QString("θ%1").arg(j);
    for (const auto& model : snap.models)
        scene.models.push_back({model.name, model.valid, model.marginal, nullptr});
    scene.reference = "truth";
    scene.cloud = snap.recent;
    if (snap.lastStep && !snap.recent.empty())
        scene.stepped = snap.recent.back(); // the newest observation is the traced one
    showScene(scene);
}

void ContourView::showScene(const ContourScene& scene) {
    m_title = scene.title;
    fitTitle(chart(), m_title, width());
    m_x->setTitleText(scene.xLabel);
    m_y->setTitleText(scene.yLabel);
    drawCloud(scene);
    for (auto& [name, pool] : m_contours)
        for (QLineSeries* s : pool)
            s->clear(); // a model no longer present (diverged) disappears
    Extent all, reference;
    std::vector<std::pair<std::string, QRectF>> extents; // each ellipse model's outer box
    for (const auto& model : scene.models) {
        auto& pool = seriesFor(model.name);
        if (!model.valid)
            continue;
        if (model.curves)
            drawCurves(*model.curves, pool, all);
        else
            extents.emplace_back(model.name, drawEllipses(model.marginal, pool, all));
        if (model.name == scene.reference)
            reference = all;
    }
    showPresent(scene);
    if (!(reference.x1 > reference.x0) || !(reference.y1 > reference.y0))
        return;
    fitAxes(all, reference);
    // A fit still far from the reference (VIFA's mean travelling in from 0) is beyond the axes:
    // its legend entry says so rather than the fit silently missing from the picture.
    const QRectF view(QPointF(m_x->min(), m_y->min()), QPointF(m_x->max(), m_y->max()));
    for (const auto& [name, box] : extents) {
        const QString base = m_shortNames ? legendName(name) : displayName(name);
        const bool away = !box.isNull() && !view.intersects(box);
        m_contours[name].front()->setName(away ? base + " (off the plot)" : base);
    }
}

void ContourView::drawCloud(const ContourScene& scene) {
    QList<QPointF> cloud;
    cloud.reserve(static_cast<qsizetype>(scene.cloud.size()));
    for (const auto& p : scene.cloud)
        cloud.append(QPointF(p.x(), p.y()));
    m_points->replace(cloud);
    m_stepped->replace(scene.stepped
                           ? QList<QPointF>{QPointF(scene.stepped->x(), scene.stepped->y())}
                           : QList<QPointF>{});
    for (QLegendMarker* marker : chart()->legend()->markers(m_stepped))
        marker->setVisible(scene.stepped.has_value());
}

void ContourView::drawCurves(const fa::ExactContours& curves, std::vector<QLineSeries*>& pool,
                             Extent& all) {
    // A grid's contours: one series per polyline, extras unnamed.
    std::size_t extra = m_levels.size();
    for (std::size_t level = 0; level < curves.size(); ++level)
        for (std::size_t k = 0; k < curves[level].size(); ++k) {
            QList<QPointF> line;
            for (const auto& p : curves[level][k]) {
                line.append(QPointF(p.x(), p.y()));
                if (level + 1 == curves.size())
                    all.add(p.x(), p.y());
            }
            if (k == 0) {
                pool[level]->replace(line);
                continue;
            }
            if (extra == pool.size()) {
                auto* s = new QLineSeries;
                s->setPen(pool[level]->pen());
                chart()->addSeries(s);
                s->attachAxis(m_x);
                s->attachAxis(m_y);
                for (QLegendMarker* m : chart()->legend()->markers(s))
                    m->setVisible(false);
                pool.push_back(s);
            }
            pool[extra++]->replace(line);
        }
}

QRectF ContourView::drawEllipses(const fa::Marginal2& marginal, std::vector<QLineSeries*>& pool,
                                 Extent& all) {
    QRectF box;
    for (std::size_t level = 0; level < m_levels.size(); ++level) {
        QList<QPointF> line;
        for (const auto& p : fa::massEllipse(marginal, m_levels[level])) {
            line.append(QPointF(p.x(), p.y()));
            if (level + 1 == m_levels.size()) {
                all.add(p.x(), p.y());
                box |= QRectF(p.x(), p.y(), 1e-300, 1e-300);
            }
        }
        pool[level]->replace(line);
    }
    return box;
}

void ContourView::showPresent(const ContourScene& scene) {
    // Models not in this frame (a method switched off) leave the picture and the legend, as does
    // an empty cloud; one legend entry per model (its first series).
    for (auto& [name, pool] : m_contours) {
        const bool present =
            std::any_of(scene.models.begin(), scene.models.end(),
                        [&name = name](const ContourScene::Model& m) { return m.name == name; });
        for (std::size_t k = 0; k < pool.size(); ++k) {
            pool[k]->setVisible(present);
            for (QLegendMarker* marker : chart()->legend()->markers(pool[k]))
                marker->setVisible(present && k == 0);
        }
    }
    const bool cloud = !scene.cloud.empty();
    m_points->setVisible(cloud);
    for (QLegendMarker* marker : chart()->legend()->markers(m_points))
        marker->setVisible(cloud);
}

void ContourView::fitAxes(Extent all, const Extent& reference) {
    // Axes: the reference's outer ellipse, widened to hold the estimates but never beyond four
    // times its size, so a wild early estimate cannot shrink the picture to a dot.
    const double cx = (reference.x0 + reference.x1) / 2, cy = (reference.y0 + reference.y1) / 2,
                 hx = (reference.x1 - reference.x0) * 2, hy = (reference.y1 - reference.y0) * 2;
    const double x0 = std::max(all.x0, cx - hx), x1 = std::min(all.x1, cx + hx);
    const double y0 = std::max(all.y0, cy - hy), y1 = std::min(all.y1, cy + hy);
    double px = 0.08 * (x1 - x0), py = 0.08 * (y1 - y0);
    // Round ticks, as many as the plot holds (its size from the last layout, else a guess).
    const QRectF plot = chart()->plotArea();
    const double w = plot.width() > 0 ? plot.width() : width() - 120.0,
                 h = plot.height() > 0 ? plot.height() : height() - 120.0;
    // One scale on both axes, so a circle is drawn round and an ellipse keeps its shape at any
    // panel size: the axis with fewer units per pixel widens about its centre. Where the two
    // spans differ more than tenfold, equal scales would draw a line: each keeps its own.
    const double ux = (x1 - x0 + 2 * px) / std::max(w, 1.0),
                 uy = (y1 - y0 + 2 * py) / std::max(h, 1.0);
    if (ux > 0 && uy > 0 && std::max(ux, uy) < 10 * std::min(ux, uy)) {
        if (ux > uy)
            py += (ux * h - (y1 - y0 + 2 * py)) / 2;
        else
            px += (uy * w - (x1 - x0 + 2 * px)) / 2;
    }
    setRoundTicks(m_x, x0 - px, x1 + px, w, 45);
    setRoundTicks(m_y, y0 - py, y1 + py, h, 40);
}
