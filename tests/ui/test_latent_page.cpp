// The latent lab in the window, headless: the drawn ellipse is the 1-sd contour of batch EM's
// dense marginal (refitted here), the page's run is trial 0 of the CLI's experiment, a session
// replays the same curves, refused values keep the run, the mixture colours its points, a CSV
// with empty cells switches to PPCA by EM, and PPCA's prior box and hidden entries (the fill's
// view, the imputation table equal to the CLI's).
#include "core/io/RegressionCsv.h"
#include "core/latent/FaBatchEm.h"
#include "core/latent/LatentCsv.h"
#include "core/latent/LatentExperiment.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/latent/LatentPage.h"
#include "ui/latent/LatentViews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtTest>
#include <sstream>

class TestLatentPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static bool runTo(LatentPage& page, long iteration) {
        QSignalSpy spy(&page, &LabPage::reached);
        page.runUntil(iteration);
        return spy.wait(60000);
    }
    static QStringList readLines(const QString& path, bool dropSeconds) {
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        QStringList out;
        for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
            QStringList cells = line.split(',');
            if (dropSeconds)
                cells.removeAt(11);
            out << cells.join(',');
        }
        return out;
    }

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    // Columns 1 and 3 in view: every point of batch EM's inner ellipse lies at Mahalanobis
    // distance 1 from the mean under the 2 x 2 block of its dense covariance.
    void drawnEllipseIsTheDenseMarginal() {
        LatentPage page;
        QVERIFY(runTo(page, 12));
        // The view combos are filled from the snapshot: choose columns x1 and x3 there.
        QList<QComboBox*> combos;
        for (QComboBox* box : page.findChildren<QComboBox*>())
            if (box->count() > 0 && box->itemText(0).startsWith("principal axis"))
                combos << box;
        QCOMPARE(combos.size(), 2);
        combos[0]->setCurrentIndex(1); // x1
        combos[1]->setCurrentIndex(3); // x3
        QTRY_VERIFY(page.latestSnapshot() && page.latestSnapshot()->xLabel == "x1");
        // The chart redraws at most 30 times a second: wait until it has drawn the columns'
        // frame (its axis titles), not only until the snapshot holds it.
        const auto titleOf = [&](Qt::Orientation o) {
            return page.dataView()->chart()->axes(o).first()->titleText();
        };
        QTRY_COMPARE(titleOf(Qt::Horizontal), QString("x1"));
        QTRY_COMPARE(titleOf(Qt::Vertical), QString("x3"));
        QCOMPARE(page.dataView()->line("em/1")->count(), 97);
        const QLineSeries* ring = page.dataView()->line("em/1");

        const fa::LatentLiveConfig cfg = page.config();
        fa::LatentDataSpec spec = cfg.data;
        const fa::LatentData data = fa::makeLatentData(spec, {});
        fa::FaEmOptions o;
        o.latent = 2;
        fa::FaBatchEm em(data.train, o);
        for (long t = 0; t < page.latestSnapshot()->iteration; ++t)
            em.iterate();
        const fa::Matrix C = em.model().denseCovariance();
        Eigen::Matrix2d block;
        block << C(0, 0), C(0, 2), C(2, 0), C(2, 2);
        const Eigen::Vector2d mean(em.model().c(0), em.model().c(2));
        const Eigen::Matrix2d inv = block.inverse();
        for (int i = 0; i < ring->count(); i += 8) {
            const Eigen::Vector2d p(ring->at(i).x(), ring->at(i).y());
            QVERIFY(std::abs((p - mean).dot(inv * (p - mean)) - 1.0) < 1e-9);
        }
    }

    // The page's run is trial 0 of `faexplorer-cli latent` with the same settings: the exported
    // rows at the CLI's checkpoints agree cell by cell (seconds aside).
    void pageRunIsTrialZeroOfTheCli() {
        LatentPage page;
        QVERIFY(runTo(page, 20));
        const QString csv = m_dir.filePath("page.csv");
        QVERIFY(page.exportCurves(csv));
        const QStringList pageRows = readLines(csv, true);

        fa::LatentConfig cli;
        const fa::LatentLiveConfig c = page.config();
        cli.data = c.data;
        cli.methods = c.methods;
        cli.fit = c.fit;
        cli.seed = c.data.modelSeed;
        cli.iterations = 20;
        std::vector<fa::LatentRow> rows = fa::runLatent(cli);
        QCOMPARE(rows.size(), std::size_t(3 * 6)); // 1, 2, 3, 5, 10 and 20 per method
        int matched = 0;
        for (fa::LatentRow& r : rows) {
            r.seconds = 0.0;
            if (r.status == "not-converged") // the CLI's last row; the live run goes on
                r.status = "ok";
            std::ostringstream out;
            fa::io::writeLatentCsv(out, {r});
            QStringList cells = QString::fromStdString(out.str()).split('\n')[1].split(',');
            cells.removeAt(11);
            matched += pageRows.contains(cells.join(','));
        }
        QCOMPARE(matched, int(rows.size()));
    }

    void sessionReplaysTheSameCurves() {
        const QString session = m_dir.filePath("latent.json");
        const QString a = m_dir.filePath("a.csv"), b = m_dir.filePath("b.csv");
        {
            LatentPage page;
            page.methodBox(fa::LatentMethod::OnlineSga)->setChecked(true);
            QVERIFY(runTo(page, 15));
            QVERIFY(page.saveSession(session));
            QVERIFY(page.exportCurves(a));
        }
        LatentPage again;
        QSignalSpy reached(&again, &LabPage::reached);
        QVERIFY(again.openSession(session));
        QVERIFY(reached.wait(60000));
        QVERIFY(again.methodBox(fa::LatentMethod::OnlineSga)->isChecked());
        QVERIFY(again.exportCurves(b));
        QCOMPARE(readLines(b, true), readLines(a, true));
        QCOMPARE(readLines(a, true).size(), 1 + 4 * 16);
    }

    void refusedValuesKeepTheRun() {
        LatentPage page;
        QVERIFY(runTo(page, 3));
        QSignalSpy errors(&page, &LabPage::runError);
        fa::LatentLiveConfig c = page.config();
        c.fit.latent = 10; // K = D
        page.setConfig(c);
        page.reset();
        QVERIFY(errors.wait(10000));
        QVERIFY2(errors.first().first().toString().contains("K = 10 must be below the number "
                                                            "of columns, 10"),
                 qPrintable(errors.first().first().toString()));
        QCOMPARE(page.latestSnapshot()->iteration, 3L);
        QCOMPARE(page.config().fit.latent, 2); // the field shows the run that goes on
    }

    // Two columns in view, then another data set: the view goes back to the principal axes
    // (the columns may not exist there) and the new run starts.
    void anotherDataSetResetsTheView() {
        LatentPage page;
        QVERIFY(runTo(page, 2));
        QList<QComboBox*> combos;
        QComboBox* dataset = nullptr;
        for (QComboBox* box : page.findChildren<QComboBox*>()) {
            if (box->count() > 0 && box->itemText(0).startsWith("principal axis"))
                combos << box;
            if (box->findData("yacht") >= 0)
                dataset = box;
        }
        QVERIFY(combos.size() == 2 && dataset);
        combos[0]->setCurrentIndex(9); // x9: the other axis follows to x10
        QTRY_VERIFY(page.latestSnapshot()->xLabel == "x9");
        QCOMPARE(combos[1]->currentIndex(), 10);
        QSignalSpy errors(&page, &LabPage::runError);
        dataset->setCurrentIndex(dataset->findData("yacht"));
        QTRY_VERIFY(page.latestSnapshot()->dataset == "yacht");
        QCOMPARE(errors.count(), 0);
        QCOMPARE(page.latestSnapshot()->xLabel, std::string("principal axis 1"));
    }

    // The mixture's sizes (K = 1, lines in 3-D) give way to the ones FA had when it returns;
    // the series of methods that stopped running leave the legend.
    void modelSwitchesKeepSizesAndLegends() {
        LatentPage page;
        QVERIFY(runTo(page, 2));
        QComboBox* model = nullptr;
        for (QComboBox* box : page.findChildren<QComboBox*>())
            if (box->findData("mppca") >= 0)
                model = box;
        QVERIFY(model);
        model->setCurrentIndex(model->findData("mppca"));
        QCOMPARE(page.config().fit.latent, 1);
        QCOMPARE(page.config().data.synthetic.dim, 3);
        QTRY_VERIFY(page.latestSnapshot()->model == "mppca");
        QTRY_VERIFY(!page.dataView()->line("gibbs/1")->isVisible());
        model->setCurrentIndex(model->findData("fa"));
        QCOMPARE(page.config().fit.latent, 2);
        QCOMPARE(page.config().data.synthetic.dim, 10);
        QCOMPARE(page.config().data.synthetic.trueLatent, 2);
        QTRY_VERIFY(page.latestSnapshot()->model == "fa");
        QTRY_VERIFY(page.dataView()->line("gibbs/1")->isVisible());
        QVERIFY(!page.dataView()->line("comp0")->isVisible());
    }

    // The zoom shows the last 10 iterations; "iterations" changes the run's length live.
    void zoomAndLiveLength() {
        LatentPage page;
        QVERIFY(runTo(page, 30));
        QCheckBox* zoom = nullptr;
        for (QCheckBox* box : page.findChildren<QCheckBox*>())
            if (box->text().contains("last 10"))
                zoom = box;
        QVERIFY(zoom);
        zoom->setChecked(true);
        auto* axis = qobject_cast<QValueAxis*>(
            page.loglikView()->chart()->axes(Qt::Horizontal).constFirst());
        QVERIFY(axis);
        QCOMPARE(axis->min(), 20.0);
        zoom->setChecked(false);
        QCOMPARE(axis->min(), 0.0);
        QSpinBox* length = nullptr;
        for (QSpinBox* box : page.findChildren<QSpinBox*>())
            if (box->value() == 500)
                length = box;
        QVERIFY(length);
        length->setValue(40);
        QTRY_COMPARE(page.latestSnapshot()->length, 40L);
        QCOMPARE(page.latestSnapshot()->iteration, 30L); // the run went on, not reset
    }

    void mixtureColoursPointsByComponent() {
        LatentPage page;
        fa::LatentLiveConfig c = page.config();
        c.data.model = fa::LatentModel::Mppca;
        c.methods = {fa::LatentMethod::Em};
        c.fit.latent = 1;
        c.fit.components = 3;
        c.data.synthetic.dim = 3;
        c.data.synthetic.trueLatent = 1;
        page.setConfig(c);
        page.reset();
        QVERIFY(!page.methodBox(fa::LatentMethod::Gibbs)->isEnabled());
        QVERIFY(runTo(page, 10));
        QTRY_VERIFY(page.dataView()->line("comp2") != nullptr);
        int coloured = 0;
        for (int label = 0; label < 3; ++label)
            if (const auto* s = page.dataView()->scatter("points/" + std::to_string(label)))
                coloured += s->count();
        QCOMPARE(coloured, 800);
    }

    void csvWithEmptyCellsSwitchesToPpcaEm() {
        const QString path = m_dir.filePath("gaps.csv");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,c\n");
        for (int i = 0; i < 50; ++i)
            f.write(QString("%1,%2,%3\n")
                        .arg(std::sin(0.3 * i))
                        .arg(i % 9 == 4 ? QString() : QString::number(std::cos(0.7 * i)))
                        .arg(0.1 * i)
                        .toUtf8());
        f.close();
        LatentPage page;
        QVERIFY(page.openCsv(path));
        const fa::LatentLiveConfig c = page.config();
        QCOMPARE(c.data.model, fa::LatentModel::Ppca);
        QVERIFY(c.data.allowMissing);
        QCOMPARE(c.methods.size(), std::size_t(1));
        QVERIFY(runTo(page, 5));
        QCOMPARE(page.latestSnapshot()->dataset, std::string("gaps"));
        QVERIFY(std::isfinite(page.latestSnapshot()->methods.front().curve.back().loglik));
    }

    // PPCA: the prior box offers maximum likelihood and the MAP (α's field only with the MAP);
    // with a hidden share the traces' place shows the fill against the hidden values, and the
    // page's imputation table is trial 0 of the CLI's, cell for cell.
    void ppcaPriorAndHiddenEntries() {
        LatentPage page;
        QComboBox *model = nullptr, *prior = nullptr;
        for (QComboBox* box : page.findChildren<QComboBox*>()) {
            if (box->findData("mppca") >= 0)
                model = box;
            if (box->findData("jeffreys") >= 0)
                prior = box;
        }
        QVERIFY(model && prior);
        model->setCurrentIndex(model->findData("ppca"));
        QCOMPARE(prior->count(), 2);
        QVERIFY(prior->findData("independent") == 1 && prior->findData("jeffreys") < 0);
        prior->setCurrentIndex(1);
        QCOMPARE(page.config().fit.prior, fa::FaPrior::Independent);
        fa::LatentLiveConfig c = page.config();
        c.data.dataset = "boston";
        c.data.hideFraction = 0.3;
        c.methods = {fa::LatentMethod::Em};
        c.fit.latent = 3;
        c.fit.alpha = 20.0;
        c.loader = fa::io::tableLoader();
        page.setConfig(c);
        QCOMPARE(page.config().fit.prior, fa::FaPrior::Independent);
        QCOMPARE(page.config().fit.alpha, 20.0);
        page.reset();
        QVERIFY(runTo(page, 10));
        QTRY_COMPARE(page.charts()[2].first, QString("latent-imputation"));
        const auto& im = page.latestSnapshot()->imputation;
        QVERIFY(im.present && im.hidden == 1701);
        QTRY_VERIFY(
            page.imputationView()->chart()->title().contains(QString::number(im.rmse, 'f', 3)));
        const QString table = m_dir.filePath("imputation.csv");
        QVERIFY(page.exportTable("imputation", table));
        QVERIFY(!page.exportTable("nothing", table));

        fa::LatentConfig cli;
        cli.data = page.config().data;
        cli.methods = c.methods;
        cli.fit = page.config().fit;
        cli.seed = cli.data.modelSeed;
        cli.iterations = 10;
        cli.loader = fa::io::tableLoader();
        std::ostringstream out;
        fa::io::writeImputationCsv(out, fa::runLatent(cli));
        const QStringList cliRows =
            QString::fromStdString(out.str()).split('\n', Qt::SkipEmptyParts);
        const QStringList pageRows = readLines(table, false);
        QCOMPARE(cliRows.size(), 1 + 5); // 1, 2, 3, 5, 10
        for (const QString& row : cliRows)
            QVERIFY2(pageRows.contains(row), qPrintable(row));
    }
};

QTEST_MAIN(TestLatentPage)
#include "test_latent_page.moc"
