#pragma once
// Report Figures 2-5 live: true against estimated posterior means, variances or off-diagonal
// covariances, one colour per approximation, with the identity line.
#include "core/posterior/PosteriorLive.h"
#include "ui/common/SeriesByKey.h"

#include <QtCharts/QChartView>
#include <map>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

class ComparisonScatter : public QChartView {
    Q_OBJECT
  public:
    enum class Quantity { Means, Variances, Covariances };
    explicit ComparisonScatter(Quantity quantity, QWidget* parent = nullptr);
    void showSnapshot(const fa::PosteriorLiveSnapshot& snapshot);
    QScatterSeries* series(const QString& method) const; ///< by fa::methodName, for tests
    QLineSeries* identity() const { return m_identity; }

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    QScatterSeries* seriesFor(const std::string& method);
    void setRanges(double lo, double hi); ///< both axes, round ticks as many as fit
    Quantity m_quantity;
    QValueAxis *m_x, *m_y;
    QLineSeries* m_identity;
    SeriesByKey<QScatterSeries> m_series;
};
