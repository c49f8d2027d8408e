#include "ui/common/BandChartView.h"

#include "ui/common/LogLogChart.h"
#include "ui/common/MethodStyle.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <cmath>

BandChartView::BandChartView(const QString& title, const QString& yLabel, Metric metric,
                             QWidget* parent)
    : QChartView(parent), m_metric(std::move(metric)), m_x(new QLogValueAxis),
      m_y(new QLogValueAxis) {
    setChart(makeLogLogChart(title, yLabel, m_x, m_y));
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 260);
}

BandChartView::Curve& BandChartView::curveFor(const std::string& algorithm) {
    auto it = m_curves.find(algorithm);
    if (it != m_curves.end())
        return it->second;
    Curve c{new QLineSeries, new QLineSeries, new QLineSeries, nullptr};
    c.area = new QAreaSeries(c.upper, c.lower);
    QColor fill = colourFor(algorithm);
    fill.setAlpha(60);
    c.area->setBrush(fill);
    c.area->setPen(Qt::NoPen);
    c.area->setName(displayName(algorithm) + " ± SE");
    c.mean->setPen(QPen(colourFor(algorithm), 2));
    c.mean->setPointsVisible(true);
    c.mean->setName(displayName(algorithm) + " mean");
    for (QAbstractSeries* s :
         {static_cast<QAbstractSeries*>(c.area), static_cast<QAbstractSeries*>(c.mean)}) {
        chart()->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    for (QLegendMarker* m : chart()->legend()->markers(c.area))
        m->setVisible(false); // the mean line's entry names the colour
    return m_curves.emplace(algorithm, c).first->second;
}

QLineSeries* BandChartView::meanSeries(const QString& algorithm) const {
    const auto it = m_curves.find(algorithm.toStdString());
    return it == m_curves.end() ? nullptr : it->second.mean;
}

QAreaSeries* BandChartView::band(const QString& algorithm) const {
    const auto it = m_curves.find(algorithm.toStdString());
    return it == m_curves.end() ? nullptr : it->second.area;
}

void BandChartView::showBands(const std::vector<fa::AlgorithmBand>& bands, long totalSamples) {
    double lo = INFINITY, hi = 0.0;
    for (auto& [name, c] : m_curves)
        for (QLineSeries* s : {c.mean, c.upper, c.lower})
            s->clear();
    for (const auto& band : bands) {
        Curve& c = curveFor(band.algorithm);
        QList<QPointF> mean, upper, lower;
        for (const auto& p : band.points) {
            const fa::MeanStdErr v = m_metric(p);
            if (!(v.mean > 0.0) || !std::isfinite(v.mean))
                continue; // a log axis cannot show it
            const double x = static_cast<double>(p.samples);
            // A log axis cannot show mean - SE <= 0; clip the band there (tiny n only).
            const double down = std::max(v.mean - v.stdErr, v.mean * 0.05);
            mean.append({x, v.mean});
            upper.append({x, v.mean + v.stdErr});
            lower.append({x, down});
            lo = std::min(lo, down);
            hi = std::max(hi, v.mean + v.stdErr);
        }
        c.mean->replace(mean);
        c.upper->replace(upper);
        c.lower->replace(lower);
    }
    m_x->setRange(
        1,
        std::max(10.0, std::pow(10.0, std::ceil(std::log10(std::max<double>(totalSamples, 10))))));
    if (hi > 0.0)
        // Widened a hair so the decade labels at both ends are not dropped by rounding.
        m_y->setRange(0.999 * std::pow(10.0, std::floor(std::log10(lo))),
                      1.001 * std::pow(10.0, std::ceil(std::log10(hi))));
}
