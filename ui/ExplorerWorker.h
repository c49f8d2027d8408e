#pragma once
// Runs a LiveExplorer in its own thread and publishes immutable snapshots at most ~30 times
// a second. Lives in a QThread; every slot is called through queued connections.
#include "LiveExplorer.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

using SnapshotPtr = std::shared_ptr<const fa::ExplorerSnapshot>;
Q_DECLARE_METATYPE(SnapshotPtr)
Q_DECLARE_METATYPE(fa::ExplorerConfig)

struct WorkerStats {
    double obsPerSecond = 0.0; ///< over the last second of running
    bool running = false;
};
Q_DECLARE_METATYPE(WorkerStats)

class ExplorerWorker : public QObject {
    Q_OBJECT
public:
    ExplorerWorker();

public slots:
    void configure(const fa::ExplorerConfig& config); ///< new run, paused at 0 samples
    void play();
    void pause();
    void step(long n);          ///< observe exactly n samples, then pause
    void runUntil(long samples); ///< play, pausing exactly at this sample count
    void setLearningRate(double eta);

signals:
    void snapshotReady(SnapshotPtr snapshot);
    void statsChanged(WorkerStats stats);
    void failed(QString message);

private:
    void tick();
    void publish(bool force);

    std::unique_ptr<fa::LiveExplorer> m_explorer;
    QTimer m_tick;
    QElapsedTimer m_sincePublish, m_rateClock;
    long m_rateSamples = 0;
    double m_rate = 0.0;
    long m_stopAt = -1;
    bool m_running = false;
};
