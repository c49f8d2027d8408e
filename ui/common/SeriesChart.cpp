#include "ui/common/SeriesChart.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/ChartFrame.h"
#include "ui/common/ChartTitle.h"
#include "ui/common/MethodStyle.h"

#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

SeriesChart::SeriesChart(const QString& xLabel, const QString& yLabel, QWidget* parent)
    : QChartView(parent), m_x(new QValueAxis), m_y(new QValueAxis) {
    auto* c = framedChart({}, m_x, {xLabel, "%.3g"}, m_y, {yLabel, "%.4g"});
    c->legend()->setAlignment(Qt::AlignBottom);
    c->setMargins(QMargins(4, 4, 4, 4));
    setChart(c);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(300, 220);
}

QLineSeries* SeriesChart::line(const std::string& key) const {
    const auto it = m_lines.find(key);
    return it == m_lines.end() ? nullptr : it->second;
}

QScatterSeries* SeriesChart::scatter(const std::string& key) const {
    const auto it = m_scatters.find(key);
    return it == m_scatters.end() ? nullptr : it->second;
}

void SeriesChart::adopt(QAbstractSeries* series) {
    chart()->addSeries(series); // legend entries are settled by endFrame()
    series->attachAxis(m_x);
    series->attachAxis(m_y);
}

QLineSeries* SeriesChart::line(const std::string& key, const QPen& given, const QString& name) {
    m_touched.insert(key);
    QPen pen = given; // black reference lines turn white in the dark theme, on every frame
    pen.setColor(themed(given.color()));
    if (auto it = m_lines.find(key); it != m_lines.end()) {
        it->second->setName(name);
        if (it->second->pen() != pen) // a series drawn for another method now
            it->second->setPen(pen);
        return it->second;
    }
    auto* s = new QLineSeries;
    s->setPen(pen);
    s->setName(name);
    adopt(s);
    return m_lines[key] = s;
}

QScatterSeries* SeriesChart::scatter(const std::string& key, const QColor& given, double size,
                                     const QString& name) {
    m_touched.insert(key);
    const QColor colour = themed(given);
    if (auto it = m_scatters.find(key); it != m_scatters.end()) {
        QScatterSeries* existing = it->second;
        if (existing->name() != name)
            existing->setName(name);
        if (existing->color() != colour) {
            existing->setColor(colour);
            existing->setBorderColor(colour);
        }
        return existing;
    }
    auto* s = new QScatterSeries;
    s->setColor(colour);
    s->setBorderColor(colour);
    s->setMarkerSize(size);
    s->setName(name);
    adopt(s);
    return m_scatters[key] = s;
}

void SeriesChart::clearAll() {
    for (auto& [k, s] : m_lines)
        s->clear();
    for (auto& [k, s] : m_scatters)
        s->clear();
    m_touched.clear();
}

void SeriesChart::endFrame() {
    auto show = [&](QXYSeries* s, const std::string& key) {
        const bool drawn = m_touched.count(key) > 0 && s->count() > 0;
        s->setVisible(drawn);
        for (QLegendMarker* marker : chart()->legend()->markers(s))
            marker->setVisible(drawn && !s->name().isEmpty());
    };
    for (auto& [k, s] : m_lines)
        show(s, k);
    for (auto& [k, s] : m_scatters)
        show(s, k);
}

void SeriesChart::setTitle(const QString& title) {
    fitTitle(chart(), title, width());
}

void SeriesChart::fit(double xlo, double xhi, double ylo, double yhi, bool equalAspect) {
    if (!(std::isfinite(xlo) && std::isfinite(xhi) && std::isfinite(ylo) && std::isfinite(yhi)))
        return;
    if (equalAspect) { // the same units on both axes, so ellipses keep their shape
        const double w = xhi - xlo, h = yhi - ylo, span = std::max(w, h);
        xlo -= (span - w) / 2, xhi += (span - w) / 2;
        ylo -= (span - h) / 2, yhi += (span - h) / 2;
    }
    // A single level (one value so far) gets a band of ±5 % around it.
    if (!(yhi - ylo > 1e-9 * (1.0 + std::abs(yhi))))
        ylo -= 0.05 * (std::abs(ylo) + 1e-3), yhi += 0.05 * (std::abs(yhi) + 1e-3);
    if (!(xhi - xlo > 1e-9 * (1.0 + std::abs(xhi))))
        xlo -= 0.05 * (std::abs(xlo) + 1e-3), xhi += 0.05 * (std::abs(xhi) + 1e-3);
    const double dx = xhi - xlo, dy = yhi - ylo;
    // Round ticks, as many as the chart's size holds (a projector's 1280 x 800 window).
    setRoundTicks(m_x, xlo - 0.05 * dx, xhi + 0.05 * dx, width() - 90.0, 60.0);
    setRoundTicks(m_y, ylo - 0.05 * dy, yhi + 0.05 * dy, height() - 110.0, 35.0);
}
