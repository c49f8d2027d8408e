// The posterior lab in the window, headless: its views hold the numbers of an independently
// computed exact posterior (normal equations solved here), the SGD sliders act live on the
// iterate cloud, bad CSV files change nothing, sessions replay the same curves, exports write.
#include "core/data/RegressionData.h"
#include "core/math/Rng.h"
#include "core/metrics/DenseMetrics.h"
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
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtTest>

#include <numbers>

namespace {

bool runTo(PosteriorPage& page, long epoch) {
    QSignalSpy spy(&page, &LabPage::reached);
    page.runUntil(epoch);
    return spy.wait(30000);
}

// The synthetic data the lab uses for seed 0: the recipe's generator with the data stream of
// trial seed deriveSeed(0, 0) (PosteriorLab.cpp); its posterior solved here from scratch.
struct Reference {
    fa::Vector mean;
    fa::Matrix cov;
};
Reference syntheticPosterior(int rows) {
    fa::SyntheticRecipe r;
    r.samples = rows;
    const fa::RegressionData d =
        fa::syntheticRegression(r, fa::deriveSeed(fa::deriveSeed(0, 0), 1));
    fa::Matrix A = r.beta * d.X.transpose() * d.X + r.alpha * fa::Matrix::Identity(2, 2);
    const fa::Vector b = r.beta * d.X.transpose() * d.y;
    return {A.inverse() * b, A.inverse()};
}

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
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("FA Explorer tests");
    }

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

    // The bimodal target's exact posterior is drawn as its true contours, not an ellipse: the
    // points of the inner (39 %) contour share one density, computed here from the data with
    // log Z by an independent quadrature, and the region above that density holds 39 % of the
    // mass; the inner contour is two loops (two series). A Laplace fit brings its own posterior.
    void gridTargetsShowTheirTrueContours() {
        PosteriorPage page;
        fa::PosteriorLiveConfig c = page.controls()->config();
        c.setup.dataset = "bimodal-synthetic";
        c.methods = {fa::PosteriorMethod::ViFull, fa::PosteriorMethod::VifaLaplace};
        page.controls()->setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 5));
        QTRY_VERIFY(page.latestSnapshot()->dataset == "bimodal-synthetic");
        QTRY_VERIFY(page.contourView()->contour("exact", 0)->count() > 20);
        const QLineSeries* laplace = page.contourView()->contour("exact-laplace", 1);
        QVERIFY(laplace && laplace->count() > 20);
        const auto t =
            fa::generatedTarget("bimodal-synthetic", fa::deriveSeed(fa::deriveSeed(0, 0), 1));
        QVERIFY(t.has_value());
        const fa::Vector x = t->data.X.col(0), y = t->data.y;
        const double alpha = 1.0, beta = 4.0, pi = std::numbers::pi;
        const auto logJoint = [&](double w1, double w2) {
            const double r = (y - w1 * w2 * x).squaredNorm();
            return 0.5 * y.size() * std::log(beta / (2 * pi)) - 0.5 * beta * r +
                   std::log(alpha / (2 * pi)) - 0.5 * alpha * (w1 * w1 + w2 * w2);
        };
        const int n = 1400;
        const double lo = -7.0, h = 14.0 / n;
        std::vector<double> cells;
        double z = 0.0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                cells.push_back(std::exp(logJoint(lo + (i + 0.5) * h, lo + (j + 0.5) * h)));
                z += cells.back() * h * h;
            }
        const QLineSeries* inner = page.contourView()->contour("exact", 0);
        double dmin = INFINITY, dmax = 0.0;
        for (const QPointF& p : inner->points()) {
            const double d = std::exp(logJoint(p.x(), p.y())) / z;
            dmin = std::min(dmin, d), dmax = std::max(dmax, d);
        }
        QVERIFY2(dmax / dmin < 1.05, qPrintable(QString("%1 %2").arg(dmin).arg(dmax)));
        const double level = std::sqrt(dmin * dmax);
        double mass = 0.0;
        for (const double v : cells)
            if (v / z > level)
                mass += v / z * h * h;
        QVERIFY2(std::abs(mass - 0.3935) < 0.01, qPrintable(QString::number(mass)));
        // The second loop of the inner level: a series beyond the first three, not in the legend.
        int drawn = 0;
        for (QAbstractSeries* s : page.contourView()->chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s);
                line && line->isVisible() && line->count() > 0 &&
                line->pen().color() == inner->pen().color())
                ++drawn;
        QVERIFY2(drawn >= 4, qPrintable(QString::number(drawn))); // 2 + 1 + 1 loops at least
    }

    // The gradient panel at a full-covariance fit, once the run stops: 60 mean-gradient
    // estimates per estimator, each estimator's variance falling as 1/L (a hundredfold from
    // L = 1 to 100, within the spread of variances from 60 estimates), the score function's
    // far above the reparameterised one, and no baseline point at L = 1.
    void gradientPanelShowsTheEstimators() {
        PosteriorPage page;
        fa::PosteriorLiveConfig c = page.controls()->config();
        c.methods = {fa::PosteriorMethod::ViFull};
        c.run.compareEstimators = true;
        page.controls()->setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 20));
        QTRY_VERIFY(page.latestSnapshot()->gradients &&
                    page.latestSnapshot()->gradients->epoch == 20);
        GradientPanel* panel = page.gradientPanel();
        QTRY_COMPARE(panel->cloud(0)->count(), 60);
        QCOMPARE(panel->cloud(1)->count(), 60);
        for (int e = 0; e < 2; ++e) {
            const QLineSeries* mean = panel->variance(e, false);
            QCOMPARE(mean->count(), 3);
            const double ratio = mean->at(0).y() / mean->at(2).y();
            QVERIFY2(ratio > 40.0 && ratio < 250.0, qPrintable(QString::number(ratio)));
        }
        QVERIFY(panel->variance(1, false)->at(1).y() >
                100.0 * panel->variance(0, false)->at(1).y());
        QCOMPARE(panel->variance(2, false)->count(), 2); // L = 10, 100
        QCOMPARE(panel->variance(2, false)->at(0).x(), 10.0);
        // The KL curves: one per estimator, 20 epochs each; the reparameterised fit's last
        // point is the dense Gaussian KL of the snapshot's q to the posterior solved here.
        for (int e = 0; e < 3; ++e)
            QTRY_COMPARE(panel->kl(e)->count(), 20);
        const auto snap = page.latestSnapshot();
        const auto& a = snap->approximations.front();
        Eigen::Matrix2d S;
        S << a.variances(0), a.covariances(0), a.covariances(0), a.variances(1);
        const Reference ref = syntheticPosterior(1000);
        const Eigen::Matrix2d P = ref.cov.inverse();
        const Eigen::Vector2d d = ref.mean - a.mean;
        const double kl = 0.5 * ((P * S).trace() + d.dot(P * d) - 2.0 +
                                 std::log(ref.cov.determinant() / S.determinant()));
        QVERIFY2(std::abs(panel->kl(0)->at(19).y() / kl - 1.0) < 1e-6,
                 qPrintable(QString("%1 %2").arg(panel->kl(0)->at(19).y()).arg(kl)));
    }

    // A session keeps the VI settings (a generated target, the estimator, the comparison) and
    // replays the same KL curves.
    void viSessionsKeepTheEstimator() {
        const QString path = m_dir.filePath("vi.json");
        std::vector<double> expected;
        {
            PosteriorPage page;
            fa::PosteriorLiveConfig c = page.controls()->config();
            c.setup.dataset = "logistic-synthetic";
            c.methods = {fa::PosteriorMethod::ViMeanField, fa::PosteriorMethod::VifaGauss};
            c.run.estimator = fa::GradientEstimator::ScoreBaseline;
            c.run.compareEstimators = true;
            page.controls()->setConfig(c);
            page.reset();
            QVERIFY(runTo(page, 12));
            QVERIFY(page.saveSession(path));
            for (int e = 0; e < 3; ++e)
                for (const QPointF& p : page.gradientPanel()->kl(e)->points())
                    expected.push_back(p.y());
        }
        QCOMPARE(expected.size(), std::size_t(36));
        PosteriorPage reopened;
        QSignalSpy reached(&reopened, &LabPage::reached);
        QVERIFY(reopened.openSession(path));
        QVERIFY(reached.wait(30000));
        const fa::PosteriorLiveConfig c = reopened.controls()->config();
        QCOMPARE(c.setup.dataset, std::string("logistic-synthetic"));
        QCOMPARE(c.run.estimator, fa::GradientEstimator::ScoreBaseline);
        QVERIFY(c.run.compareEstimators);
        QTRY_COMPARE(reopened.gradientPanel()->kl(0)->count(), 12);
        std::vector<double> got;
        for (int e = 0; e < 3; ++e)
            for (const QPointF& p : reopened.gradientPanel()->kl(e)->points())
                got.push_back(p.y());
        QCOMPARE(got, expected);
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
        QCOMPARE(files.size(), 16);
        for (const QString& file : files)
            QVERIFY(QFileInfo(file).size() > 1000);
        // A posterior session opened from the explorer mode switches the window over.
        const QString session = m_dir.filePath("switch.json");
        QVERIFY(w.saveSession(session));
        w.setCurrentLab("explorer");
        QVERIFY(w.openSession(session));
        QVERIFY(w.currentLab() == "posterior");
    }
};

QTEST_MAIN(TestPosteriorPage)
#include "test_posterior_page.moc"
