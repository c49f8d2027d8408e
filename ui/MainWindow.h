#pragma once
// The explorer window: parameters on the left, live error charts on the right, transport
// controls in the toolbar, run state in the status bar. Fitting runs in a worker thread; the
// window keeps only the latest snapshot and redraws it at most 30 times a second.
#include "ExplorerWorker.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QThread>
#include <QTimer>

class ControlPanel;
class ErrorChartView;
class QAction;
class QLabel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override; ///< stops the worker thread

    ControlPanel* controls() const { return m_controls; }
    ErrorChartView* covarianceChart() const { return m_covChart; }
    ErrorChartView* wassersteinChart() const { return m_w2Chart; }
    SnapshotPtr latestSnapshot() const { return m_latest; }

public slots:
    void reset();
    void togglePlay();
    void stepOne();
    /// Plays until exactly this many samples, then emits reachedSamples (tests, --screenshot).
    void runUntil(long samples);

signals:
    void reachedSamples(long samples);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void onSnapshot(SnapshotPtr snapshot);
    void onStats(WorkerStats stats);
    void redraw();
    void restoreSettings();

    ControlPanel* m_controls;
    ErrorChartView* m_covChart;
    ErrorChartView* m_w2Chart;
    QAction *m_playAction, *m_stepAction, *m_resetAction;
    QLabel *m_samplesLabel, *m_rateLabel, *m_elapsedLabel, *m_statusLabel;
    QThread m_thread;
    ExplorerWorker* m_worker;
    SnapshotPtr m_latest;
    bool m_dirty = false;
    bool m_running = false;
    long m_waitFor = -1;
    QTimer m_redraw;
    QElapsedTimer m_elapsed;
    qint64 m_elapsedBefore = 0;
};
