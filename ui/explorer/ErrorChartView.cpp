#include "ui/explorer/ErrorChartView.h"

#include "ui/common/ChangeMarkers.h"
#include "ui/common/LogLogChart.h"
#include "ui/common/MethodStyle.h"

#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <algorithm>
#include <cmath>

ErrorChartView::ErrorChartView(const QString& title, const QString& yLabel, Metric metric,
                               QWidget* parent)
    : QChartView(parent), m_metric(std::move(metric)), m_x(new QLogValueAxis),
      m_y(new QLogValueAxis) {
    setChart(makeLogLogChart(title, yLabel, m_x, m_y));
    m_changes = new ChangeMarkers(chart(), m_x, m_y);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(360, 220);
}

QXYSeries* ErrorChartView::seriesFor(const std::string& algorithm) {
    return m_series.get(chart(), m_x, m_y, algorithm, [&] {
        QXYSeries* s;
        if (algorithm == "batch") {
            auto* scatter = new QScatterSeries;
            scatter->setMarkerSize(9);
            s = scatter;
        } else {
            auto* line = new QLineSeries;
            line->setPen(QPen(colourFor(algorithm), 2));
            s = line;
        }
        s->setName(algorithm == "batch" ? "batch FA (refit)" : displayName(algorithm));
        s->setColor(colourFor(algorithm));
        return s;
    });
}

QXYSeries* ErrorChartView::series(const QString& algorithm) const {
    return m_series.find(algorithm);
}

void ErrorChartView::showSnapshot(const fa::ExplorerSnapshot& snapshot) {
    // A fitter the run no longer has (batch FA turned off) leaves the chart and its legend.
    auto& all = m_series.all();
    for (auto it = all.begin(); it != all.end();) {
        const bool inRun = std::any_of(snapshot.traces.begin(), snapshot.traces.end(),
                                       [&](const auto& t) { return t.name == it->first; });
        if (inRun) {
            ++it;
            continue;
        }
        chart()->removeSeries(it->second);
        delete it->second;
        it = all.erase(it);
    }
    double lo = INFINITY, hi = 0.0;
    std::vector<double> peaks; // each fitter's largest value
    for (const auto& trace : snapshot.traces) {
        double peak = 0.0;
        QList<QPointF> points;
        points.reserve(static_cast<qsizetype>(trace.points.size()));
        for (const auto& p : trace.points) {
            const double v = m_metric(p);
            if (!(v > 0.0) || !std::isfinite(v))
                continue; // a log axis cannot show it
            points.append(QPointF(static_cast<double>(p.samples), v));
            lo = std::min(lo, v);
            peak = std::max(peak, v);
        }
        if (peak > 0.0)
            peaks.push_back(peak);
        seriesFor(trace.name)->replace(points); // one replace per frame (QT-NOTES.md)
    }
    // A fitter that blows up (SGA with too large a step) would stretch the axis over ten
    // decades and flatten the others at its foot: the axis ends two decades above the
    // second-highest fitter's peak, and the runaway curve leaves the chart at the top.
    std::sort(peaks.begin(), peaks.end());
    if (!peaks.empty())
        hi = peaks.size() > 1 ? std::min(peaks.back(), 100.0 * peaks[peaks.size() - 2])
                              : peaks.back();
    m_x->setRange(1, std::max(10.0, std::pow(10.0, std::ceil(std::log10(std::max<double>(
                                                       snapshot.totalSamples, 10))))));
    if (hi > 0.0)
        // Widened a hair so the decade labels at both ends are not dropped by rounding.
        m_y->setRange(0.999 * std::pow(10.0, std::floor(std::log10(lo))),
                      1.001 * std::pow(10.0, std::ceil(std::log10(hi))));
    std::vector<std::pair<double, QString>> marks;
    for (const auto& [samples, rate] : snapshot.config.learningRateChanges)
        if (samples > 0)
            marks.emplace_back(static_cast<double>(samples),
                               QString("η → %1").arg(rate, 0, 'g', 3));
    m_changes->show(marks, m_y->min(), m_y->max());
}
