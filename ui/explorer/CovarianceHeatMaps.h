#pragma once
// Heat maps of the leading covariance block: the truth, each current estimate, and each
// estimate minus the truth, all on one symmetric colour scale with a colour bar. Hovering a
// cell shows its value. Painted by hand: Qt Charts 6.4 has no heat-map series.
#include "core/explorer/LiveExplorer.h"

#include <QImage>
#include <QWidget>
#include <vector>

class CovarianceHeatMaps : public QWidget {
    Q_OBJECT
  public:
    explicit CovarianceHeatMaps(QWidget* parent = nullptr);
    void showSnapshot(const fa::ExplorerSnapshot& snapshot);
    /// The shared colour scale: colours span [-scale, +scale].
    double scale() const { return m_scale; }
    /// Colour of a value on the shared scale (diverging blue - white - red).
    static QColor colourOf(double value, double scale);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    struct Panel {
        QString title;
        fa::Matrix values;
        QImage image;
        QRectF rect; // where it was last painted
    };
    void layoutPanels(QRectF area);
    std::vector<Panel> m_panels; // truth, estimates..., then differences
    int m_columns = 1;
    double m_scale = 1.0;
    QString m_caption;
    QRectF m_colourBar;
    double m_cellWidth = 0.0; ///< one panel's column, its title's room
};
