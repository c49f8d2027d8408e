#pragma once
// The one worker every lab uses: drives any fa::LiveRun on its own thread. Play, pause, step,
// run-until and a units-per-second limit, in slices of about 10 ms so pause, reset and quit are
// seen within a frame; the latest snapshot handed over at most ~30 times a second. Lives in a
// QThread; LabPage calls it through compiler-checked lambdas (post), never by method name.
#include "core/lab/LiveRun.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

using LabSnapshotPtr = std::shared_ptr<const fa::LabSnapshot>;
Q_DECLARE_METATYPE(LabSnapshotPtr)

/// How the run goes, for the status bar.
struct LabStats {
    bool running = false;
    long position = 0, length = 0;
    double unitsPerSecond = 0.0;    ///< over the last half second of playing
    double runSeconds = 0.0;        ///< time spent playing in this run
    long unitsWhilePlaying = 0;     ///< units done while playing (not stepping)
    bool backgroundPending = false; ///< background work (a batch refit) still out
};
Q_DECLARE_METATYPE(LabStats)

class LabWorker : public QObject {
    Q_OBJECT
  public:
    /// Builds a run that watches `abandon` from its construction on (fa::LiveRun's flag).
    using Factory = std::function<std::unique_ptr<fa::LiveRun>(const fa::AbandonFlag& abandon)>;
    using Change = std::function<void(fa::LiveRun&)>;
    LabWorker();

    // Called on the worker's thread (LabPage::post).
    /// Builds a new run at 0, playing if keepPlaying and the previous run was playing (a changed
    /// parameter), else paused (a session, a preset). If building throws, failed() says why and
    /// the previous run carries on exactly as it was (playing or paused).
    void configure(const Factory& make, bool keepPlaying = false);
    /// Builds a fresh run from the last factory that worked, playing if it was, and applies
    /// again the lasting changes made since that factory (a longer run, another view).
    void restart(bool keepPlaying = false);
    void play();
    void pause();
    void step(long units);        ///< exactly this many units (the last one explained), then paused
    void runUntil(long position); ///< as fast as possible, pausing exactly there; then reached()
    void setSpeed(double unitsPerSecond); ///< 0: as fast as possible
    /// A live change (learning rate, view, ...). If it throws, refused() says why, nothing changed.
    /// A lasting one (the run's length, the view) is kept for restart(): the fields show it.
    void apply(const Change& change, bool lasting = false);

    /// Called from any thread (the page's destructor): the run is about to be thrown away, so
    /// a unit in progress, or a run still being built, ends at its next mini-batch or draw
    /// (fa::LiveRun::abandon) and no more start.
    void abandon() { m_abandoned->store(true); }

  signals:
    void started(); ///< a configure() succeeded: the new run is in place, paused at 0
    void snapshotReady(LabSnapshotPtr snapshot);
    void statsChanged(LabStats stats);
    void failed(QString message);  ///< a run could not start; the previous one stays
    void refused(QString message); ///< a live change was refused; the run goes on
    /// runUntil(target) got there (or to the end of a shorter run); the target tells a late
    /// answer to an earlier runUntil from the one asked for now.
    void reached(long position, long target);
    /// The run stopped on an error (memory, a failing background refit) or there was no run to
    /// play; it is paused where it was, or there is none. Screenshots end on this, never hang.
    void halted(QString message);

  private:
    void tick();
    void pollBackground();
    void publish(bool force);
    void stopRunning();
    void resetClocks();

    std::unique_ptr<fa::LiveRun> m_run;
    /// Every run of this worker watches it (abandon() raises it, from any thread).
    const fa::AbandonFlag m_abandoned = std::make_shared<std::atomic<bool>>(false);
    Factory m_factory;
    std::vector<Change> m_lasting; ///< lasting changes since m_factory
    QTimer m_tick, m_poll;
    QElapsedTimer m_sincePublish, m_rateClock, m_playClock, m_speedClock;
    long m_rateBase = 0, m_speedBase = 0, m_playBase = 0, m_playedUnits = 0, m_stopAt = -1;
    long m_chunk = 1; ///< units per advance call, adapted so one call takes about a millisecond
    double m_rate = 0.0, m_speed = 0.0, m_runSeconds = 0.0;
    bool m_running = false;
};
