#pragma once
// The window's "Posterior lab" mode: Bayesian linear regression's exact posterior against
// FA-shaped approximations (VIFA / VIPPCA, SGD iterates fitted by online EM / SGA, SWAG), live.
// Parameters on the left; on the right the 2D contours with the iterate cloud and the four
// distances over epochs, and on a second tab the true-vs-estimated comparison scatters. The
// lab runs in a worker thread; the page keeps the latest snapshot and redraws at most 30
// times a second.
#include "ui/posterior/PosteriorWorker.h"

#include <QThread>
#include <QTimer>
#include <QWidget>

class ComparisonScatter;
class ContourView;
class PosteriorControls;
class PosteriorCurveChart;
class QTabWidget;

class PosteriorPage : public QWidget {
    Q_OBJECT
  public:
    explicit PosteriorPage(QWidget* parent = nullptr);
    ~PosteriorPage() override; ///< stops the worker thread

    PosteriorControls* controls() const { return m_controls; }
    ContourView* contourView() const { return m_contours; }
    PosteriorCurveChart* curveChart(int metric) const; ///< 0 rel. mean, 1 rel. cov, 2 W2, 3 W2/D
    ComparisonScatter* comparison(int quantity) const; ///< 0 means, 1 variances, 2 covariances
    PosteriorSnapshotPtr latestSnapshot() const { return m_latest; }
    bool running() const { return m_running; }
    /// Every chart with a file name stem, for PNG/SVG export.
    std::vector<std::pair<QString, QWidget*>> charts() const;

    /// File operations; each returns false and sets lastError() (nothing changes on failure).
    bool openCsv(const QString& path);
    bool openSession(const QString& path);
    bool saveSession(const QString& path);
    bool exportCurves(const QString& csvPath);
    QString lastError() const { return m_lastError; }
    long latestSessionEpochs() const { return m_sessionEpochs; }

  public slots:
    void reset();
    void togglePlay();
    void stepOnce();
    void runUntil(long epoch); ///< as fast as possible, then reachedEpoch
    void openCsvDialog();

  signals:
    void reachedEpoch(long epoch);
    void message(const QString& text, int timeoutMs);
    void statusChanged(const QString& epochText, const QString& stateText);
    void runningChanged(bool running);

  private:
    void start(const fa::PosteriorLiveConfig& config);
    void onSnapshot(PosteriorSnapshotPtr snapshot);
    void redraw();
    void fail(const QString& what, const QString& why);

    PosteriorControls* m_controls;
    ContourView* m_contours;
    std::vector<PosteriorCurveChart*> m_curves;
    std::vector<ComparisonScatter*> m_scatters;
    QTabWidget* m_tabs;
    QThread m_thread;
    PosteriorWorker* m_worker;
    PosteriorSnapshotPtr m_latest;
    QString m_lastError;
    long m_sessionEpochs = 0;
    long m_waitFor = -1;
    bool m_dirty = false, m_running = false;
    QTimer m_redraw;
};
