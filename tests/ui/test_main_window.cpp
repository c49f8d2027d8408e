// The explorer window, headless: it runs a fixed number of samples in its worker, pauses, and
// its chart series hold exactly the engine's metrics; Step, Reset and refused parameters.
#include "ControlPanel.h"
#include "ErrorChartView.h"
#include "MainWindow.h"

#include <QStatusBar>
#include <QtCharts/QXYSeries>
#include <QtTest>

namespace {
fa::ExplorerConfig smallConfig() {
    fa::ExplorerConfig c;
    c.generator.dim = 30;
    c.generator.latent = 3;
    c.fitLatent = 3;
    c.seed = 4;
    c.totalSamples = 5000;
    return c;
}
bool waitFor(MainWindow& w, long samples) {
    QSignalSpy spy(&w, &MainWindow::reachedSamples);
    w.runUntil(samples);
    return spy.wait(20000);
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // never touch the user's own settings
        QCoreApplication::setOrganizationName("FA Explorer tests");
    }
    void init() { QSettings().clear(); }

    void runsPausesAndChartsShowEngineMetrics() {
        MainWindow w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 3000));
        QCOMPARE(w.latestSnapshot()->samples, 3000L);

        fa::LiveExplorer reference(smallConfig()); // same seeds: the same stream and fits
        reference.advance(3000);
        const fa::ExplorerSnapshot expected = reference.snapshot();
        for (const auto& trace : expected.traces) {
            const QXYSeries* cov = w.covarianceChart()->series(QString::fromStdString(trace.name));
            const QXYSeries* w2 = w.wassersteinChart()->series(QString::fromStdString(trace.name));
            QVERIFY(cov && w2);
            QCOMPARE(cov->count(), static_cast<int>(trace.points.size()));
            QVERIFY(cov->count() > 10 || trace.name == "batch");
            for (int i = 0; i < cov->count(); ++i) {
                QCOMPARE(cov->at(i).x(), static_cast<double>(trace.points[i].samples));
                QCOMPARE(cov->at(i).y(), trace.points[i].relCovDist);
                QCOMPARE(w2->at(i).y(), trace.points[i].w2OverDim);
            }
        }
        // Batch refits happen at 100 and 1000 samples.
        QCOMPARE(w.covarianceChart()->series("batch")->count(), 2);
    }

    void stepAdvancesExactlyOneObservation() {
        MainWindow w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 500));
        w.stepOne();
        QTRY_COMPARE(w.latestSnapshot()->samples, 501L);
    }

    void resetReturnsToTheStart() {
        MainWindow w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 800));
        w.reset();
        QTRY_COMPARE(w.latestSnapshot()->samples, 0L);
        QTRY_COMPARE(w.covarianceChart()->series("em")->count(), 0);
    }

    void refusedParametersShowAnErrorAndDoNotCrash() {
        MainWindow w;
        fa::ExplorerConfig bad = smallConfig();
        bad.generator.dim = 2500; // the exact generator refuses D > 2000
        w.controls()->setConfig(bad);
        w.reset();
        QTRY_VERIFY(w.statusBar()->currentMessage().contains("Cannot start"));
        QVERIFY(w.statusBar()->currentMessage().contains("haar"));
        w.togglePlay(); // nothing to play: no crash
        w.stepOne();
        QTest::qWait(50);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
