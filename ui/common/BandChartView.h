#pragma once
// Mean +- standard error over trials against samples, log-log: a shaded band and a mean line
// per algorithm, like the thesis figures.
#include "core/explorer/TrialBands.h"

#include <QtCharts/QChartView>
#include <functional>
#include <map>

class QAreaSeries;
class QLineSeries;
class QLogValueAxis;

class BandChartView : public QChartView {
    Q_OBJECT
  public:
    using Metric = std::function<fa::MeanStdErr(const fa::BandPoint&)>;
    BandChartView(const QString& title, const QString& yLabel, Metric metric,
                  QWidget* parent = nullptr);
    void showBands(const std::vector<fa::AlgorithmBand>& bands, long totalSamples);
    QLineSeries* meanSeries(const QString& algorithm) const;
    QAreaSeries* band(const QString& algorithm) const;

  private:
    struct Curve {
        QLineSeries *mean, *upper, *lower;
        QAreaSeries* area;
    };
    Curve& curveFor(const std::string& algorithm);
    Metric m_metric;
    QLogValueAxis *m_x, *m_y;
    std::map<std::string, Curve> m_curves;
};
