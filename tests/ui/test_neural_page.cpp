// The neural lab in the window, headless: live curves agree with the plotted predictive (RMSE
// recomputed from the drawn means and truth), the truth is the split's test targets, the splits
// table fills with the report's figures beside ours and exports, cancel keeps finished rows.
#include "core/data/RegressionData.h"
#include "core/io/RegressionCsv.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/neural/NeuralPage.h"
#include "ui/neural/NeuralSplitsPanel.h"
#include "ui/shell/MainWindow.h"

#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtTest>

class TestNeuralPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    static bool runTo(NeuralPage& page, long epoch) {
        QSignalSpy spy(&page, &LabPage::reached);
        page.runUntil(epoch);
        return spy.wait(60000);
    }

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void liveCurvesMatchThePlottedPredictive() {
        NeuralPage page; // defaults: Yacht, 1 x 50, VIFA and VIPPCA with the Gaussian prior
        QVERIFY(runTo(page, 4));
        QCOMPARE(page.latestSnapshot()->epoch, 4L);
        // The truth points are the 31 test targets of the 90/10 split, ascending, each a Yacht
        // target.
        const fa::RegressionData yacht =
            fa::io::loadBuiltinDataset("yacht", fa::io::defaultDataDirectory());
        const QList<QPointF> truth = page.truthSeries()->points();
        QCOMPARE(truth.size(), 31);
        for (int i = 0; i < truth.size(); ++i) {
            QVERIFY((yacht.y.array() - truth[i].y()).abs().minCoeff() < 1e-12);
            if (i > 0)
                QVERIFY(truth[i].y() >= truth[i - 1].y());
        }
        for (const QString method : {"vifa-gauss", "vippca-gauss"}) {
            const QLineSeries* rmse = page.curve(method, "test-rmse");
            const QLineSeries* mean = page.predictiveMean(method);
            QVERIFY(rmse && mean);
            QCOMPARE(rmse->count(), 5); // epochs 0..4
            double sq = 0.0;
            for (int i = 0; i < truth.size(); ++i)
                sq += (mean->at(i).y() - truth[i].y()) * (mean->at(i).y() - truth[i].y());
            QVERIFY2(std::abs(rmse->at(4).y() - std::sqrt(sq / truth.size())) <
                         1e-9 * rmse->at(4).y(),
                     qPrintable(method));
            QVERIFY(page.curve(method, "test-nmll")->at(4).y() <
                    page.curve(method, "test-nmll")->at(0).y());
        }
        // Ctrl+E mid-run writes the curves as drawn (it refused until a split ended).
        const QString csv = m_dir.filePath("live-curves.csv");
        QVERIFY2(page.exportCurves(csv), qPrintable(page.lastError()));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines[0], QString("dataset,method,hidden,split,epoch,train_nmll,train_rmse,"
                                   "test_nmll,test_rmse,test_coverage_95"));
        QCOMPARE(lines.size(), 1 + 2 * 5); // two methods, epochs 0..4
        for (const QString& line : lines.mid(1)) {
            // yacht,vifa-gauss,"50",0,3,… : the quoted hidden sizes hold no comma here
            const QStringList cells = QString(line).remove('"').split(',');
            QCOMPARE(cells.size(), 10);
            QCOMPARE(cells[0], QString("yacht"));
            const int epoch = cells[4].toInt();
            for (const auto& [column, curve] : {std::pair{6, "train-rmse"},
                                                {7, "test-nmll"},
                                                {8, "test-rmse"},
                                                {9, "coverage"}}) {
                const QLineSeries* drawn = page.curve(cells[1], curve);
                QVERIFY2(drawn, qPrintable(cells[1] + " " + curve));
                QCOMPARE(cells[column].toDouble(), drawn->at(epoch).y());
            }
        }
    }

    void splitsTableFillsBesideTheReport() {
        NeuralPage page;
        page.setMethods({fa::NeuralMethod::VifaGauss});
        page.setSplitSettings(2, 2, 2, 3);
        QSignalSpy done(&page, &NeuralPage::splitsDone);
        page.runSplits();
        QVERIFY(done.wait(120000));
        QCOMPARE(page.splitRows().size(), std::size_t(2));
        QTableWidget* t = page.table();
        QCOMPARE(t->rowCount(), 1);
        QCOMPARE(t->item(0, 0)->text(), QString("yacht"));
        QCOMPARE(t->item(0, 2)->text(), QString("vifa-gauss"));
        QCOMPARE(t->item(0, 3)->text(), QString("2"));
        QCOMPARE(t->item(0, 6)->text(), QString("2.36 ± 0.06")); // report Table 2
        const double mean = (page.splitRows()[0].nmll + page.splitRows()[1].nmll) / 2;
        QVERIFY(t->item(0, 4)->text().startsWith(QString::number(mean, 'f', 2)));
        const QString csv = m_dir.filePath("splits.csv");
        QVERIFY(page.exportRows(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(),
                 QString("dataset,method,hidden,split,nmll,rmse,seconds,status,coverage_95"));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[1].startsWith("yacht,vifa-gauss,\"50\",0,"));
    }

    // The search ranges' fields reach the search: with point ranges one search trial and three
    // give the same test NMLL (not so the defaults). A range upside down is refused.
    void splitsTableTakesTheSearchRanges() {
        NeuralPage page;
        page.setMethods({fa::NeuralMethod::VifaGauss});
        const auto nmllWith = [&](int searchTrials) {
            page.setSplitSettings(1, searchTrials, 2, 3);
            QSignalSpy done(&page, &NeuralPage::splitsDone);
            page.runSplits();
            return done.wait(120000) && page.splitRows().size() == 1 ? page.splitRows().front().nmll
                                                                     : std::nan("");
        };
        const double wide1 = nmllWith(1), wide3 = nmllWith(3);
        QVERIFY2(wide1 != wide3, qPrintable(QString::number(wide1)));
        const auto field = [&](const char* flag) { return page.findChild<QLineEdit*>(flag); };
        QVERIFY(field("prior-range") && field("noise-range") && field("sigma-range"));
        QCOMPARE(field("prior-range")->text(), QString("0.01,10")); // the CLI's default
        field("prior-range")->setText("2, 2");
        field("noise-range")->setText("2.5e1,25");
        const double point1 = nmllWith(1), point3 = nmllWith(3);
        QVERIFY(std::isfinite(point1) && point1 != wide1);
        QCOMPARE(point1, point3);
        field("prior-range")->setText("10,1");
        QSignalSpy said(&page, &NeuralPage::message), done(&page, &NeuralPage::splitsDone);
        page.runSplits();
        QVERIFY(said.count() >= 1);
        const QString text = said.last().first().toString();
        QVERIFY2(text.contains("α range must be LO,HI") && text.contains("'10,1'"),
                 qPrintable(text));
        QVERIFY(!done.wait(300)); // nothing ran
    }

    // The in-between set (one input): the predictive is drawn over the snapshot's grid of x,
    // with all 100 rows; with a method that collects iterates the trajectory chart appears,
    // its points are the plane's, and every point of the fit's drawn ellipse p satisfies
    // p^T Sigma^-1 p = 5.991 (the chi-square(2) 95 % point) for the plane's Sigma.
    void inBetweenAndTrajectoryAreDrawn() {
        NeuralPage page;
        fa::NeuralLiveConfig c = page.config();
        c.dataset = "in-between";
        c.methods.clear();
        c.iterateMethods = {fa::IterateMethod::Map};
        c.fit.hidden = {8};
        page.setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 2));
        QVERIFY(page.trajectoryChart()->isHidden()); // MAP collects nothing
        c.iterateMethods = {fa::IterateMethod::Map, fa::IterateMethod::SwaFaEm};
        c.iterate.swaStart = 2;
        c.iterate.rank = 2;
        page.setConfig(c);
        page.reset();
        QVERIFY(runTo(page, 60)); // 2 iterates an epoch: past the fitter's warm-up of 100
        const auto s = page.latestSnapshot();
        QVERIFY(s);
        QCOMPARE(s->dataset, std::string("in-between"));
        QCOMPARE(s->gridX.size(), Eigen::Index(201));
        const QLineSeries* mean = page.predictiveMean("swa-fa-em");
        QCOMPARE(mean->count(), 201);
        for (int i = 0; i < 201; i += 50)
            QCOMPARE(mean->at(i).x(), s->gridX(i));
        QCOMPARE(page.truthSeries()->count(), 100);
        QVERIFY(!page.trajectoryChart()->isHidden());
        QVERIFY(s->trajectory && !s->trajectory->planeOfSwag);
        const fa::TrajectoryPlane& plane = s->trajectory->plane;
        QCOMPARE(page.trajectoryPoints()->count(), static_cast<int>(plane.points.rows()));
        QCOMPARE(page.trajectoryPoints()->at(3).y(), plane.points(3, 1));
        const Eigen::Matrix2d inverse = plane.fit.inverse();
        const double kChi2Two95 = -2.0 * std::log(0.05); // chi-square(2)'s 95 % point, 5.9915
        QVERIFY(page.fitEllipse()->count() > 20);
        for (const QPointF& p : page.fitEllipse()->points()) {
            const Eigen::Vector2d v(p.x(), p.y());
            QVERIFY2(std::abs(v.dot(inverse * v) - kChi2Two95) < 1e-6,
                     qPrintable(QString::number(v.dot(inverse * v))));
        }
        QVERIFY(page.swagEllipse()->isVisible());
    }

    // The posteriors from SGD iterates checked in the window run in the splits table too, with
    // the window's settings; an SWA start past the table's epochs is refused before it starts.
    void splitsTableRunsTheIterateMethods() {
        NeuralPage page;
        fa::NeuralLiveConfig c = page.config();
        c.methods.clear();
        c.iterateMethods = {fa::IterateMethod::Map, fa::IterateMethod::Swag};
        c.iterate.swaStart = 5;
        page.setConfig(c);
        QCOMPARE(page.config().iterateMethods, c.iterateMethods);
        page.setSplitSettings(2, 2, 2, 3);
        QSignalSpy said(&page, &LabPage::message);
        page.runSplits();
        QVERIFY(!said.isEmpty());
        QVERIFY2(said.last().at(0).toString().contains("SWA start (5) must be below the table's "
                                                       "epochs (3)"),
                 qPrintable(said.last().at(0).toString()));
        QVERIFY(page.splitRows().empty());
        c.iterate.swaStart = 1;
        page.setConfig(c);
        QSignalSpy done(&page, &NeuralPage::splitsDone);
        page.runSplits();
        QVERIFY(done.wait(120000));
        QCOMPARE(page.splitRows().size(), std::size_t(4));
        QTableWidget* t = page.table();
        QCOMPARE(t->rowCount(), 2);
        QCOMPARE(t->item(0, 2)->text(), QString("map"));
        QCOMPARE(t->item(1, 2)->text(), QString("swag"));
        QCOMPARE(t->item(1, 3)->text(), QString("2"));
        for (const fa::NeuralRow& r : page.splitRows())
            QCOMPARE(r.status, std::string("ok"));
    }

    void cancelKeepsFinishedRows() {
        // Cancel the moment the first row arrives (not after a guessed delay): that row and any
        // other finished one stay, unchanged; the unfinished splits are not run.
        NeuralPage page;
        page.setSplitSettings(20, 2, 2, 5); // 20 splits x 2 methods = 40 rows if not cancelled
        auto* panel = page.findChild<NeuralSplitsPanel*>();
        QVERIFY(panel);
        std::vector<fa::NeuralRow> atCancel;
        connect(panel, &NeuralSplitsPanel::rowAdded, &page, [&](int rows) {
            if (rows == 1) {
                atCancel = page.splitRows();
                page.cancelSplits();
            }
        });
        QSignalSpy done(&page, &NeuralPage::splitsDone);
        page.runSplits();
        QVERIFY(done.wait(120000));
        const auto& kept = page.splitRows();
        QCOMPARE(atCancel.size(), std::size_t(1));
        QVERIFY2(kept.size() >= 1 && kept.size() < 40, qPrintable(QString::number(kept.size())));
        QCOMPARE(kept[0].method, atCancel[0].method);
        QCOMPARE(kept[0].split, atCancel[0].split);
        QCOMPARE(kept[0].nmll, atCancel[0].nmll);
        for (const auto& r : kept) {
            QVERIFY(std::isfinite(r.nmll) && r.rmse > 0.0);
            QCOMPARE(r.status, std::string("ok"));
        }
        // The table shows the kept rows, and they export.
        QVERIFY(page.exportRows(m_dir.filePath("cancelled.csv")));
    }

    void badCsvIsRefused() {
        NeuralPage page;
        const QString bad = m_dir.filePath("bad.csv");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,y\n1,2\n,3\n");
        f.close();
        QVERIFY(!page.openCsv(bad));
        QVERIFY2(page.lastError().contains("row 3") && page.lastError().contains("'a'"),
                 qPrintable(page.lastError()));
    }

    void windowRoutesToTheNeuralLab() {
        MainWindow w;
        w.setCurrentLab("neural");
        QVERIFY(w.currentLab() == "neural");
        QSignalSpy reached(w.page<NeuralPage>(), &LabPage::reached);
        w.page<NeuralPage>()->runUntil(2);
        QVERIFY(reached.wait(30000));
        QTemporaryDir charts;
        // Five charts and the page, PNG and SVG; the trajectory's only with a method that
        // collects iterates (none by default).
        QCOMPARE(w.exportCharts(charts.path()).size(), 12);
    }

    void aSessionReplaysTheSameCurves() {
        const QString path = m_dir.filePath("neural.json");
        std::vector<QPointF> before;
        {
            MainWindow w;
            w.setCurrentLab("neural");
            auto* page = w.page<NeuralPage>();
            fa::NeuralLiveConfig c = page->config();
            c.dataset = "energy";
            c.methods = {fa::NeuralMethod::VifaLaplace, fa::NeuralMethod::VippcaGauss};
            c.fit.latent = 2;
            c.fit.learningRate = 0.005;
            c.hyper.priorPrecision = 3.0;
            c.split = 2;
            c.seed = 11;
            page->setConfig(c);
            page->reset();
            QVERIFY(runTo(*page, 3));
            QVERIFY2(w.saveSession(path), qPrintable(w.lastError()));
            const auto points = page->curve("vifa-laplace", "test-nmll")->points();
            before.assign(points.begin(), points.end());
        }
        MainWindow w; // opened from another lab: the session says which lab it belongs to
        w.setCurrentLab("explorer");
        QSignalSpy reached(w.page<NeuralPage>(), &LabPage::reached);
        QVERIFY2(w.openSession(path), qPrintable(w.lastError()));
        QCOMPARE(w.currentLab(), QString("neural"));
        QVERIFY(reached.wait(60000));
        auto* page = w.page<NeuralPage>();
        const fa::NeuralLiveConfig c = page->config();
        QCOMPARE(QString::fromStdString(c.dataset), QString("energy"));
        QCOMPARE(c.fit.latent, 2);
        QCOMPARE(c.fit.learningRate, 0.005);
        QCOMPARE(c.hyper.priorPrecision, 3.0);
        QCOMPARE(c.split, 2);
        QCOMPARE(c.seed, std::uint64_t{11});
        QCOMPARE(page->latestSnapshot()->epoch, 3L);
        const auto points = page->curve("vifa-laplace", "test-nmll")->points();
        QCOMPARE(std::vector<QPointF>(points.begin(), points.end()), before); // the same numbers
        QVERIFY(page->curve("vifa-gauss", "test-nmll") == nullptr ||
                page->curve("vifa-gauss", "test-nmll")->count() == 0);
        // A posterior session is refused here with the reason, and nothing changes.
        QFile bad(m_dir.filePath("bad.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"format": "faexplorer-session", "version": 1, "mode": "neural",
                      "data": {"dataset": "yacht", "split": 0, "seed": 0},
                      "run": {"methods": ["vifa-gauss"], "hidden": [0], "latent": 1,
                              "batch": 10, "samples": 4, "learningRate": 0.01},
                      "hyper": {"priorPrecision": 1, "noisePrecision": 25, "sigma": 0.05}})");
        bad.close();
        QVERIFY(!w.openSession(bad.fileName()));
        QVERIFY2(w.lastError().contains("run.hidden"), qPrintable(w.lastError()));
        QCOMPARE(page->config().fit.latent, 2);
        // A seed past 2^31 is held by the seed field as it is (the fields' ranges are the
        // sessions'); one past 2^53 - 1, which a session cannot hold exactly, is refused.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray json = file.readAll();
        file.close();
        QVERIFY(json.contains("\"seed\": \"11\""));
        json.replace("\"seed\": \"11\"", "\"seed\": \"4000000000\"");
        QFile big(m_dir.filePath("big-seed.json"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(json);
        big.close();
        QVERIFY2(w.openSession(big.fileName()), qPrintable(w.lastError()));
        QCOMPARE(page->config().seed, std::uint64_t{4000000000});
        json.replace("\"seed\": \"4000000000\"", "\"seed\": \"9007199254740992\"");
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(json);
        big.close();
        QVERIFY(!w.openSession(big.fileName()));
        QVERIFY2(w.lastError().contains("data.seed"), qPrintable(w.lastError()));
        QCOMPARE(page->config().seed, std::uint64_t{4000000000});
    }

    void theSplitsSettingsStayCompact() {
        MainWindow w;
        w.resize(1280, 800);
        w.setCurrentLab("neural");
        w.show();
        auto* panel = w.findChild<NeuralSplitsPanel*>();
        QVERIFY(panel);
        auto* tabs = qobject_cast<QTabWidget*>(panel->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(panel);
        QTest::qWait(50);
        const auto boxes = panel->findChildren<QSpinBox*>();
        QVERIFY(boxes.size() >= 4);
        for (const QSpinBox* box : boxes)
            QVERIFY2(box->width() < 300, qPrintable(QString::number(box->width())));
    }

    void settingsAreRememberedBetweenLaunches() {
        QSettings().clear();
        {
            MainWindow w;
            auto* page = w.page<NeuralPage>();
            fa::NeuralLiveConfig c = page->config();
            c.dataset = "concrete";
            c.fit.hidden = {120, 30}; // a shape the CLI takes, not one of the two presets
            c.hyper.sigma = 0.02;
            page->setConfig(c);
            w.close(); // saves the settings, as quitting does
        }
        MainWindow again;
        const fa::NeuralLiveConfig c = again.page<NeuralPage>()->config();
        QCOMPARE(QString::fromStdString(c.dataset), QString("concrete"));
        QCOMPARE(c.fit.hidden, (std::vector<int>{120, 30})); // kept, not the nearest preset
        QCOMPARE(c.hyper.sigma, 0.02);
        QSettings().clear();
    }
};

QTEST_MAIN(TestNeuralPage)
#include "test_neural_page.moc"
