#include "ui/common/ChangeMarkers.h"

#include <QGraphicsSimpleTextItem>
#include <QPen>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>

ChangeMarkers::ChangeMarkers(QChart* chart, QAbstractAxis* x, QAbstractAxis* y)
    : QObject(chart), m_chart(chart), m_x(x), m_y(y) {
    connect(chart, &QChart::plotAreaChanged, this, &ChangeMarkers::place);
}

QLineSeries* ChangeMarkers::line(int k) const {
    return m_lines.at(static_cast<std::size_t>(k));
}

QString ChangeMarkers::label(int k) const {
    return m_labels.at(static_cast<std::size_t>(k))->text();
}

void ChangeMarkers::show(const std::vector<std::pair<double, QString>>& marks, double lo,
                         double hi) {
    while (m_lines.size() < marks.size()) {
        auto* line = new QLineSeries;
        line->setPen(QPen(QColor(90, 90, 90), 1.2, Qt::DashLine));
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        for (QLegendMarker* m : m_chart->legend()->markers(line))
            m->setVisible(false);
        m_lines.push_back(line);
        auto* text = new QGraphicsSimpleTextItem(m_chart);
        text->setBrush(QColor(60, 60, 60));
        text->setZValue(20);
        m_labels.push_back(text);
    }
    for (std::size_t k = 0; k < m_lines.size(); ++k) {
        const bool used = k < marks.size();
        if (used)
            m_lines[k]->replace(QList<QPointF>{{marks[k].first, lo}, {marks[k].first, hi}});
        else
            m_lines[k]->clear();
        m_labels[k]->setVisible(used);
        if (used)
            m_labels[k]->setText(marks[k].second);
    }
    m_marks = marks;
    m_hi = hi;
    place();
}

void ChangeMarkers::place() {
    const QRectF area = m_chart->plotArea();
    for (std::size_t k = 0; k < m_marks.size() && k < m_labels.size(); ++k) {
        const QPointF at = m_chart->mapToPosition(QPointF(m_marks[k].first, m_hi), m_lines[k]);
        // Just right of the line, inside the plot's top edge (staggered so two stay apart).
        m_labels[k]->setPos(
            std::min(at.x() + 3, area.right() - m_labels[k]->boundingRect().width()),
            area.top() + 2 + 14.0 * static_cast<double>(k % 3));
    }
}
