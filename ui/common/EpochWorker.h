#pragma once
// The transport of the two labs' workers: play, pause, step, run-until and an epochs-per-second
// limit, in ~10 ms slices of work so pause and quit are seen within a frame, with snapshots
// published at most ~30 times a second. A subclass says what an epoch is and what it publishes.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class EpochWorker : public QObject {
    Q_OBJECT
  public:
    EpochWorker();

  public slots:
    void play();
    void pause();
    void step(long epochs);
    void runUntil(long epoch);             ///< as fast as possible, pausing exactly there
    void setSpeed(double epochsPerSecond); ///< 0: as fast as possible

  signals:
    void runningChanged(bool running);
    void failed(QString message);  ///< a run could not start; the previous one stays
    void refused(QString message); ///< a live change was refused; the run goes on
    void reachedEpoch(long epoch);

  protected:
    virtual bool hasRun() const = 0;
    virtual long epoch() const = 0;
    virtual void advance(long epochs) = 0;
    virtual void emitSnapshot() = 0;
    /// Emits a snapshot unless one went out less than 33 ms ago (force: always).
    void publish(bool force);
    /// Stops playing and forgets a pending run-until (a new run is being configured).
    void stopForNewRun();

  private:
    void tick();
    void stopRunning();

    QTimer m_tick;
    QElapsedTimer m_sincePublish, m_speedClock;
    long m_speedBase = 0, m_stopAt = -1;
    double m_speed = 0.0;
    bool m_running = false;
};
