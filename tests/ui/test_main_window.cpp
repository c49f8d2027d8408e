// The explorer window, headless: it runs a fixed number of samples in its worker, pauses, and
// its views hold exactly the engine's numbers; Step, Reset, sessions (saved and reopened
// reproduce the same curves), exports, trials, and refused input.
#include "core/explorer/FaSweepCsv.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/common/BandChartView.h"
#include "ui/common/ChangeMarkers.h"
#include "ui/common/ContourView.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/CovarianceHeatMaps.h"
#include "ui/explorer/ErrorChartView.h"
#include "ui/explorer/ExplorerPage.h"
#include "ui/explorer/StepPanel.h"
#include "ui/explorer/TrialsPanel.h"
#include "ui/session/SessionFile.h"

#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
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
bool waitFor(ExplorerPage& w, long samples) {
    QSignalSpy spy(&w, &LabPage::reached);
    w.runUntil(samples);
    return spy.wait(20000);
}
QList<QPointF> points(const QXYSeries* s) {
    return s ? s->points() : QList<QPointF>{};
}
} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { fa::test::isolateSettings(); }
    void init() { QSettings().clear(); }

    void runsPausesAndChartsShowEngineMetrics() {
        ExplorerPage w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 3000));
        QCOMPARE(w.latestSnapshot()->samples, 3000L);
        // Batch refits (at 100 and 1000) run in the background and arrive while paused.
        QTRY_COMPARE(w.covarianceChart()->series("batch")->count(), 2);

        fa::LiveExplorer reference(smallConfig()); // same seeds: the same stream and fits
        reference.advance(3000);
        reference.waitForBatch();
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
        // The 2D view's true 86 % contour lies on Mahalanobis radius 2 of the true marginal,
        // taken here from the dense covariance.
        const fa::FAModel truth =
            fa::generateModel(smallConfig().generator, fa::trialSeeds(4, 0).model);
        const fa::Matrix S = truth.denseCovariance();
        // A new model opens on its most correlated pair of coordinates (dense correlations).
        const fa::Vector sd = S.diagonal().cwiseSqrt();
        fa::Matrix R = S.cwiseQuotient(sd * sd.transpose()).cwiseAbs();
        R.diagonal().setZero();
        Eigen::Index bi = 0, bj = 0;
        R.maxCoeff(&bi, &bj);
        const int i = w.latestSnapshot()->view.coordI, j = w.latestSnapshot()->view.coordJ;
        QCOMPARE(std::make_pair(Eigen::Index(i), Eigen::Index(j)),
                 std::make_pair(std::min(bi, bj), std::max(bi, bj)));
        QCOMPARE(w.controls()->viewOptions().coordI, i); // and the fields say so
        QCOMPARE(w.controls()->viewOptions().coordJ, j);
        Eigen::Matrix2d S2;
        S2 << S(i, i), S(i, j), S(j, i), S(j, j);
        const Eigen::Matrix2d P = S2.inverse();
        const auto contour = points(w.contourView()->contour("truth", 1));
        QVERIFY(contour.size() > 20);
        for (const QPointF& p : contour) {
            const Eigen::Vector2d d(p.x() - truth.c[i], p.y() - truth.c[j]);
            QVERIFY(std::abs(d.dot(P * d) - 4.0) < 1e-9);
        }
        QCOMPARE(w.contourView()->observations()->count(), 300);
        // The heat maps' shared scale is the largest off-diagonal |S_ij| of the 30 x 30 block.
        fa::Matrix off = S.cwiseAbs();
        off.diagonal().setZero();
        QVERIFY(std::abs(w.heatMaps()->scale() - off.maxCoeff()) < 1e-12);
    }

    void stepAdvancesExactlyOneObservationAndExplainsIt() {
        ExplorerPage w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 500));
        w.stepOnce();
        QTRY_COMPARE(w.latestSnapshot()->samples, 501L);
        QTRY_VERIFY(w.stepPanel()->text().contains("t = 501"));
        QVERIFY(w.stepPanel()->text().contains("online EM"));
        QVERIFY(w.stepPanel()->text().contains("‖ΔF‖/‖F‖"));
        const auto& trace = *w.latestSnapshot()->lastStep;
        QCOMPARE(trace.t, 501L);
        QCOMPARE(trace.fits.size(), std::size_t(2));
        // The 2D view rings that observation: the newest of its points, in the view's two
        // coordinates of the traced x.
        const QXYSeries* ring = w.contourView()->steppedObservation();
        QTRY_COMPARE(ring->count(), 1);
        const int i = w.latestSnapshot()->view.coordI, j = w.latestSnapshot()->view.coordJ;
        if (std::max(i, j) < trace.xHead.size()) { // the trace keeps the first coordinates
            QCOMPARE(ring->at(0).x(), trace.xHead(i));
            QCOMPARE(ring->at(0).y(), trace.xHead(j));
        }
        QCOMPARE(ring->at(0), w.contourView()->observations()->points().last());
        // Played on (not stepped), the ring goes.
        QVERIFY(waitFor(w, 700));
        QCOMPARE(ring->count(), 0);
    }

    void resetReturnsToTheStart() {
        ExplorerPage w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 800));
        w.reset();
        QTRY_COMPARE(w.latestSnapshot()->samples, 0L);
        QTRY_COMPARE(w.covarianceChart()->series("em")->count(), 0);
        QTRY_COMPARE(w.covarianceChart()->series("batch")->count(), 0);
    }

    void savedSessionReopensWithTheSameCurves() {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.json");
        QList<QPointF> cov, w2, batch;
        {
            ExplorerPage w;
            w.controls()->setConfig(smallConfig());
            w.reset();
            QVERIFY(waitFor(w, 1200));
            fa::ExplorerConfig c = w.controls()->config();
            c.learningRate = 0.003; // a live change mid-run is part of the session
            w.controls()->setConfig(c);
            emit w.controls()->learningRateChanged(0.003);
            QVERIFY(waitFor(w, 2500));
            // The change is marked on both curves at the sample it took effect, with its value.
            for (const ErrorChartView* chart : {w.covarianceChart(), w.wassersteinChart()}) {
                QCOMPARE(chart->changeMarkers()->count(), 1);
                const long at = w.latestSnapshot()->config.learningRateChanges.at(0).first;
                QVERIFY(at >= 1200 && at < 2500);
                QCOMPARE(chart->changeMarkers()->line(0)->at(0).x(), double(at));
                QCOMPARE(chart->changeMarkers()->label(0), QString("η → 0.003"));
            }
            QTRY_COMPARE(w.covarianceChart()->series("batch")->count(), 2);
            QVERIFY(w.saveSession(path));
            cov = points(w.covarianceChart()->series("sga"));
            w2 = points(w.wassersteinChart()->series("em"));
            batch = points(w.covarianceChart()->series("batch"));
        }
        ExplorerPage other;
        QSignalSpy reached(&other, &LabPage::reached);
        QVERIFY(other.openSession(path));
        QVERIFY(reached.wait(20000));
        QCOMPARE(other.latestSnapshot()->samples, 2500L);
        QTRY_COMPARE(other.covarianceChart()->series("batch")->count(), 2);
        QCOMPARE(points(other.covarianceChart()->series("sga")), cov);
        QCOMPARE(points(other.wassersteinChart()->series("em")), w2);
        QCOMPARE(points(other.covarianceChart()->series("batch")), batch);
        QCOMPARE(other.controls()->config().learningRate, 0.003);

        // Without the recorded change the SGA curve differs, so the comparison above can fail.
        ExplorerPage plain;
        plain.controls()->setConfig(smallConfig());
        plain.reset();
        QVERIFY(waitFor(plain, 2500));
        QVERIFY(points(plain.covarianceChart()->series("sga")) != cov);
    }

    void badSessionFilesShowAnErrorAndChangeNothing() {
        QTemporaryDir dir;
        ExplorerPage w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 300));
        const auto before = w.controls()->config();
        auto tryOpen = [&](const QByteArray& text) {
            QFile f(dir.filePath("bad.json"));
            f.open(QIODevice::WriteOnly | QIODevice::Truncate);
            f.write(text);
            f.close();
            return w.openSession(f.fileName());
        };
        QVERIFY(!tryOpen("{ broken"));
        QVERIFY(w.lastError().contains("Cannot open the session"));
        QVERIFY(w.lastError().contains("not valid JSON"));
        QVERIFY(!tryOpen(R"({"format": "faexplorer-session", "version": 99})"));
        QVERIFY(w.lastError().contains("newer FA Explorer"));
        QVERIFY(!w.openSession(dir.filePath("missing.json")));
        QVERIFY(w.lastError().contains("missing.json"));
        QCOMPARE(w.controls()->config().generator.dim, before.generator.dim);
        QCOMPARE(w.latestSnapshot()->samples, 300L); // the run was left alone
    }

    void exportsCurvesAndCharts() {
        QTemporaryDir dir;
        ExplorerPage w;
        w.resize(1200, 800);
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 1000));
        QTRY_COMPARE(w.covarianceChart()->series("batch")->count(), 2);
        const QString csv = dir.filePath("curves.csv");
        QVERIFY(w.exportCurves(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QString(fa::io::kFaSweepHeader));
        const int expected = w.covarianceChart()->series("em")->count() +
                             w.covarianceChart()->series("sga")->count() + 2;
        QCOMPARE(lines.size() - 1, expected);
        // The row for EM at T = 1000 carries the chart's value (shortest round-trip digits).
        const double em1000 = w.covarianceChart()->series("em")->points().last().y();
        bool found = false;
        for (const QString& line : lines) {
            const QStringList cells = line.split(',');
            if (cells.size() > 8 && cells[5] == "1000" && cells[7] == "em") {
                QCOMPARE(cells[8].toDouble(), em1000);
                found = true;
            }
        }
        QVERIFY(found);

        const QStringList files = w.exportCharts(dir.path());
        QCOMPARE(files.size(), 14); // six charts and the whole page, PNG and SVG
        QVERIFY(files.contains(dir.filePath("page.png")));
        QCOMPARE(QImage(dir.filePath("page.png")).size(), w.size());
        // At a chosen width the page is painted again, larger, with the same aspect.
        QTemporaryDir wide;
        QVERIFY(!w.exportCharts(wide.path(), 1920).isEmpty());
        const QImage big(wide.filePath("page.png"));
        QCOMPARE(big.width(), 1920);
        QVERIFY(std::abs(big.height() - 1920.0 * w.height() / w.width()) <= 1.0);
        const QImage chart(wide.filePath("covariance-distance.png"));
        QCOMPARE(chart.width(), 1920);
        for (const QString& file : files) {
            QFile out(file);
            QVERIFY2(out.open(QIODevice::ReadOnly) && out.size() > 1000, qPrintable(file));
            if (file.endsWith(".png"))
                QVERIFY(!QImage(file).isNull());
            else
                QVERIFY(out.readAll().contains("<svg"));
        }
        QVERIFY(!w.exportCurves(dir.filePath("no/such/dir/x.csv")));
        QVERIFY(w.lastError().contains("Cannot export"));
        QVERIFY(w.exportCharts(dir.filePath("absent")).isEmpty());
        QVERIFY(!w.exportJob(dir.filePath("t.csv"))); // no trials yet
    }

    void trialsDrawMeanAndStandardError() {
        ExplorerPage w;
        fa::ExplorerConfig c = smallConfig();
        c.totalSamples = 1000;
        w.controls()->setConfig(c);
        w.reset();
        TrialsPanel* t = w.trialsPanel();
        t->trialsBox()->setValue(3);
        QSignalSpy done(t, &TrialsPanel::finished);
        t->start();
        QVERIFY(t->running());
        QVERIFY(done.wait(60000));
        QCOMPARE(done.first().at(0).toInt(), 3);
        QCOMPARE(done.first().at(1).toBool(), false);
        // The EM band at T = 1000: the mean and standard error of the three trials' rows.
        std::vector<double> v;
        for (const auto& r : t->rows())
            if (r.algorithm == "em" && r.samples == 1000)
                v.push_back(r.relCovDist);
        QCOMPARE(v.size(), std::size_t(3));
        const double mean = (v[0] + v[1] + v[2]) / 3;
        double ss = 0;
        for (double x : v)
            ss += (x - mean) * (x - mean);
        const double se = std::sqrt(ss / 2 / 3);
        const QLineSeries* m = t->covarianceChart()->meanSeries("em");
        QVERIFY(m);
        QCOMPARE(m->points().last().x(), 1000.0);
        QVERIFY(std::abs(m->points().last().y() - mean) < 1e-12);
        QVERIFY(std::abs(t->covarianceChart()->band("em")->upperSeries()->points().last().y() -
                         (mean + se)) < 1e-12);
        // Trial 0 is the live run: its EM row equals the live curve's value at T = 1000.
        QVERIFY(waitFor(w, 1000));
        for (const auto& r : t->rows())
            if (r.trial == 0 && r.algorithm == "em" && r.samples == 1000)
                QVERIFY(std::abs(r.relCovDist -
                                 w.covarianceChart()->series("em")->points().last().y()) < 1e-9);
        QTemporaryDir dir;
        QVERIFY(w.exportJob(dir.filePath("trials.csv")));
    }

    void cancellingTrialsStopsThem() {
        ExplorerPage w;
        fa::ExplorerConfig c = smallConfig();
        c.generator.dim = 200;
        c.totalSamples = 1000000;
        c.runBatch = false;
        w.controls()->setConfig(c);
        TrialsPanel* t = w.trialsPanel();
        t->trialsBox()->setValue(50);
        QSignalSpy done(t, &TrialsPanel::finished);
        t->start();
        QTest::qWait(200);
        t->cancel();
        QVERIFY(done.wait(10000));
        QCOMPARE(done.first().at(1).toBool(), true);
        QVERIFY(!t->running());
    }

    void refusedParametersKeepThePreviousRun() {
        ExplorerPage w;
        const fa::ExplorerConfig good = smallConfig();
        w.controls()->setConfig(good);
        w.reset();
        QTRY_VERIFY(w.latestSnapshot() && w.latestSnapshot()->dim == good.generator.dim);
        w.stepOnce();
        QTRY_VERIFY(w.latestSnapshot()->samples >= 1);
        const long before = w.latestSnapshot()->samples;
        fa::ExplorerConfig bad = good;
        bad.generator.dim = 2500; // the exact generator refuses D > 2000
        w.controls()->setConfig(bad);
        w.reset();
        QTRY_VERIFY(w.lastError().contains("Cannot start"));
        QVERIFY(w.lastError().contains("haar"));
        // The fields show what runs, and the run is the one from before, where it was.
        QTRY_COMPARE(w.controls()->config().generator.dim, good.generator.dim);
        QCOMPARE(w.latestSnapshot()->dim, good.generator.dim);
        QCOMPARE(w.latestSnapshot()->samples, before);
        w.stepOnce(); // the kept run still steps
        QTRY_VERIFY(w.latestSnapshot()->samples > before);
        QTemporaryDir dir;
        QVERIFY(w.saveSession(dir.filePath("s.json"))); // the kept run is what gets saved
        const fa::io::Session saved = fa::io::loadSession(dir.filePath("s.json"));
        QCOMPARE(saved.config.generator.dim, good.generator.dim);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
