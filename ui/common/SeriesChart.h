#pragma once
// A chart view with two value axes and series made on demand by key, redrawn frame by frame:
// every series is cleared at the start of a frame and those not drawn again are hidden with
// their legend entries. The latent and nonlinear-FA labs' views derive from it.
#include <QList>
#include <QPointF>
#include <QtCharts/QChartView>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

class QAbstractSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

/// Appends (x, y) to a curve's points where y is finite (NaN: a score that does not apply).
inline void appendFinite(QList<QPointF>& points, double x, double y) {
    if (std::isfinite(y))
        points.append({x, y});
}

/// Widens [lo, hi] to take v in where v is finite.
inline void widenRange(double v, double& lo, double& hi) {
    if (std::isfinite(v))
        lo = std::min(lo, v), hi = std::max(hi, v);
}

/// A chart view with two value axes and series made on demand by key.
class SeriesChart : public QChartView {
    Q_OBJECT
  public:
    explicit SeriesChart(const QString& xLabel, const QString& yLabel, QWidget* parent = nullptr);
    QLineSeries* line(const std::string& key) const;
    QScatterSeries* scatter(const std::string& key) const;

  protected:
    QLineSeries* line(const std::string& key, const QPen& pen, const QString& name);
    QScatterSeries* scatter(const std::string& key, const QColor& colour, double size,
                            const QString& name);
    /// Starts a frame: every series is cleared; those not drawn again by endFrame() are hidden
    /// with their legend entries (a method switched off, the mixture's components after FA).
    void clearAll();
    void endFrame();
    void adopt(QAbstractSeries* series); ///< added to the chart on both axes
    void setTitle(const QString& title); ///< two lines when one does not fit
    /// Fits the axes to [lo, hi] with 5 % padding (the y axis "nice").
    void fit(double xlo, double xhi, double ylo, double yhi, bool equalAspect = false);

    QValueAxis *m_x, *m_y;
    std::map<std::string, QLineSeries*> m_lines;
    std::map<std::string, QScatterSeries*> m_scatters;
    std::set<std::string> m_touched;
};
