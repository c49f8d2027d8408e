#pragma once
// The latent lab's four live views, each drawing one LatentLiveSnapshot: the log-likelihood
// curves with batch EM's ELBO staircase, the data in a plane with every model's ellipses and
// loading arrows (the mixture: points coloured by component), the Gibbs traces of one entry of
// C, and the posterior means E[z | x] in latent space.
#include "core/latent/LatentLive.h"

#include <QtCharts/QChartView>
#include <map>
#include <set>
#include <string>

class QAbstractSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

/// A chart view with two value axes and series made on demand by key.
class LatentChart : public QChartView {
    Q_OBJECT
  public:
    explicit LatentChart(const QString& xLabel, const QString& yLabel, QWidget* parent = nullptr);
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

class LoglikView : public LatentChart {
    Q_OBJECT
  public:
    explicit LoglikView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
    /// Only the last few iterations, so that EM's staircase (the bound touching after E, rising
    /// after M) is large enough to see; 0 = every iteration.
    void setWindow(long iterations) { m_window = iterations; }

  private:
    long m_window = 0;
};

class DataPlaneView : public LatentChart {
    Q_OBJECT
  public:
    explicit DataPlaneView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};

class TraceView : public LatentChart {
    Q_OBJECT
  public:
    explicit TraceView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};

class LatentMeansView : public LatentChart {
    Q_OBJECT
  public:
    explicit LatentMeansView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};
