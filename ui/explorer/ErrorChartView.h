#pragma once
// One error metric against samples seen, log-log: a line per online algorithm and markers for
// the batch refits. Thin adapter over Qt Charts (kept inside ui/, see STYLE.md).
#include "core/explorer/LiveExplorer.h"
#include "ui/common/SeriesByKey.h"

#include <QtCharts/QChartView>
#include <functional>
#include <map>

class ChangeMarkers;
class QLogValueAxis;
class QXYSeries;

class ErrorChartView : public QChartView {
    Q_OBJECT
  public:
    using Metric = std::function<double(const fa::CurvePoint&)>;
    ErrorChartView(const QString& title, const QString& yLabel, Metric metric,
                   QWidget* parent = nullptr);
    void showSnapshot(const fa::ExplorerSnapshot& snapshot);
    /// The series drawn for an algorithm (em, sga, batch), for tests and export.
    QXYSeries* series(const QString& algorithm) const;
    /// Where the learning rate was changed live, with its new value.
    const ChangeMarkers* changeMarkers() const { return m_changes; }

  private:
    QXYSeries* seriesFor(const std::string& algorithm);
    Metric m_metric;
    QLogValueAxis* m_x;
    QLogValueAxis* m_y;
    SeriesByKey<QXYSeries> m_series;
    ChangeMarkers* m_changes;
};
