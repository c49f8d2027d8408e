#pragma once
// The FA explorer lab: parameters and the step explanation on the left; live error charts, the
// 2D contour view and covariance heat maps on the right, multi-trial bands on a second tab.
// A LabPage like every lab: its run is a fa::LiveExplorer on the page's worker thread.
#include "core/explorer/LiveExplorer.h"
#include "ui/common/LabPageOf.h"

using SnapshotPtr = std::shared_ptr<const fa::ExplorerSnapshot>;

class ContourView;
class ControlPanel;
class CovarianceHeatMaps;
class ErrorChartView;
class QTabWidget;
class StepPanel;
class TrialsPanel;

class ExplorerPage : public LabPageOf<fa::LiveExplorer, fa::ExplorerSnapshot> {
    Q_OBJECT
  public:
    explicit ExplorerPage(QWidget* parent = nullptr);

    ControlPanel* controls() const { return m_controls; }
    ErrorChartView* covarianceChart() const { return m_covChart; }
    ErrorChartView* wassersteinChart() const { return m_w2Chart; }
    ContourView* contourView() const { return m_contours; }
    CovarianceHeatMaps* heatMaps() const { return m_heatMaps; }
    StepPanel* stepPanel() const { return m_stepPanel; }
    TrialsPanel* trialsPanel() const { return m_trials; }
    fa::ExplorerConfig config() const override; ///< the controls'
    /// The controls (the learning rate in force at the end of its changes); no run starts.
    void setConfig(const fa::ExplorerConfig& config) override;

    std::vector<std::pair<QString, QWidget*>> charts() const override;
    QStringList statusTexts() const override;
    bool openSession(const QString& path) override;
    bool saveSession(const QString& path) override;
    bool exportCurves(const QString& csvPath) override; ///< the fa-sweep columns
    void runJob() override;
    void cancelJob() override;
    bool exportJob(const QString& csvPath) override; ///< finished trials, fa-sweep columns
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;
    QSpinBox* speedBox() const override;
    QWidget* parameterColumn() const override { return m_parameters; }

  public slots:
    void reset() override;

  protected:
    void draw(const fa::ExplorerSnapshot& snapshot) override;
    long stepSize() const override;
    void runStarted() override;
    /// A run in the view the controls show (a session's, kept).
    void start(const fa::ExplorerConfig& config, Start how) override { start(config, false, how); }

  private:
    /// pickView: the run shows the true model's most correlated pair in the 2D view.
    void start(const fa::ExplorerConfig& config, bool pickView, Start how = Start::KeepPlaying);

    ControlPanel* m_controls;
    ErrorChartView* m_covChart;
    ErrorChartView* m_w2Chart;
    ContourView* m_contours;
    CovarianceHeatMaps* m_heatMaps;
    StepPanel* m_stepPanel;
    TrialsPanel* m_trials;
    QTabWidget* m_tabs;
    QWidget* m_parameters = nullptr;         ///< the controls and the step panel
    fa::ExplorerConfig m_pending, m_applied; ///< asked for; last that started
    bool m_pendingPick = false, m_showRunView = false, m_viewRestored = false;
};
