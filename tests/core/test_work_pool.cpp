// WorkPool, the one owned pool for the work beside a run: results and exceptions come through,
// a raised cancel ends a wait while the work still runs, a dropped task's work sees its stop
// flag and owns its data, busy threads make the pool grow (a refit never queues behind a long
// table), and destroying the pool stops and joins every thread: no work outlives it.
#include "core/lab/WorkPool.h"

#include <QtTest>
#include <atomic>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

using namespace fa;

namespace {
/// Spins until stop is raised (or a generous bound), then records that it saw it.
int spinUntilStopped(const std::atomic<bool>& stop, std::atomic<bool>& sawStop) {
    for (int i = 0; i < 20000 && !stop.load(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    sawStop = stop.load();
    return 0;
}
} // namespace

class TestWorkPool : public QObject {
    Q_OBJECT
  private slots:
    void resultsAndErrorsComeThrough() {
        WorkPool pool;
        PoolTask<int> task = pool.submit<int>([](const std::atomic<bool>&) { return 6 * 7; });
        QVERIFY(task.wait());
        QVERIFY(task.ready());
        QCOMPARE(task.get(), 42);
        PoolTask<int> failing = pool.submit<int>(
            [](const std::atomic<bool>&) -> int { throw std::invalid_argument("K >= D"); });
        QVERIFY(failing.wait());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, failing.get());
    }

    void aRaisedCancelEndsTheWait() {
        WorkPool pool;
        auto saw = std::make_shared<std::atomic<bool>>(false);
        std::atomic<bool> cancel{true}; // raised: wait returns false although the work runs on
        {
            PoolTask<int> task = pool.submit<int>(
                [saw](const std::atomic<bool>& stop) { return spinUntilStopped(stop, *saw); });
            QVERIFY(!task.wait(&cancel));
            QVERIFY(!task.ready());
        } // dropped here: its stop flag is raised
        QTRY_VERIFY_WITH_TIMEOUT(saw->load(), 10000);
    }

    void aDroppedTaskOwnsItsData() {
        // The work holds the only remaining share of its data once the owner has gone.
        WorkPool pool;
        auto data = std::make_shared<std::vector<double>>(1000, 1.5);
        std::weak_ptr<std::vector<double>> watch = data;
        auto summed = std::make_shared<std::atomic<bool>>(false);
        {
            PoolTask<double> task =
                pool.submit<double>([data, summed](const std::atomic<bool>& stop) {
                    std::atomic<bool> dummy;
                    spinUntilStopped(stop, dummy);
                    double s = 0.0;
                    for (double x : *data)
                        s += x;
                    *summed = (s == 1500.0);
                    return s;
                });
            data.reset();
            QVERIFY(!watch.expired()); // the running work keeps it
        }
        QTRY_VERIFY_WITH_TIMEOUT(summed->load(), 10000);  // read after its owner was gone
        QTRY_VERIFY_WITH_TIMEOUT(watch.expired(), 10000); // and freed when the work ended
    }

    void busyThreadsMakeThePoolGrow() {
        // Two pieces of work that can only end together (each waits for the other's mark) both
        // end: the second got a thread of its own instead of queueing behind the first.
        WorkPool pool;
        auto a = std::make_shared<std::atomic<bool>>(false);
        auto b = std::make_shared<std::atomic<bool>>(false);
        auto meet = [](std::atomic<bool>& mine, const std::atomic<bool>& other) {
            mine = true;
            for (int i = 0; i < 10000 && !other.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return other.load();
        };
        PoolTask<bool> first =
            pool.submit<bool>([a, b, meet](const std::atomic<bool>&) { return meet(*a, *b); });
        PoolTask<bool> second =
            pool.submit<bool>([a, b, meet](const std::atomic<bool>&) { return meet(*b, *a); });
        QVERIFY(first.wait() && second.wait());
        QVERIFY(first.get() && second.get());
        QCOMPARE(pool.threads(), 2);
        // An idle thread is used again rather than a new one made.
        PoolTask<int> third = pool.submit<int>([](const std::atomic<bool>&) { return 3; });
        QVERIFY(third.wait());
        QCOMPARE(pool.threads(), 2);
    }

    void destroyingThePoolStopsAndJoinsEveryThread() {
        // Work that runs until stopped: the pool's destructor raises its flag and returns only
        // once it has ended (joined, not left behind).
        auto ended = std::make_shared<std::atomic<bool>>(false);
        auto started = std::make_shared<std::atomic<bool>>(false);
        std::optional<PoolTask<int>> running;
        {
            WorkPool pool;
            running = pool.submit<int>(
                [ended, started](const std::atomic<bool>& stop) {
                    *started = true;
                    std::atomic<bool> saw;
                    spinUntilStopped(stop, saw);
                    *ended = saw.load();
                    return 1;
                },
                WorkPool::Lane::Low);
            QTRY_VERIFY_WITH_TIMEOUT(started->load(), 10000);
        }                       // ~WorkPool
        QVERIFY(ended->load()); // it saw its stop flag and finished before the pool was gone
        QVERIFY(running->ready());
        QCOMPARE(running->get(), 1);
    }
};

QTEST_GUILESS_MAIN(TestWorkPool)
#include "test_work_pool.moc"
