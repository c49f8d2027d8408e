#pragma once
// The teaching picture: for two coordinates, the probability-mass ellipses of the true
// marginal Gaussian and of each algorithm's current marginal, over the latest observations.
#include "LiveExplorer.h"

#include <QtCharts/QChartView>
#include <map>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

class ContourView : public QChartView {
    Q_OBJECT
public:
    explicit ContourView(QWidget* parent = nullptr);
    void showSnapshot(const fa::ExplorerSnapshot& snapshot);
    /// The ellipse drawn for a model (truth, em, sga, batch) at level index 0..2 (tests).
    QLineSeries* contour(const QString& model, int level) const;
    QScatterSeries* observations() const { return m_points; }

private:
    std::vector<QLineSeries*>& seriesFor(const std::string& model);
    QValueAxis *m_x, *m_y;
    QScatterSeries* m_points;
    std::map<std::string, std::vector<QLineSeries*>> m_contours;
    std::vector<double> m_levels;
};
