#pragma once
// The explorer window: parameters and the step explanation on the left; live error charts,
// the 2D contour view and covariance heat maps on the right, multi-trial bands on a second
// tab; transport controls in the toolbar, run state in the status bar. Fitting runs in a
// worker thread; the window keeps only the latest snapshot and redraws it at most 30 times a
// second.
#include "core/explorer/LiveExplorer.h"
#include "ui/common/LabWorker.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QThread>
#include <QTimer>

using SnapshotPtr = std::shared_ptr<const fa::ExplorerSnapshot>;

class ContourView;
class ControlPanel;
class NeuralPage;
class PosteriorPage;
class CovarianceHeatMaps;
class ErrorChartView;
class QAction;
class QLabel;
class QTabWidget;
class StepPanel;
class TrialsPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override; ///< stops the worker thread

    ControlPanel* controls() const { return m_controls; }
    ErrorChartView* covarianceChart() const { return m_covChart; }
    ErrorChartView* wassersteinChart() const { return m_w2Chart; }
    ContourView* contourView() const { return m_contours; }
    CovarianceHeatMaps* heatMaps() const { return m_heatMaps; }
    StepPanel* stepPanel() const { return m_stepPanel; }
    TrialsPanel* trialsPanel() const { return m_trials; }
    PosteriorPage* posteriorPage() const { return m_posterior; }
    NeuralPage* neuralPage() const { return m_neural; }
    /// The window's modes: the FA explorer, the posterior lab and the neural lab (Ctrl+1..3).
    enum class Mode { Explorer, Posterior, Neural };
    Mode mode() const;
    void setMode(Mode mode);
    bool posteriorMode() const { return mode() == Mode::Posterior; }
    void setPosteriorMode(bool on) { setMode(on ? Mode::Posterior : Mode::Explorer); }
    SnapshotPtr latestSnapshot() const { return m_latest; }
    LabStats latestStats() const { return m_stats; }

    /// File operations; each returns false and shows the reason (status bar, lastError()).
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool exportCurves(const QString& csvPath);
    bool exportTrials(const QString& csvPath);
    /// Writes every chart as PNG and SVG into the folder; returns the files written.
    QStringList exportCharts(const QString& folder);
    QString lastError() const { return m_lastError; }
    long latestSessionSamples() const {
        return m_sessionSamples;
    } ///< samples the last opened session replays

  public slots:
    void reset();
    void togglePlay();
    void stepOne(); ///< one Step: the panel's step size (default one observation)
    /// Plays until exactly this many samples, then emits reachedSamples (tests, --screenshot).
    void runUntil(long samples);

  signals:
    void reachedSamples(long samples);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildMenus();
    void start(const fa::ExplorerConfig& config);
    void onSnapshot(LabSnapshotPtr snapshot);
    void onStats(LabStats stats);
    template <class F> void post(F&& f) {
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, f = std::forward<F>(f)] { f(*w); }, Qt::QueuedConnection);
    }
    void redraw();
    void restoreSettings();
    void fail(const QString& what, const QString& why);
    void showModeStatus();
    void openSessionDialog();
    void saveSessionDialog();
    void exportCurvesDialog();
    void exportChartsDialog();

    ControlPanel* m_controls;
    ErrorChartView* m_covChart;
    ErrorChartView* m_w2Chart;
    ContourView* m_contours;
    CovarianceHeatMaps* m_heatMaps;
    StepPanel* m_stepPanel;
    TrialsPanel* m_trials;
    QTabWidget* m_tabs;
    QTabWidget* m_modes;
    PosteriorPage* m_posterior;
    NeuralPage* m_neural;
    QAction *m_playAction, *m_stepAction, *m_resetAction;
    QLabel *m_samplesLabel, *m_rateLabel, *m_elapsedLabel, *m_statusLabel;
    QThread m_thread;
    LabWorker* m_worker;
    SnapshotPtr m_latest;
    LabStats m_stats;
    fa::ExplorerConfig m_pending, m_applied; // asked for; last that started
    QString m_lastError;
    long m_sessionSamples = 0;
    bool m_dirty = false;
    bool m_running = false;
    long m_waitFor = -1;
    QTimer m_redraw;
};
