#pragma once
// One distance to the exact posterior against epochs (log y), a line per approximation.
#include "core/posterior/PosteriorLive.h"
#include "ui/common/SeriesByKey.h"

#include <QtCharts/QChartView>
#include <functional>
#include <map>

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

class ChangeMarkers;

class PosteriorCurveChart : public QChartView {
    Q_OBJECT
  public:
    using Metric = std::function<double(const fa::PosteriorScore&)>;
    PosteriorCurveChart(QString title, const QString& yLabel, Metric metric,
                        QWidget* parent = nullptr);
    void showSnapshot(const fa::PosteriorLiveSnapshot& snapshot);
    QLineSeries* series(const QString& method) const; ///< by fa::methodName, for tests and export
    /// Where the SGD learning rate or λ was changed live, with the new values.
    const ChangeMarkers* changeMarkers() const { return m_changes; }

  protected:
    void resizeEvent(QResizeEvent* event) override; ///< title and ticks fitted to the width

  private:
    QLineSeries* seriesFor(const std::string& method);
    QString m_title;
    Metric m_metric;
    QValueAxis* m_x;
    QLogValueAxis* m_y;
    ChangeMarkers* m_changes = nullptr;
    SeriesByKey<QLineSeries> m_series;
};
