// The generic worker on its own thread, driving a counting run whose position is known
// exactly: step and run-until land on the requested unit, a run of fixed length stops at its
// end, a refused change or a failed configure leaves the old run as it was (still playing if it
// was), a speed limit is an upper bound on progress, and snapshots arrive at most ~30 a second.
// Errors: running out of memory mid-run halts where it is and says so; run-until with no run, or
// past a run's end, ends rather than waiting forever (what --screenshot relies on).
#include "core/lab/LiveRun.h"
#include "ui/common/LabPage.h"
#include "ui/common/LabWorker.h"

#include <QElapsedTimer>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <new>
#include <stdexcept>

namespace {

struct CountingSnapshot : fa::LabSnapshot {
    long id = 0; ///< which run took it
};

/// A run whose only state is a counter: the reference every assertion compares with.
class CountingRun : public fa::LiveRun {
  public:
    CountingRun(long id, long length) : m_id(id), m_length(length) {}
    long advance(long n) override {
        if (m_failAt >= 0 && m_position >= m_failAt)
            throw std::bad_alloc(); // memory runs out here, as a large model's would
        if (m_failAt >= 0)
            n = std::min(n, m_failAt - m_position);
        const long done = m_length > 0 ? std::min(n, m_length - m_position) : n;
        m_position += done;
        return done;
    }
    long position() const override { return m_position; }
    long length() const override { return m_length; }
    std::string unit() const override { return "samples"; }
    std::shared_ptr<const fa::LabSnapshot> labSnapshot() const override {
        auto s = std::make_shared<CountingSnapshot>();
        s->position = m_position;
        s->length = m_length;
        s->id = m_id;
        s->status = "counting";
        return s;
    }
    long m_id, m_length, m_position = 0;
    long m_failAt = -1; ///< advance throws std::bad_alloc once here
};

LabWorker::Factory counting(long id, long length = 0, long failAt = -1) {
    return [id, length, failAt](const fa::AbandonFlag&) {
        auto run = std::make_unique<CountingRun>(id, length);
        run->m_failAt = failAt;
        return run;
    };
}

} // namespace

class TestLabWorker : public QObject {
    Q_OBJECT
    QThread m_thread;
    LabWorker* m_worker = nullptr;
    LabSnapshotPtr m_last;
    LabStats m_stats;
    // The worker's signals, received on this thread (queued): counted here rather than with
    // QSignalSpy, which would record them on the worker's thread.
    int m_started = 0, m_snapshots = 0;
    std::vector<long> m_reached;
    QStringList m_failed, m_refused, m_halted;

    /// Runs f on the worker's thread, as LabPage::post does.
    void post(std::function<void(LabWorker&)> f) {
        QMetaObject::invokeMethod(m_worker, [w = m_worker, f = std::move(f)] { f(*w); });
    }
    long position() const { return m_last ? m_last->position : -1; }
    long runId() const {
        return m_last ? std::static_pointer_cast<const CountingSnapshot>(m_last)->id : -1;
    }
    /// Waits until the worker has handled everything posted so far.
    void sync() {
        QMetaObject::invokeMethod(
            m_worker, [] {}, Qt::BlockingQueuedConnection);
        QCoreApplication::processEvents(); // deliver its queued signals to this thread
    }

  private slots:
    void init() {
        m_worker = new LabWorker;
        m_worker->moveToThread(&m_thread);
        connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
        connect(m_worker, &LabWorker::snapshotReady, this, [this](LabSnapshotPtr s) {
            m_last = std::move(s);
            ++m_snapshots;
        });
        connect(m_worker, &LabWorker::statsChanged, this, [this](LabStats s) { m_stats = s; });
        connect(m_worker, &LabWorker::started, this, [this] { ++m_started; });
        connect(m_worker, &LabWorker::reached, this, [this](long p) { m_reached.push_back(p); });
        connect(m_worker, &LabWorker::failed, this, [this](QString m) { m_failed << m; });
        connect(m_worker, &LabWorker::refused, this, [this](QString m) { m_refused << m; });
        connect(m_worker, &LabWorker::halted, this, [this](QString m) { m_halted << m; });
        m_thread.start();
        m_last.reset();
        m_stats = {};
        m_started = m_snapshots = 0;
        m_reached.clear();
        m_failed.clear();
        m_refused.clear();
        m_halted.clear();
    }
    void cleanup() {
        m_thread.quit();
        m_thread.wait();
        m_worker = nullptr;
    }

    void stepAndRunUntilLandOnTheUnit() {
        post([](LabWorker& w) { w.configure(counting(1)); });
        sync();
        QCOMPARE(m_started, 1);
        QCOMPARE(position(), 0L);
        post([](LabWorker& w) { w.step(7); });
        sync();
        QCOMPARE(position(), 7L);
        QVERIFY(!m_stats.running);
        post([](LabWorker& w) { w.runUntil(123457); });
        QTRY_COMPARE_WITH_TIMEOUT(m_reached.size(), std::size_t(1), 10000);
        QCOMPARE(m_reached.back(), 123457L);
        sync();
        QCOMPARE(position(), 123457L);
        QVERIFY(!m_stats.running);
        // A target already passed is reached at once, without moving.
        post([](LabWorker& w) { w.runUntil(100); });
        sync();
        QCOMPARE(m_reached.size(), std::size_t(2));
        QCOMPARE(position(), 123457L);
    }

    void aFiniteRunStopsAtItsEnd() {
        post([](LabWorker& w) {
            w.configure(counting(1, 50000));
            w.play();
        });
        QTRY_VERIFY_WITH_TIMEOUT(m_last && m_last->position == 50000 && !m_stats.running, 10000);
        QCOMPARE(m_last->length, 50000L);
        post([](LabWorker& w) { w.play(); }); // a finished run does not start again
        sync();
        QVERIFY(!m_stats.running);
        post([](LabWorker& w) { w.restart(); }); // reset: a fresh run from the same factory
        sync();
        QCOMPARE(position(), 0L);
    }

    // A lasting change (a longer run typed into the length field) holds after a restart (a
    // recording starts the run again): the factory still has the old length. Other changes
    // do not, and a new factory (made from the fields, which hold the change) forgets them.
    void aLastingChangeOutlivesARestart() {
        const auto setLength = [](long n) {
            return [n](fa::LiveRun& r) { static_cast<CountingRun&>(r).m_length = n; };
        };
        post([&](LabWorker& w) {
            w.configure(counting(3, 100));
            w.apply(setLength(250), true);
            w.apply([](fa::LiveRun& r) { r.advance(7); }); // not lasting
            w.restart();
        });
        sync();
        QCOMPARE(position(), 0L);
        QCOMPARE(m_last->length, 250L);
        post([&](LabWorker& w) { w.restart(); }); // and again
        sync();
        QCOMPARE(m_last->length, 250L);
        QCOMPARE(position(), 0L);
        post([&](LabWorker& w) {
            w.configure(counting(4, 100));
            w.restart();
        });
        sync();
        QCOMPARE(m_last->length, 100L);
        QCOMPARE(runId(), 4L);
    }

    void aFailedConfigureKeepsTheOldRunPlaying() {
        post([](LabWorker& w) {
            w.configure(counting(1));
            w.play();
        });
        QTRY_VERIFY_WITH_TIMEOUT(position() > 0 && m_stats.running, 5000);
        post([](LabWorker& w) {
            w.configure([](const fa::AbandonFlag&) -> std::unique_ptr<fa::LiveRun> {
                throw std::invalid_argument("K must be below D");
            });
        });
        sync();
        QCOMPARE(m_failed, QStringList{"K must be below D"});
        const long before = position();
        QTRY_VERIFY_WITH_TIMEOUT(position() > before, 5000); // still the old run, still moving
        QCOMPARE(runId(), 1L);
        QVERIFY(m_stats.running);
        // Reset rebuilds from the last factory that worked, not the failed one.
        post([](LabWorker& w) {
            w.pause();
            w.restart();
        });
        sync();
        QCOMPARE(runId(), 1L);
        QCOMPARE(position(), 0L);
    }

    void runUntilPastTheEndStopsAtTheEnd() {
        // A target beyond a run's length ends at its end (a --screenshot never waits forever).
        post([](LabWorker& w) {
            w.configure(counting(1, 500));
            w.runUntil(10000);
        });
        QTRY_COMPARE_WITH_TIMEOUT(m_reached.size(), std::size_t(1), 5000);
        QCOMPARE(m_reached.back(), 500L);
        QVERIFY(m_halted.isEmpty());
    }

    void runningOutOfMemoryHaltsAndKeepsTheRun() {
        // std::bad_alloc in the middle of a run (the exact generator at D = 2000 under a memory
        // limit) stops it where it is, says why, and never reaches the target; the worker stays
        // usable and a new run starts normally.
        post([](LabWorker& w) {
            w.configure(counting(1, 0, 1000));
            w.runUntil(5000);
        });
        QTRY_COMPARE_WITH_TIMEOUT(m_halted.size(), qsizetype(1), 5000);
        QCOMPARE(m_halted.first(), QString("not enough memory for this run"));
        sync();
        QVERIFY(m_reached.empty());
        QCOMPARE(position(), 1000L);
        QVERIFY(!m_stats.running);
        post([](LabWorker& w) {
            w.configure(counting(2, 300));
            w.runUntil(300);
        });
        QTRY_COMPARE_WITH_TIMEOUT(m_reached.size(), std::size_t(1), 5000);
        QCOMPARE(runId(), 2L);
    }

    void runUntilWithoutARunSaysSo() {
        post([](LabWorker& w) {
            w.configure([](const fa::AbandonFlag&) -> std::unique_ptr<fa::LiveRun> {
                throw std::bad_alloc();
            });
            w.runUntil(10);
        });
        sync();
        QCOMPARE(m_failed, QStringList{"not enough memory for this run"});
        QCOMPARE(m_halted.size(), qsizetype(1));
        QVERIFY(m_halted.first().contains("could not start"));
    }

    void aRefusedChangeLeavesTheRun() {
        post([](LabWorker& w) {
            w.configure(counting(2));
            w.step(3);
            w.apply([](fa::LiveRun&) { throw std::invalid_argument("learning rate must be > 0"); });
        });
        sync();
        QCOMPARE(m_refused, QStringList{"learning rate must be > 0"});
        QCOMPARE(position(), 3L);
        post([](LabWorker& w) { w.apply([](fa::LiveRun& r) { r.advance(2); }); });
        sync();
        QCOMPARE(position(), 5L);
    }

    void pauseHoldsAndSpeedIsAnUpperBound() {
        post([](LabWorker& w) {
            w.configure(counting(3));
            w.play();
        });
        QTRY_VERIFY_WITH_TIMEOUT(position() > 1000, 5000);
        post([](LabWorker& w) { w.pause(); });
        sync();
        const long paused = position();
        QVERIFY(!m_stats.running);
        QTest::qWait(100);
        sync();
        QCOMPARE(position(), paused);

        constexpr double kSpeed = 400.0; // units per second
        QElapsedTimer clock;
        post([kSpeed](LabWorker& w) {
            w.setSpeed(kSpeed);
            w.play();
        });
        clock.start();
        QTest::qWait(400);
        sync();
        const double elapsed = clock.elapsed() / 1000.0;
        const long moved = position() - paused;
        QVERIFY2(moved > 0 && moved <= kSpeed * elapsed + 2,
                 qPrintable(QString("%1 units in %2 s").arg(moved).arg(elapsed)));
    }

    void snapshotsArriveAtMostThirtyTimesASecond() {
        post([](LabWorker& w) {
            w.configure(counting(4));
            w.play();
        });
        QElapsedTimer clock;
        clock.start();
        QTest::qWait(1000);
        post([](LabWorker& w) { w.pause(); });
        sync();
        const double seconds = clock.elapsed() / 1000.0;
        // configure, play and pause each publish once; the rest are throttled to >= 33 ms apart.
        QVERIFY2(m_snapshots <= 3 + static_cast<int>(seconds * 1000.0 / 33.0) + 1,
                 qPrintable(QString("%1 snapshots in %2 s").arg(m_snapshots).arg(seconds)));
        QVERIFY(m_snapshots >= 5); // and they do arrive while playing
    }
};

QTEST_MAIN(TestLabWorker) // a QApplication: one test builds a page
#include "test_lab_worker.moc"
