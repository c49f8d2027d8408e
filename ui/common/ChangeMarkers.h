#pragma once
// Marks on a chart where a live change took effect: a dashed vertical line at its position
// (samples or epochs) across the plot, labelled with the new value at the top ("η → 0.003").
// Kept out of the legend; redrawn with each frame and when the plot area moves.
#include <QString>
#include <QtCharts/QChart>
#include <utility>
#include <vector>

class QGraphicsSimpleTextItem;
class QLineSeries;

class ChangeMarkers : public QObject {
    Q_OBJECT
  public:
    ChangeMarkers(QChart* chart, QAbstractAxis* x, QAbstractAxis* y);
    /// One mark per (position, label); lo..hi the y range to span.
    void show(const std::vector<std::pair<double, QString>>& marks, double lo, double hi);
    int count() const { return static_cast<int>(m_marks.size()); }
    QLineSeries* line(int k) const; ///< tests
    QString label(int k) const;     ///< tests

  private:
    void place();
    QChart* m_chart;
    QAbstractAxis *m_x, *m_y;
    std::vector<std::pair<double, QString>> m_marks;
    std::vector<QLineSeries*> m_lines;
    std::vector<QGraphicsSimpleTextItem*> m_labels;
    double m_hi = 1.0;
};
