// The posterior lab's lesson views, headless (issue 28 items 1 and 2): the "Gaussian processes"
// tab draws what core's lesson computed (bands, rows, draws; checked point by point against the
// lesson, which test_gp_lesson holds to its references) and follows its fields; the gradient
// panel's families beyond the Gaussian draw grad-variance's study (1/L scaling, the gamma's
// implicit reparameterisation thousands of times quieter than the score function, no
// reparameterisation for Bernoulli latents); sessions keep the tab, the GP fields and the family,
// and a session naming a tab that does not exist is refused.
#include "tests/support/SettingsIsolation.h"
#include "ui/posterior/GpPanel.h"
#include "ui/posterior/GradientPanel.h"
#include "ui/posterior/PosteriorPage.h"
#include "ui/session/PosteriorSessionFile.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtTest>

class TestPosteriorLessons : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void gpTabDrawsTheLessonAndFollowsItsFields() {
        PosteriorPage page;
        page.resize(1280, 800);
        page.show();
        GpPanel* gp = page.gpPanel();
        QVERIFY(!gp->lesson()); // nothing computed before the tab is shown
        QSignalSpy computed(gp, &GpPanel::computed);
        page.tabs()->setCurrentWidget(gp);
        QVERIFY(page.viewsPending() || computed.count() == 1);
        QVERIFY(computed.count() == 1 || computed.wait(60000));
        QVERIFY(!page.viewsPending());
        const auto lesson = gp->lesson();
        QCOMPARE(lesson->config.hidden, 10);
        QCOMPARE(gp->predictiveChart()->scatter("rows")->count(), 100);
        for (const fa::GpLessonBand& b : lesson->bands) {
            const std::string key = fa::gpKernelName(b.kernel);
            const QLineSeries* mean = gp->predictiveChart()->line(key);
            const QLineSeries* hi = gp->predictiveChart()->line(key + "/hi");
            QVERIFY(mean && hi);
            QCOMPARE(mean->count(), int(lesson->gridX.size()));
            for (int i = 0; i < mean->count(); i += 25) {
                QCOMPARE(mean->at(i).x(), lesson->gridX(i));
                QCOMPARE(mean->at(i).y(), b.mean(i));
                QCOMPARE(hi->at(i).y(), b.mean(i) + 2.0 * b.sd(i));
            }
        }
        for (Eigen::Index d = 0; d < lesson->networkDraws.cols(); ++d) {
            const QLineSeries* net = gp->drawsChart()->line("net" + std::to_string(d));
            QVERIFY(net);
            QCOMPARE(net->at(7).y(), lesson->networkDraws(7, d));
        }
        QCOMPARE(gp->kurtosisLine()->count(), int(fa::kLessonWidths.size()));
        // Another H: computed again, for the new width.
        gp->hiddenBox()->setCurrentIndex(gp->hiddenBox()->findData(1000));
        QVERIFY(computed.wait(60000));
        QCOMPARE(gp->lesson()->config.hidden, 1000);
        QVERIFY(gp->drawsChart()->chart()->title().contains("H = 1000"));
    }

    void gradientFamiliesDrawTheirStudy() {
        PosteriorPage page;
        page.resize(1280, 800);
        page.show();
        GradientPanel* panel = page.gradientPanel();
        page.tabs()->setCurrentWidget(panel);
        QSignalSpy shown(panel, &GradientPanel::familyShown);
        panel->familyBox()->setCurrentIndex(1); // gamma on a Poisson rate
        QVERIFY(shown.wait(60000));
        QVERIFY(!panel->familyRows().empty());
        for (int e = 0; e < 2; ++e) {
            const QLineSeries* shape = panel->variance(e, false);
            QCOMPARE(shape->count(), 3);
            const double ratio = shape->at(0).y() / shape->at(2).y(); // L = 1 against 100
            QVERIFY2(ratio > 40.0 && ratio < 250.0, qPrintable(QString::number(ratio)));
            QCOMPARE(panel->variance(e, true)->count(), 3); // the log-rate block
        }
        const double quieter = panel->variance(1, false)->at(1).y() /
                               panel->variance(0, false)->at(1).y(); // score / reparam, L = 10
        QVERIFY2(quieter > 1000.0, qPrintable(QString::number(quieter)));
        panel->familyBox()->setCurrentIndex(2); // exponential, changed before it is shown:
        panel->familyBox()->setCurrentIndex(3); // Bernoulli, the score function only
        QTRY_VERIFY_WITH_TIMEOUT(!panel->pending() && !panel->familyRows().empty() &&
                                     panel->familyRows().front().block == "logits",
                                 60000);
        QCOMPARE(panel->variance(0, false)->count(), 0);
        QCOMPARE(panel->variance(1, false)->count(), 3);
        QCOMPARE(panel->variance(2, false)->count(), 2); // the baseline needs L >= 2
        QVERIFY(panel->variance(2, false)->at(0).y() <
                panel->variance(1, false)->at(1).y() / 100.0);
    }

    void sessionsKeepTheTabTheGpFieldsAndTheFamily() {
        const QString path = m_dir.filePath("lessons.json");
        {
            PosteriorPage page;
            page.tabs()->setCurrentWidget(page.gpPanel());
            page.gpPanel()->unitsBox()->setCurrentIndex(1);
            page.gpPanel()->hiddenBox()->setCurrentIndex(
                page.gpPanel()->hiddenBox()->findData(100));
            page.gradientPanel()->setFamily(2);
            QTRY_VERIFY(page.latestSnapshot() != nullptr);
            QVERIFY2(page.saveSession(path), qPrintable(page.lastError()));
        }
        PosteriorPage reopened;
        QVERIFY2(reopened.openSession(path), qPrintable(reopened.lastError()));
        QCOMPARE(reopened.tabs()->currentWidget(), static_cast<QWidget*>(reopened.gpPanel()));
        QCOMPARE(reopened.gpPanel()->config().units, fa::GpKernel::NnRelu);
        QCOMPARE(reopened.gpPanel()->config().hidden, 100);
        QCOMPARE(reopened.gradientPanel()->family(), 2);

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray json = file.readAll();
        json.replace("\"tab\": \"gp\"", "\"tab\": \"gaussian processes\"");
        try {
            fa::io::posteriorSessionFromJson(json);
            QFAIL("a tab that does not exist was accepted");
        } catch (const fa::io::SessionError& e) {
            QVERIFY2(QString(e.what()).contains("'view.tab' must be one of live, compare"),
                     e.what());
        }
        json.replace("\"tab\": \"gaussian processes\"", "\"tab\": \"gp\"");
        json.replace("\"gpHidden\": 100", "\"gpHidden\": 50");
        QVERIFY_THROWS_EXCEPTION(fa::io::SessionError, fa::io::posteriorSessionFromJson(json));
    }
};

QTEST_MAIN(TestPosteriorLessons)
#include "test_posterior_lessons.moc"
