#pragma once
// The teaching picture: for two coordinates, the probability-mass ellipses of the true
// marginal Gaussian and of each algorithm's current marginal, over the latest observations.
#include "core/explorer/LiveExplorer.h"
#include "core/posterior/PosteriorLive.h"

#include <QRectF>
#include <QtCharts/QChartView>
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

/// What one frame of the contour view shows; the explorer and the posterior lab both fill it.
struct ContourScene {
    QString title, xLabel, yLabel;
    struct Model {
        std::string name; ///< palette key (MethodStyle.h)
        bool valid = false;
        fa::Marginal2 marginal;
        /// Drawn instead of the ellipses when set: a grid posterior's 39 / 86 / 99 % contours,
        /// each level one or more polylines (the bimodal target's inner level is two).
        std::shared_ptr<const fa::ExactContours> curves;
    };
    std::vector<Model> models;
    std::string reference;              ///< the model the axes are fitted to (truth, exact)
    std::vector<Eigen::Vector2d> cloud; ///< recent observations or iterates
    /// The observation the last Step explained (the explorer's Last step panel), ringed.
    std::optional<Eigen::Vector2d> stepped;
};

class ContourView : public QChartView {
    Q_OBJECT
  public:
    explicit ContourView(QWidget* parent = nullptr);
    void showSnapshot(const fa::ExplorerSnapshot& snapshot);
    void showScene(const ContourScene& scene);
    void setCloudName(const QString& name);
    void useShortNames(bool on); ///< legend names from legendName() (set before the first frame)
    /// The ellipse drawn for a model (truth, em, sga, batch) at level index 0..2 (tests).
    QLineSeries* contour(const QString& model, int level) const;
    QScatterSeries* observations() const { return m_points; }
    QScatterSeries* steppedObservation() const { return m_stepped; }

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    /// The box the drawn outer contours span.
    struct Extent {
        double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
        void add(double x, double y) {
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    };
    // showScene's steps.
    void drawCloud(const ContourScene& scene);
    void drawCurves(const fa::ExactContours& curves, std::vector<QLineSeries*>& pool, Extent& all);
    QRectF drawEllipses(const fa::Marginal2& marginal, std::vector<QLineSeries*>& pool,
                        Extent& all);
    void showPresent(const ContourScene& scene);
    void fitAxes(Extent all, const Extent& reference);
    std::vector<QLineSeries*>& seriesFor(const std::string& model);
    /// The legend goes below the plot when its entries fit in one row there, else to the right
    /// (one entry a line), so no name is cut short in a narrow view (a projector's 1280 x 800).
    void placeLegend();
    QValueAxis *m_x, *m_y;
    QScatterSeries *m_points, *m_stepped;
    std::map<std::string, std::vector<QLineSeries*>> m_contours;
    std::vector<double> m_levels;
    QString m_title;
    bool m_shortNames = false;
};
