#pragma once
// Trains the neural lab (fa::NeuralLive) in its own thread and publishes snapshots at most ~30
// times a second; runs the split protocol (fa::runNeural) for the comparison table on another
// thread, one row at a time. Lives in a QThread; slots are called queued.
#include "NeuralLive.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <memory>
#include <thread>

using NeuralSnapshotPtr = std::shared_ptr<const fa::NeuralLiveSnapshot>;
Q_DECLARE_METATYPE(NeuralSnapshotPtr)
Q_DECLARE_METATYPE(fa::NeuralLiveConfig)
Q_DECLARE_METATYPE(fa::NeuralConfig)
Q_DECLARE_METATYPE(fa::NeuralRow)

class NeuralWorker : public QObject {
    Q_OBJECT
public:
    NeuralWorker();
    ~NeuralWorker() override; ///< cancels and joins a split run

public slots:
    void configure(const fa::NeuralLiveConfig& config); ///< new run, paused at epoch 0
    void play();
    void pause();
    void step(long epochs);
    void runUntil(long epoch);
    void setSpeed(double epochsPerSecond); ///< 0: as fast as possible
    void runSplits(const fa::NeuralConfig& config);
    void cancelSplits();

signals:
    void snapshotReady(NeuralSnapshotPtr snapshot);
    void runningChanged(bool running);
    void failed(QString message);
    void reachedEpoch(long epoch);
    void splitRow(fa::NeuralRow row);
    void splitProgress(int done, int total, QString stage);
    void splitsFinished(bool cancelled, QString error);

private:
    void tick();
    void publish(bool force);
    void stopRunning();

    std::unique_ptr<fa::NeuralLive> m_live;
    QTimer m_tick;
    QElapsedTimer m_sincePublish, m_speedClock;
    long m_speedBase = 0, m_stopAt = -1;
    double m_speed = 20.0;
    bool m_running = false;
    std::thread m_splits;
    std::atomic<bool> m_cancel{false};
};
