// The explorer's views beyond the numbers test_main_window checks: a fitter turned off leaves
// the charts and their legends, and hovering a heat-map cell names that entry of the truth; a
// contour view's fit beyond its axes says so in the legend.
#include "core/explorer/FaSweep.h"
#include "core/fa/ModelGenerator.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/common/ContourView.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/CovarianceHeatMaps.h"
#include "ui/explorer/ErrorChartView.h"
#include "ui/explorer/ExplorerPage.h"

#include <QRegularExpression>
#include <QToolTip>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>
#include <QtCharts/QXYSeries>
#include <QtTest>
#include <cmath>

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
} // namespace

class TestExplorerViews : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    // A fit whose ellipse lies beyond the axes (VIFA's mean travelling in from 0 while the view
    // follows the exact posterior) is named "off the plot" in the legend; back in view, not.
    void aFitBeyondTheAxesSaysSoInTheLegend() {
        ContourView view;
        view.resize(500, 400);
        view.show();
        ContourScene scene;
        scene.reference = "exact";
        ContourScene::Model exact{"exact", true, {}, nullptr};
        exact.marginal.mean = Eigen::Vector2d(-3.5, 14.3);
        exact.marginal.cov = 0.01 * Eigen::Matrix2d::Identity();
        ContourScene::Model fit{"vifa-gauss", true, {}, nullptr};
        fit.marginal.mean = Eigen::Vector2d(-0.7, 2.9); // 20 % of the way from 0
        fit.marginal.cov = 0.01 * Eigen::Matrix2d::Identity();
        scene.models = {exact, fit};
        view.showScene(scene);
        const QString far = view.contour("vifa-gauss", 0)->name();
        QVERIFY2(far.endsWith("(off the plot)"), qPrintable(far));
        QVERIFY(!view.contour("exact", 0)->name().contains("off the plot"));
        // the axes indeed hold the exact posterior and not the fit
        const auto* x = qobject_cast<QValueAxis*>(view.chart()->axes(Qt::Horizontal).first());
        QVERIFY(x && x->min() < -3.5 && x->max() > -3.5 && x->max() < -0.7);
        scene.models[1].marginal.mean = Eigen::Vector2d(-3.45, 14.25);
        view.showScene(scene);
        QVERIFY(!view.contour("vifa-gauss", 0)->name().contains("off the plot"));
    }

    // A fitter that blows up leaves the chart at the top; the others keep the axis (issue 25:
    // SGA at 1e10 flattened EM's level into the chart's foot and every label into "…").
    void aRunawayCurveLeavesTheChartAndTheOthersStayReadable() {
        ErrorChartView chart("covariance", "relative distance",
                             [](const fa::CurvePoint& p) { return p.relCovDist; });
        fa::ExplorerSnapshot s;
        s.totalSamples = 100000;
        fa::AlgorithmTrace em, sga;
        em.name = "em", sga.name = "sga";
        for (long t = 10; t <= 100000; t *= 10) {
            em.points.push_back({t, 1.0 / std::sqrt(static_cast<double>(t))});
            sga.points.push_back({t, t >= 1000 ? 1e10 : 1.0});
        }
        s.traces = {em, sga};
        chart.showSnapshot(s);
        const auto* y = qobject_cast<QLogValueAxis*>(chart.chart()->axes(Qt::Vertical).at(0));
        QVERIFY(y);
        QVERIFY2(y->max() <= 1000.0 && y->max() >= 100.0, qPrintable(QString::number(y->max())));
        QVERIFY(y->min() <= 1.0 / std::sqrt(1e5)); // EM's last point is inside
        // Alone, a large curve keeps its whole range.
        s.traces = {sga};
        chart.showSnapshot(s);
        QVERIFY(y->max() >= 1e10);
    }

    void turningBatchOffTakesItOutOfTheCharts() {
        ExplorerPage w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 1200));
        QTRY_VERIFY(w.covarianceChart()->series("batch") != nullptr);
        fa::ExplorerConfig c = smallConfig();
        c.runBatch = false;
        w.controls()->setConfig(c);
        w.reset();
        QVERIFY(waitFor(w, 300));
        QVERIFY(w.covarianceChart()->series("batch") == nullptr); // nor in the legend
        QVERIFY(w.wassersteinChart()->series("batch") == nullptr);
        QVERIFY(w.covarianceChart()->series("em")->count() > 10);
    }

    void hoveringAHeatMapCellNamesTheTruthsEntry() {
        ExplorerPage w;
        w.controls()->setConfig(smallConfig());
        w.reset();
        QVERIFY(waitFor(w, 300));
        const fa::Matrix S = fa::generateModel(smallConfig().generator, fa::trialSeeds(4, 0).model)
                                 .denseCovariance();
        // Hovering a cell of the true map names its entry and value: S(r, c) of the truth.
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QWidget* maps = w.heatMaps();
        const QRegularExpression cell(R"(true S  \[(\d+), (\d+)\] = (\S+))");
        int checked = 0;
        for (int y = 0; y < maps->height() && checked < 3; y += 7)
            for (int x = 0; x < maps->width() / 3 && checked < 3; x += 7) {
                QMouseEvent move(QEvent::MouseMove, QPointF(x, y), maps->mapToGlobal(QPointF(x, y)),
                                 Qt::NoButton, Qt::NoButton, Qt::NoModifier);
                QApplication::sendEvent(maps, &move);
                const auto m = cell.match(QToolTip::text());
                if (!m.hasMatch())
                    continue;
                const int r = m.captured(1).toInt() - 1, c = m.captured(2).toInt() - 1;
                QVERIFY(std::abs(m.captured(3).toDouble() - S(r, c)) <=
                        5e-4 * std::abs(S(r, c)) + 1e-12); // shown to 4 digits
                ++checked;
                y += 40; // another row of cells next
            }
        QCOMPARE(checked, 3);
    }
};

QTEST_MAIN(TestExplorerViews)
#include "test_explorer_views.moc"
