#pragma once
// Multi-trial mode: repeats the window's run over N trials in a background thread (the CLI's
// fa-sweep engine, so the numbers equal `faexplorer-cli fa-sweep`), with progress and Cancel,
// and draws mean +- standard-error bands like the thesis figures.
#include "core/explorer/LiveExplorer.h"
#include "core/explorer/TrialBands.h"

#include <QWidget>
#include <functional>
#include <mutex>

class BackgroundJob;
class BandChartView;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

class TrialsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit TrialsPanel(std::function<fa::ExplorerConfig()> currentConfig,
                         QWidget* parent = nullptr);
    ~TrialsPanel() override; ///< cancels a running sweep and waits for its current piece

    bool running() const;
    const std::vector<fa::FaSweepRow>& rows() const { return m_rows; }
    const fa::ExplorerConfig& rowsConfig() const { return m_rowsConfig; }
    QSpinBox* trialsBox() const { return m_trials; }
    BandChartView* covarianceChart() const { return m_cov; }
    BandChartView* wassersteinChart() const { return m_w2; }

  public slots:
    void start();
    void cancel();

  signals:
    void finished(int trialsCompleted, bool cancelled);
    void message(QString text);

  private:
    void onJobFinished(bool cancelled, const QString& error);

    std::function<fa::ExplorerConfig()> m_currentConfig;
    QSpinBox* m_trials;
    QPushButton *m_start, *m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    BandChartView *m_cov, *m_w2;
    BackgroundJob* m_job;
    std::mutex m_resultMutex;
    std::vector<fa::FaSweepRow> m_result; // written by the sweep thread
    std::vector<fa::FaSweepRow> m_rows;   // shown
    fa::ExplorerConfig m_rowsConfig, m_runningConfig;
    int m_trialsRequested = 0;
};
