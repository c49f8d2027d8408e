#pragma once
// The window's "Posterior lab" mode: Bayesian linear regression's exact posterior against
// FA-shaped approximations (VIFA / VIPPCA, SGD iterates fitted by online EM / SGA, SWAG), live.
// Parameters on the left; on the right the 2D contours with the iterate cloud and the four
// distances over epochs, and on a second tab the true-vs-estimated comparison scatters. The
// lab runs in a worker thread; the page keeps the latest snapshot and redraws at most 30
// times a second.
#include "core/posterior/PosteriorLive.h"
#include "ui/common/LabPageOf.h"

#include <optional>
#include <utility>

using PosteriorSnapshotPtr = std::shared_ptr<const fa::PosteriorLiveSnapshot>;

class ComparisonScatter;
class ContourView;
class BoundChart;
class GpPanel;
class GradientPanel;
class PosteriorControls;
class PosteriorCurveChart;
class QTabWidget;

class PosteriorPage : public LabPageOf<fa::PosteriorLive, fa::PosteriorLiveSnapshot> {
    Q_OBJECT
  public:
    explicit PosteriorPage(QWidget* parent = nullptr);

    PosteriorControls* controls() const { return m_controls; }
    ContourView* contourView() const { return m_contours; }
    GradientPanel* gradientPanel() const { return m_gradients; }
    BoundChart* boundChart() const { return m_bound; }
    GpPanel* gpPanel() const { return m_gp; }
    QTabWidget* tabs() const { return m_tabs; }
    PosteriorCurveChart* curveChart(int metric) const; ///< 0 rel. mean, 1 rel. cov, 2 W2, 3 W2/D
    ComparisonScatter* comparison(int quantity) const; ///< 0 means, 1 variances, 2 covariances
    fa::PosteriorLiveConfig config() const override;   ///< the controls'
    /// The controls (the SGD rate in force at the end of its changes); no run starts.
    void setConfig(const fa::PosteriorLiveConfig& config) override;
    /// Every chart with a file name stem, for PNG/SVG export.
    std::vector<std::pair<QString, QWidget*>> charts() const override;

    /// File operations; each returns false and sets lastError() (nothing changes on failure).
    bool openCsv(const QString& path) override;
    bool openSession(const QString& path) override;
    bool saveSession(const QString& path) override;
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;
    bool exportCurves(const QString& csvPath) override; ///< the posterior command's columns
    QSpinBox* speedBox() const override;
    QWidget* parameterColumn() const override { return m_parameters; }
    bool viewsPending() const override; ///< the GP tab's lesson, while that tab shows

  protected:
    void draw(const fa::PosteriorLiveSnapshot& s) override;
    long stepSize() const override;
    /// A run in the view the controls show (or the one a session just opened names).
    void start(const fa::PosteriorLiveConfig& config, Start how) override;

    PosteriorControls* m_controls;
    ContourView* m_contours;
    std::vector<PosteriorCurveChart*> m_curves;
    std::vector<ComparisonScatter*> m_scatters;
    QTabWidget* m_tabs;
    QWidget* m_parameters = nullptr; ///< the controls' column
    GradientPanel* m_gradients = nullptr;
    BoundChart* m_bound = nullptr;
    GpPanel* m_gp = nullptr;
    std::optional<std::pair<int, int>> m_openedView; ///< a session's view, for its run
};
