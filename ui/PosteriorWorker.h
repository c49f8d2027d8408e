#pragma once
// Runs the posterior lab (fa::PosteriorLive) in its own thread and publishes immutable
// snapshots at most ~30 times a second. Lives in a QThread; slots are called queued.
#include "PosteriorLive.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

using PosteriorSnapshotPtr = std::shared_ptr<const fa::PosteriorLiveSnapshot>;
Q_DECLARE_METATYPE(PosteriorSnapshotPtr)
Q_DECLARE_METATYPE(fa::PosteriorLiveConfig)

class PosteriorWorker : public QObject {
    Q_OBJECT
public:
    PosteriorWorker();

    /// The run's configuration including live changes so far (for sessions). Thread-safe
    /// only while the worker is idle in its event loop; call through a blocking queued call.
    Q_INVOKABLE fa::PosteriorLiveConfig currentConfig() const;
    /// CSV rows of the current run's curves (blocking queued call, as above).
    Q_INVOKABLE std::vector<fa::PosteriorRow> currentRows() const;

public slots:
    void configure(const fa::PosteriorLiveConfig& config); ///< new run, paused at epoch 0
    void play();
    void pause();
    void step(long epochs);
    void runUntil(long epoch); ///< as fast as possible, pausing exactly there
    void setSpeed(double epochsPerSecond); ///< 0: as fast as possible
    void setSgdLearningRate(double eta);
    void setLambda(double lambda);
    void setCoordinates(int i, int j);

signals:
    void snapshotReady(PosteriorSnapshotPtr snapshot);
    void runningChanged(bool running);
    void failed(QString message);
    void refused(QString message);
    void reachedEpoch(long epoch);

private:
    void tick();
    void publish(bool force);
    void stopRunning();

    std::unique_ptr<fa::PosteriorLive> m_live;
    QTimer m_tick;
    QElapsedTimer m_sincePublish, m_speedClock;
    long m_speedBase = 0, m_stopAt = -1;
    double m_speed = 250.0;
    int m_i = 0, m_j = 1;
    bool m_running = false;
};
