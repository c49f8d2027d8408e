#pragma once
// The nonlinear-FA lab's four live views, each drawing one VaeLiveSnapshot: the ELBOs and the
// importance-weighted log-likelihood over epochs (PPCA's closed form a level), the latest two gaps
// per method as stacked bars, the latent space (q's means of the shown rows, coloured), and the
// data space in a plane with one method's reconstructions, samples and decoded latent grid; for
// pictures, the decoder's mosaic over the latent plane and rows, reconstructions and samples as
// pictures in place of the data plane.
#include "core/vae/VaeLive.h"
#include "ui/common/SeriesChart.h"

class ImageTiles;
class QBarCategoryAxis;
class QBarSet;
class QStackedBarSeries;

class ElboView : public SeriesChart {
    Q_OBJECT
  public:
    explicit ElboView(QWidget* parent = nullptr);
    void show(const fa::VaeLiveSnapshot& s);
};

class GapView : public QChartView {
    Q_OBJECT
  public:
    explicit GapView(QWidget* parent = nullptr);
    void show(const fa::VaeLiveSnapshot& s);
    /// The bars as drawn: per method id, (approximation gap, amortisation gap); NaN: none.
    const std::vector<std::pair<std::string, std::pair<double, double>>>& drawn() const {
        return m_drawn;
    }

  private:
    QStackedBarSeries* m_series;
    QBarSet *m_approximation, *m_amortisation;
    QBarCategoryAxis* m_methods;
    class QValueAxis* m_y;
    std::vector<std::pair<std::string, std::pair<double, double>>> m_drawn;
};

class LatentSpaceView : public SeriesChart {
    Q_OBJECT
  public:
    explicit LatentSpaceView(QWidget* parent = nullptr);
    void show(const fa::VaeLiveSnapshot& s);
    static constexpr int kBins = 8;     ///< colour classes of the ramp
    static constexpr int kClasses = 10; ///< pictures: one colour per class

  private:
    void showClasses(const fa::VaeLiveSnapshot& s); ///< pictures coloured by their class
};

/// Pictures (issue 29): the view method's decoder on a grid of the latent plane (the mosaic, z1
/// across, z2 up), and beneath it the first shown rows, their reconstructions and samples.
class PictureView : public QWidget {
    Q_OBJECT
  public:
    explicit PictureView(QWidget* parent = nullptr);
    void show(const fa::VaeLiveSnapshot& s);
    ImageTiles* mosaic() const { return m_mosaic; }
    ImageTiles* strip() const { return m_strip; }

  private:
    ImageTiles *m_mosaic, *m_strip;
};

class DataSpaceView : public SeriesChart {
    Q_OBJECT
  public:
    explicit DataSpaceView(QWidget* parent = nullptr);
    void show(const fa::VaeLiveSnapshot& s);
};
