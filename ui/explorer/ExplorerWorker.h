#pragma once
// Runs a LiveExplorer in its own thread and publishes immutable snapshots at most ~30 times
// a second. Lives in a QThread; every slot is called through queued connections.
#include "core/explorer/LiveExplorer.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

using SnapshotPtr = std::shared_ptr<const fa::ExplorerSnapshot>;
Q_DECLARE_METATYPE(SnapshotPtr)
Q_DECLARE_METATYPE(fa::ExplorerConfig)
Q_DECLARE_METATYPE(fa::ViewOptions)

struct WorkerStats {
    double obsPerSecond = 0.0;    ///< over the last half second of running
    double runSeconds = 0.0;      ///< time spent playing in this run
    long samplesWhilePlaying = 0; ///< samples observed while playing (not stepping)
    bool running = false;
};
Q_DECLARE_METATYPE(WorkerStats)

class ExplorerWorker : public QObject {
    Q_OBJECT
  public:
    ExplorerWorker();

  public slots:
    void configure(const fa::ExplorerConfig& config,
                   const fa::ViewOptions& view); ///< new run, paused at 0
    void play();
    void pause();
    void step(long n);           ///< observe exactly n samples (the last one traced), then pause
    void runUntil(long samples); ///< fast-forward (ignoring the speed limit), pausing exactly there
    void setLearningRate(double eta);
    void setSpeed(double obsPerSecond); ///< 0: as fast as possible
    void setView(const fa::ViewOptions& view);

  signals:
    void snapshotReady(SnapshotPtr snapshot);
    void statsChanged(WorkerStats stats);
    void failed(QString message);  ///< the run could not start
    void refused(QString message); ///< a live change was refused; the run goes on

  private:
    void tick();
    void pollBatch();
    void publish(bool force);
    void stopRunning();

    std::unique_ptr<fa::LiveExplorer> m_explorer;
    QTimer m_tick, m_batchPoll;
    QElapsedTimer m_sincePublish, m_rateClock, m_playClock, m_speedClock;
    long m_rateSamples = 0, m_speedBase = 0, m_playStartSamples = 0, m_playedSamples = 0;
    double m_rate = 0.0, m_speed = 0.0, m_runSeconds = 0.0;
    long m_stopAt = -1;
    bool m_running = false;
};
