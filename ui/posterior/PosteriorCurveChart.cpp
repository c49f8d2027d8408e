#include "ui/posterior/PosteriorCurveChart.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/ChangeMarkers.h"
#include "ui/common/ChartFrame.h"
#include "ui/common/ChartTitle.h"
#include "ui/common/MethodStyle.h"

#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>
#include <cmath>

PosteriorCurveChart::PosteriorCurveChart(QString title, const QString& yLabel, Metric metric,
                                         QWidget* parent)
    : QChartView(parent), m_title(std::move(title)), m_metric(std::move(metric)),
      m_x(new QValueAxis), m_y(new QLogValueAxis) {
    setRoundTicks(m_x, 0, 10, 220, 55);
    m_y->setBase(10);
    m_y->setMinorTickCount(8);
    m_y->setRange(1e-3, 1);
    auto* c = framedChart(m_title, m_x, {"epoch", "%.0f"}, m_y, {yLabel, "%g"});
    c->legend()->hide(); // the contour view's legend names the colours
    setChart(c);
    m_changes = new ChangeMarkers(c, m_x, m_y);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(220, 180); // four of them beside the contours in a 1280 x 800 window
}

void PosteriorCurveChart::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    fitTitle(chart(), m_title, width());
    setRoundTicks(m_x, m_x->min(), m_x->max(), width() - 110, 55);
}

QLineSeries* PosteriorCurveChart::seriesFor(const std::string& method) {
    return m_series.get(chart(), m_x, m_y, method, [&] {
        auto* s = new QLineSeries;
        s->setPen(QPen(colourFor(method), 2));
        s->setName(displayName(method));
        return s;
    });
}

QLineSeries* PosteriorCurveChart::series(const QString& method) const {
    return m_series.find(method);
}

void PosteriorCurveChart::showSnapshot(const fa::PosteriorLiveSnapshot& snapshot) {
    double lo = INFINITY, hi = 0.0;
    m_series.clearAll(); // a method left out of this run shows nothing
    for (const auto& [method, curve] : snapshot.curves) {
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(curve.size()));
        for (const auto& p : curve) {
            const double v = m_metric(p.score);
            if (!(v > 0.0) || !std::isfinite(v))
                continue; // a log axis cannot show it
            points.append(QPointF(static_cast<double>(p.epoch), v));
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        seriesFor(fa::methodName(method))->replace(points); // one replace per frame (QT-NOTES.md)
    }
    // Round epoch ticks: "0 500 1000", not five ticks elided in a narrow chart.
    setRoundTicks(m_x, 0, std::max<double>(10, static_cast<double>(snapshot.epoch)), width() - 110,
                  55);
    // About six decades below the largest value at most (the decade below 1e-6 of it): a
    // curve that starts at 1e-17 (a mean of 0 met by chance at epoch 0) squeezed every other
    // curve into the top strip. Points further down fall below the axis.
    lo = std::max(lo, 1e-6 * hi);
    if (hi > 0.0)
        m_y->setRange(0.999 * std::pow(10.0, std::floor(std::log10(lo))),
                      1.001 * std::pow(10.0, std::ceil(std::log10(hi))));
    std::vector<std::pair<double, QString>> marks;
    const fa::PosteriorLiveConfig::Change* before = nullptr;
    for (const auto& change : snapshot.config.changes) {
        if (change.epoch > 0) { // a change at 0 is the start, not a live one
            QStringList what;
            if (!before || change.sgdLearningRate != before->sgdLearningRate)
                what << QString("η → %1").arg(change.sgdLearningRate, 0, 'g', 3);
            if (!before || change.lambda != before->lambda)
                what << QString("λ → %1").arg(change.lambda, 0, 'g', 3);
            marks.emplace_back(static_cast<double>(change.epoch), what.join(", "));
        }
        before = &change;
    }
    m_changes->show(marks, m_y->min(), m_y->max());
}
