// The posterior lab in the window, headless: its views hold the numbers of an independently
// computed exact posterior (normal equations solved here), the SGD sliders act live on the
// iterate cloud, bad CSV files change nothing, sessions replay the same curves, exports write.
#include "core/data/RegressionData.h"
#include "core/math/Rng.h"
#include "core/metrics/DenseMetrics.h"
#include "tests/support/PosteriorPageSupport.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/common/ChangeMarkers.h"
#include "ui/common/ContourView.h"
#include "ui/posterior/ComparisonScatter.h"
#include "ui/posterior/GradientPanel.h"
#include "ui/posterior/PosteriorControls.h"
#include "ui/posterior/PosteriorCurveChart.h"
#include "ui/posterior/PosteriorPage.h"
#include "ui/shell/MainWindow.h"

#include <QCheckBox>
#include <QSlider>
#include <QTemporaryDir>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>

#include <numbers>

namespace {

using fa::test::Reference;
using fa::test::runTo;
using fa::test::syntheticPosterior;

double cloudSpread(const fa::PosteriorLiveSnapshot& s) {
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    for (const auto& p : s.iterates)
        mean += p;
    mean /= double(s.iterates.size());
    double var = 0.0;
    for (const auto& p : s.iterates)
        var += (p - mean).squaredNorm();
    return var / double(s.iterates.size());
}

} // namespace

class TestPosteriorPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void viewsShowTheExactPosterior() {
        PosteriorPage page;
        QVERIFY(runTo(page, 30));
        const auto snap = page.latestSnapshot();
        QCOMPARE(snap->epoch, 30L);
        const Reference ref = syntheticPosterior(1000);
        QVERIFY((snap->exactMean - ref.mean).norm() < 1e-10 * ref.mean.norm());
        // The exact 86 % contour lies on Mahalanobis radius 2 of the reference posterior.
        const QLineSeries* c = page.contourView()->contour("exact", 1);
        QVERIFY(c && c->count() > 50);
        const Eigen::Matrix2d inv = ref.cov.inverse();
        for (const QPointF& p : c->points()) {
            const Eigen::Vector2d d(p.x() - ref.mean(0), p.y() - ref.mean(1));
            QVERIFY(std::abs(d.dot(inv * d) - 4.0) < 1e-6);
        }
        // The mean scatter: x the reference posterior mean, y each approximation's mean.
        const QScatterSeries* means = page.comparison(0)->series("vifa-gauss");
        QVERIFY(means && means->count() == 2);
        for (int k = 0; k < 2; ++k)
            QVERIFY(std::abs(means->at(k).x() - ref.mean(k)) < 1e-9 * ref.mean.norm());
        const QScatterSeries* cov = page.comparison(2)->series("swag");
        QVERIFY(cov && cov->count() == 1);
        // Its legend names each method's colour (the identity line is left out of it).
        page.show();
        QTest::qWait(50);
        QStringList legend;
        for (QLegendMarker* m : page.comparison(2)->chart()->legend()->markers())
            legend << m->label() + (m->isVisible() ? "" : " (hidden)");
        QVERIFY(page.comparison(2)->chart()->legend()->isVisible());
        QVERIFY2(legend.contains("SWAG") && legend.contains("VIFA-G") &&
                     !legend.contains("identity"),
                 qPrintable(legend.join(", ")));
        QVERIFY(std::abs(cov->at(0).x() - ref.cov(0, 1)) < 1e-12);
        // The covariance curve's last point: the distance of the approximation shown in the
        // scatters (its variances and covariance) from the reference covariance.
        const QLineSeries* curve = page.curveChart(1)->series("vifa-gauss");
        QVERIFY(curve && curve->count() == 30);
        const auto& a = snap->approximations.front();
        fa::Matrix est(2, 2);
        est << a.variances(0), a.covariances(0), a.covariances(0), a.variances(1);
        QVERIFY(std::abs(curve->at(29).y() - (est - ref.cov).norm() / ref.cov.norm()) < 1e-9);
        QCOMPARE(curve->at(29).x(), 30.0);
    }

    // The contour view has one scale on both axes: a unit is as many pixels across as up, at
    // any size of the panel (issue 25), where the two spans are within tenfold.
    void theContourViewKeepsEqualScales() {
        PosteriorPage page;
        page.resize(1000, 700);
        page.show();
        QVERIFY(runTo(page, 30));
        for (const QSize size : {QSize(1000, 700), QSize(1400, 500)}) {
            page.resize(size);
            QVERIFY(runTo(page, page.latestSnapshot()->epoch + 5)); // redrawn at this size
            QTest::qWait(100);
            QVERIFY(runTo(page, page.latestSnapshot()->epoch + 5)); // with the settled layout
            const QChart* chart = page.contourView()->chart();
            const auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).at(0));
            const auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).at(0));
            const QRectF plot = chart->plotArea();
            const double ux = (x->max() - x->min()) / plot.width(),
                         uy = (y->max() - y->min()) / plot.height();
            QVERIFY2(std::abs(ux / uy - 1) < 0.05,
                     qPrintable(QString("%1 x %2: %3 vs %4 units per pixel")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(ux)
                                    .arg(uy)));
        }
    }

    void sgdSlidersActLive() {
        PosteriorPage page;
        QVERIFY(runTo(
            page, 60)); // SGD at eta = 0.01 has forgotten its start (slowest rate 0.01 per step)
        const double before = cloudSpread(*page.latestSnapshot());
        // Ten times the learning rate: the stationary spread of SGD grows about tenfold.
        page.controls()->learningRateSlider()->setValue(
            page.controls()->learningRateSlider()->value() + 100);
        QVERIFY(runTo(page, 80));
        const auto after = page.latestSnapshot();
        QVERIFY(std::abs(after->sgdLearningRate - 0.1) < 1e-12);
        QVERIFY2(cloudSpread(*after) > 4.0 * before,
                 qPrintable(QString("%1 -> %2").arg(before).arg(cloudSpread(*after))));
        // A huge lambda pulls the iterates toward zero, away from the posterior mean.
        page.controls()->lambdaSlider()->setValue(
            350); // lambda = 10^3.5, still a stable step at eta = 0.1
        QVERIFY(runTo(page, 100));
        const auto pulled = page.latestSnapshot();
        QVERIFY(std::abs(pulled->lambda - std::pow(10.0, 3.5)) < 1e-6);
        Eigen::Vector2d mean = Eigen::Vector2d::Zero();
        for (const auto& p : pulled->iterates)
            mean += p / double(pulled->iterates.size());
        QVERIFY(mean.norm() < 0.5 * pulled->exactMean.norm());
        // Each live change is marked on the curves at its epoch, with what it set.
        QTRY_COMPARE(page.curveChart(1)->changeMarkers()->count(), 2);
        const ChangeMarkers* marks = page.curveChart(1)->changeMarkers();
        QCOMPARE(marks->line(0)->at(0).x(), double(pulled->config.changes[0].epoch));
        QVERIFY(pulled->config.changes[0].epoch >= 60 && pulled->config.changes[0].epoch <= 61);
        QVERIFY2(marks->label(0).contains("η → 0.1"), qPrintable(marks->label(0)));
        QVERIFY2(marks->label(1).startsWith("λ → 3.16e+03"), qPrintable(marks->label(1)));
        QVERIFY(!marks->label(1).contains("η")); // only what changed
    }

    void badCsvChangesNothing() {
        PosteriorPage page;
        QVERIFY(runTo(page, 5));
        const QString bad = m_dir.filePath("bad.csv");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,y\n1,2,3\n4,oops,6\n");
        f.close();
        QVERIFY(!page.openCsv(bad));
        QVERIFY2(page.lastError().contains("row 3") && page.lastError().contains("'b'"),
                 qPrintable(page.lastError()));
        QVERIFY(runTo(page, 10));
        QCOMPARE(page.latestSnapshot()->dataset, std::string("synthetic"));
    }

    void goodCsvRunsWithABias() {
        PosteriorPage page;
        const QString good = m_dir.filePath("houses.csv");
        QFile f(good);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("size,rooms,price\n");
        fa::Rng rng(3);
        for (int i = 0; i < 60; ++i) {
            const double size = rng.normal(), rooms = rng.normal();
            f.write(QString("%1,%2,%3\n")
                        .arg(size)
                        .arg(rooms)
                        .arg(2 * size - rooms + 0.3 * rng.normal())
                        .toUtf8());
        }
        f.close();
        QVERIFY(page.openCsv(good));
        QTRY_VERIFY(page.latestSnapshot() && page.latestSnapshot()->dataset == "houses");
        QVERIFY(runTo(page, 5));
        const auto s = page.latestSnapshot();
        QCOMPARE(s->exactMean.size(), Eigen::Index{3}); // two inputs and a bias
        QCOMPARE(s->parameterNames.back(), std::string("bias"));
        QCOMPARE(s->trainRows, Eigen::Index{30});
        // A session on a CSV file reopens it, with its target, and raises no error on the way.
        const QString session = m_dir.filePath("houses.json");
        QVERIFY(page.saveSession(session));
        PosteriorPage reopened;
        QSignalSpy messages(&reopened, &PosteriorPage::message);
        QSignalSpy reached(&reopened, &LabPage::reached);
        QVERIFY(reopened.openSession(session));
        QVERIFY(reached.wait(20000));
        QCOMPARE(reopened.latestSnapshot()->dataset, std::string("houses"));
        QCOMPARE(reopened.latestSnapshot()->exactMean, s->exactMean);
        QVERIFY(reopened.lastError().isEmpty());
        for (const auto& m : messages)
            QVERIFY2(!m.at(0).toString().contains("⚠"), qPrintable(m.at(0).toString()));
    }

    void refusedParametersKeepTheRun() {
        PosteriorPage page;
        QVERIFY(runTo(page, 3));
        QSignalSpy messages(&page, &PosteriorPage::message);
        fa::PosteriorLiveConfig c = page.controls()->config();
        c.run.latent = 2; // K must be below D = 2
        page.controls()->setConfig(c);
        page.reset();
        QVERIFY(messages.wait(5000));
        QVERIFY2(page.lastError().contains("latent"), qPrintable(page.lastError()));
        QVERIFY(runTo(page, 6)); // the previous run goes on
    }

    void sessionsReplayTheSameCurves() {
        const QString path = m_dir.filePath("posterior.json");
        std::vector<double> expected;
        {
            PosteriorPage page;
            page.controls()->methodBox(fa::PosteriorMethod::VifaLaplace)->setChecked(true);
            QVERIFY(runTo(page, 15));
            page.controls()->learningRateSlider()->setValue(
                page.controls()->learningRateSlider()->value() - 50);
            QVERIFY(runTo(page, 40));
            QVERIFY(page.saveSession(path));
            for (const QPointF& p : page.curveChart(3)->series("sgd-em")->points())
                expected.push_back(p.y());
            expected.push_back(page.curveChart(1)->series("vifa-laplace")->points().back().y());
        }
        PosteriorPage reopened;
        QSignalSpy reached(&reopened, &LabPage::reached);
        QVERIFY(reopened.openSession(path));
        QVERIFY(reached.wait(30000));
        QCOMPARE(reopened.latestSnapshot()->epoch, 40L);
        std::vector<double> got;
        for (const QPointF& p : reopened.curveChart(3)->series("sgd-em")->points())
            got.push_back(p.y());
        got.push_back(reopened.curveChart(1)->series("vifa-laplace")->points().back().y());
        QCOMPARE(got, expected);
        QVERIFY(reopened.controls()->methodBox(fa::PosteriorMethod::VifaLaplace)->isChecked());

        const QString broken = m_dir.filePath("broken.json");
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"format": "faexplorer-session", "version": 1, "mode": "posterior", "data": {}})");
        f.close();
        QVERIFY(!reopened.openSession(broken));
        QVERIFY(reopened.lastError().contains("data.dataset"));
    }

    void exportsCurvesAndCharts() {
        MainWindow w;
        w.setCurrentLab("posterior");
        QVERIFY(w.currentLab() == "posterior");
        QVERIFY(runTo(*w.page<PosteriorPage>(), 12));
        const QString csv = m_dir.filePath("curves.csv");
        QVERIFY(w.exportCurves(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(
            lines.first(),
            QString("dataset,method,latent,trial,epoch,rel_mean_dist,rel_cov_dist,w2,w2_over_dim,"
                    "seconds,status"));
        QCOMPARE(lines.size(), 1 + 3 * 12); // three methods, every epoch
        QVERIFY(lines[1].startsWith("synthetic,vifa-gauss,1,0,1,"));
        QTemporaryDir charts;
        const QStringList files = w.exportCharts(charts.path());
        QCOMPARE(files.size(), 18); // eight charts and the whole page, PNG and SVG
        for (const QString& file : files)
            QVERIFY(QFileInfo(file).size() > 1000);
        // A posterior session opened from the explorer mode switches the window over.
        const QString session = m_dir.filePath("switch.json");
        QVERIFY(w.saveSession(session));
        w.setCurrentLab("explorer");
        QVERIFY(w.openSession(session));
        QVERIFY(w.currentLab() == "posterior");
    }

    void settingsAreRememberedBetweenLaunches() {
        QSettings().clear();
        {
            MainWindow w;
            auto* page = w.page<PosteriorPage>();
            fa::PosteriorLiveConfig c = page->controls()->config();
            c.setup.dataset = "energy";
            c.run.latent = 2;
            c.run.vifa.lrC = 0.003;
            c.methods = {fa::PosteriorMethod::VifaLaplace, fa::PosteriorMethod::Swag};
            page->controls()->setConfig(c);
            page->controls()->setCoordinates(3, 5);
            page->controls()->setSpeed(77);
            w.close(); // saves the settings, as quitting does
        }
        MainWindow again;
        auto* page = again.page<PosteriorPage>();
        const fa::PosteriorLiveConfig c = page->controls()->config();
        QCOMPARE(QString::fromStdString(c.setup.dataset), QString("energy"));
        QCOMPARE(c.run.latent, 2);
        QCOMPARE(c.run.vifa.lrC, 0.003);
        QCOMPARE(c.methods.size(), std::size_t{2});
        QCOMPARE(page->controls()->coordI(), 3);
        QCOMPARE(page->controls()->coordJ(), 5);
        QCOMPARE(page->controls()->speed(), 77.0);
        QSettings().clear();
    }
};

QTEST_MAIN(TestPosteriorPage)
#include "test_posterior_page.moc"
