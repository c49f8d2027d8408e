// DetachedTask, the helper that lets a cancel or a quit leave a long refit behind: results and
// exceptions come through, a raised cancel ends the wait while the work still runs, and an
// abandoned task's work sees its stop flag and finishes on its own.
#include "core/lab/DetachedTask.h"

#include <QtTest>
#include <atomic>
#include <memory>
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

class TestDetachedTask : public QObject {
    Q_OBJECT
  private slots:
    void resultsAndErrorsComeThrough() {
        DetachedTask<int> task([](const std::atomic<bool>&) { return 6 * 7; });
        QVERIFY(task.wait());
        QVERIFY(task.ready());
        QCOMPARE(task.get(), 42);

        DetachedTask<int> failing(
            [](const std::atomic<bool>&) -> int { throw std::invalid_argument("K >= D"); });
        QVERIFY(failing.wait());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, failing.get());
    }

    void aRaisedCancelEndsTheWait() {
        auto saw = std::make_shared<std::atomic<bool>>(false);
        std::atomic<bool> cancel{true}; // raised: wait returns false although the work runs on
        {
            DetachedTask<int> task(
                [saw](const std::atomic<bool>& stop) { return spinUntilStopped(stop, *saw); });
            QVERIFY(!task.wait(&cancel));
            QVERIFY(!task.ready());
        } // abandoned here: its stop flag is raised
        QTRY_VERIFY_WITH_TIMEOUT(saw->load(), 10000);
    }

    void anAbandonedTaskOwnsItsData() {
        // The work holds the only remaining share of its data once the owner has gone.
        auto data = std::make_shared<std::vector<double>>(1000, 1.5);
        std::weak_ptr<std::vector<double>> watch = data;
        auto summed = std::make_shared<std::atomic<bool>>(false);
        {
            DetachedTask<double> task([data, summed](const std::atomic<bool>& stop) {
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
};

QTEST_GUILESS_MAIN(TestDetachedTask)
#include "test_detached_task.moc"
