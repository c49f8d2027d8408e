// Regression data: the CSV loader on good and malformed files (each refusal names the row and
// column), the bundled UCI sets against their README spot checks, standardisation and splits
// against hand computations, and the synthetic recipe's moments.
#include "core/data/LatentData.h"
#include "core/data/RegressionData.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"

#include <QtTest>

#include <fstream>

#include <sys/stat.h>

using namespace fa;
using namespace fa::io;

class TestRegressionData : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::string write(const char* name, const std::string& text) {
        const std::string path = m_dir.filePath(name).toStdString();
        std::ofstream(path) << text;
        return path;
    }
    static QString refusal(const std::string& path, const std::string& target = {}) {
        try {
            loadRegressionCsv(path, target);
        } catch (const std::invalid_argument& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    }

  private slots:
    // One rule for columns in every lab (issue 25: the latent and nonlinear labs refused columns
    // whose spread was 1e-13, 1e-300, subnormal or 1e200 that the regression labs rescale): a
    // column is refused as constant only when its values are all equal; any other is z-scored.
    void everyLabStandardisesColumnsByOneRule() {
        const Eigen::Index n = 40;
        NumericTable t;
        t.name = "scales";
        t.names = {"plain", "tiny-spread", "tiny", "subnormal", "huge"};
        t.values.resize(n, 5);
        for (Eigen::Index i = 0; i < n; ++i) {
            const double k = static_cast<double>((i * 7) % 11) - 5.0; // mean 0 over 11s
            t.values.row(i) << k, 1.0 + 1e-13 * k, 1e-300 * k, 1e-310 * (k + 5.0), 1e200 * k;
        }
        const TableLoader load = [&](const std::string&, bool, const ImageQuery&) { return t; };
        LatentDataSpec spec;
        spec.dataset = "scales.csv";
        spec.testFraction = 0.0;
        const LatentData d = makeLatentData(spec, load);
        for (Eigen::Index j = 0; j < 5; ++j) {
            const fa::Vector c = d.train.col(j);
            const double mean = c.mean(), sd = std::sqrt((c.array() - mean).square().mean());
            // 1 + 1e-13 k is stored to ulp(1) = 2.2e-16: 1e-3 of its spread.
            QVERIFY2(std::abs(mean) < 1e-3 && std::abs(sd - 1.0) < 1e-3,
                     qPrintable(QString("%1: mean %2, sd %3")
                                    .arg(QString::fromStdString(t.names[std::size_t(j)]))
                                    .arg(mean)
                                    .arg(sd)));
        }
        t.values.col(2).setConstant(1e-300); // all equal: constant, refused by name
        try {
            makeLatentData(spec, load);
            QFAIL("a constant column was taken");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("'tiny' is constant") != std::string::npos);
        }
        QVERIFY(columnScale(t.values.col(0)).scale > 0 && !columnScale(t.values.col(0)).constant);
    }

    // A command's trials read their data once (issue 25: latent re-read the CSV for every
    // trial, so a file replaced mid-run mixed data sets and one deleted lost finished trials).
    void aLoaderReadsEachDataSetOnce() {
        const std::string path = m_dir.filePath("once.csv").toStdString();
        std::ofstream(path) << "a,b\n1,2\n3,5\n4,4\n";
        const TableLoader load = io::readOnce(io::tableLoader());
        const NumericTable first = load(path, false, {});
        std::ofstream(path) << "a,b\n9,9\n8,8\n"; // replaced mid-run
        QCOMPARE(load(path, false, {}).values, first.values);
        std::remove(path.c_str()); // deleted mid-run
        QCOMPARE(load(path, false, {}).values, first.values);
        QCOMPARE(first.values(1, 1), 5.0);
        // A failed read is not kept: it is tried again and fails again.
        int calls = 0;
        const TableLoader failing =
            io::readOnce(TableLoader([&](const std::string&, bool, const ImageQuery&) {
                ++calls;
                throw std::invalid_argument("no");
                return NumericTable{};
            }));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, failing("x", false, {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, failing("x", false, {}));
        QCOMPARE(calls, 2);
    }

    void loadsAGoodFile() {
        const auto path = write("good.csv", "a, b ,y\n1,2,3\n4,5.5,-6e-1\n\n7,8,9\n");
        const RegressionData d = loadRegressionCsv(path);
        QCOMPARE(d.size(), Eigen::Index{3});
        QCOMPARE(d.inputs(), Eigen::Index{2});
        QCOMPARE(d.inputNames, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(d.targetName, std::string("y"));
        QCOMPARE(d.name, std::string("good"));
        QCOMPARE(d.X(1, 1), 5.5);
        QCOMPARE(d.y(1), -0.6);
        QCOMPARE(d.y(2), 9.0);
    }
    void choosesTheTargetAndDropsColumns() {
        const auto path = write("pick.csv", "a,t,b,c\n1,2,3,4\n5,6,7,8\n");
        const RegressionData d = loadRegressionCsv(path, "t", {"c"});
        QCOMPARE(d.inputNames, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(d.y(1), 6.0);
        QCOMPARE(d.X(1, 1), 7.0);
    }
    void refusesMalformedFiles_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QStringList>("mustMention");
        QTest::newRow("empty cell") << "a,y\n1,2\n3,\n"
                                    << "" << QStringList{"row 3", "'y'", "empty"};
        QTest::newRow("NA") << "a,y\n1,2\nNA,4\n"
                            << "" << QStringList{"row 3", "'a'", "'NA'"};
        QTest::newRow("nan") << "a,y\n1,2\n3,nan\n"
                             << "" << QStringList{"row 3", "'y'", "'nan'"};
        QTest::newRow("inf") << "a,y\n1,inf\n3,4\n"
                             << "" << QStringList{"row 2", "'inf'"};
        QTest::newRow("text") << "a,y\n1,2\n3,4\n5,six\n"
                              << "" << QStringList{"row 4", "'six'"};
        QTest::newRow("trailing junk") << "a,y\n1,2x\n3,4\n"
                                       << "" << QStringList{"row 2", "'2x'"};
        QTest::newRow("short row") << "a,b,y\n1,2,3\n4,5\n"
                                   << "" << QStringList{"row 3", "2 cells", "3"};
        QTest::newRow("long row") << "a,y\n1,2,3\n4,5\n"
                                  << "" << QStringList{"row 2", "3 cells"};
        QTest::newRow("duplicate name") << "a,a,y\n1,2,3\n4,5,6\n"
                                        << "" << QStringList{"row 1", "'a'", "twice"};
        QTest::newRow("unnamed column") << "a,,y\n1,2,3\n4,5,6\n"
                                        << "" << QStringList{"row 1", "column 2"};
        QTest::newRow("unknown target") << "a,y\n1,2\n3,4\n"
                                        << "z" << QStringList{"'z'"};
        QTest::newRow("one row") << "a,y\n1,2\n"
                                 << "" << QStringList{"two data rows"};
        QTest::newRow("header only") << "a,y\n"
                                     << "" << QStringList{"two data rows"};
        QTest::newRow("empty file") << ""
                                    << "" << QStringList{"empty"};
        QTest::newRow("one column") << "y\n1\n2\n"
                                    << "" << QStringList{"input"};
    }
    void refusesMalformedFiles() {
        QFETCH(QString, text);
        QFETCH(QString, target);
        QFETCH(QStringList, mustMention);
        const auto path = write("bad.csv", text.toStdString());
        const QString message = refusal(path, target.toStdString());
        QVERIFY2(!message.isEmpty(), "the file was accepted");
        for (const QString& m : mustMention)
            QVERIFY2(message.contains(m), qPrintable(message + " lacks " + m));
    }
    void missingFileIsRefused() {
        QVERIFY(refusal(m_dir.filePath("nope.csv").toStdString()).contains("cannot open"));
    }
    void onlyRegularFilesAreData() {
        // A folder, a device that never ends and a FIFO are named, not read until memory runs out.
        QVERIFY(refusal(m_dir.path().toStdString()).contains("is a folder"));
        QVERIFY(refusal("/dev/zero").contains("not a regular file"));
        const std::string fifo = m_dir.filePath("pipe.csv").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QVERIFY(refusal(fifo).contains("not a regular file")); // opening it would block forever
    }
    void aHugeHeaderIsRefusedQuickly() {
        // 120,000 distinct names (800 kB, under the line cap), the last repeated: a hash set finds
        // it in one pass (the old pairwise check, 37 s for 200,000, scales to about 13 s); the
        // budget is the suite's time-out, not a timer.
        std::string header;
        for (int j = 0; j < 120000; ++j)
            header.append("c").append(std::to_string(j)).append(",");
        header += "c7\n";
        const QString message = refusal(write("wide.csv", header + "1\n"));
        QVERIFY2(message.contains("'c7' appears twice"), qPrintable(message));
    }
    void anOverlongLineIsRefusedByRow() {
        const std::string big(2u << 20, '7'); // one 2 MB cell: longer than any data row
        const QString message = refusal(write("long.csv", "a,y\n1,2\n3," + big + "\n4,5\n"));
        QVERIFY2(message.contains("row 3") && message.contains("longer than"), qPrintable(message));
        QVERIFY(message.size() < 200);
    }
    void badCellsAreShownShortAndEscaped() {
        // A 100 kB cell is cut to 40 characters with its length; a NUL and an ESC are escaped, so
        // nothing after them is lost and no terminal control reaches the screen.
        static const char kNul[] = "a,y\n1,2\n3,4\0\x1b[2J\n";
        std::string cell(100001, 'q'); // (not "x" + std::string: GCC 12 warns falsely, -Wrestrict)
        cell[0] = 'x';
        QString message = refusal(write("cell.csv", "a,y\n1,2\n3," + cell + "\n"));
        QVERIFY2(message.contains("100001 characters") && message.size() < 200,
                 qPrintable(message));
        message = refusal(write("nul.csv", std::string(kNul, sizeof kNul - 1)));
        QVERIFY2(message.contains("'4\\x00\\x1b[2J'") && message.contains("not a finite number"),
                 qPrintable(message));
    }
    void spreadsheetExportsAreRead() {
        // A UTF-8 byte-order mark and CR LF endings (Excel's CSV) are read as plain CSV.
        const RegressionData d = loadRegressionCsv(write("bom.csv", "\xEF\xBB\xBF"
                                                                    "a,y\r\n1,2\r\n3,4\r\n"));
        QCOMPARE(d.inputNames, (std::vector<std::string>{"a"}));
        QCOMPARE(d.targetName, std::string("y"));
        QCOMPARE(d.y(1), 4.0);
        // CR-only endings (classic Mac OS) would be one long row: named instead.
        const QString message = refusal(write("mac.csv", "a,y\r1,2\r3,4\r"));
        QVERIFY2(message.contains("CR only"), qPrintable(message));
    }
    void extremeColumnsAreStandardisedOrNamed() {
        // 1e-300 and 1e200 scales are found (their plain variance under- or overflows); a column
        // from -1.7e308 to 1.7e308, whose deviations overflow, is refused by name.
        const RegressionData tiny =
            loadRegressionCsv(write("t.csv", "a,y\n1e-300,1e200\n3e-300,2e200\n2e-300,6e200\n"));
        PrepareOptions o;
        const RegressionProblem p = prepareRegression(tiny, o);
        QVERIFY(qAbs(p.xScale(0) / std::sqrt(2.0 / 3.0) / 1e-300 - 1.0) < 1e-12);
        QVERIFY(qAbs(p.yScale / (std::sqrt(14.0 / 3.0) * 1e200) - 1.0) < 1e-12);
        QVERIFY(qAbs(p.ytrain(2) - (6.0 - 3.0) / (std::sqrt(14.0 / 3.0))) < 1e-12);
        const RegressionData wide =
            loadRegressionCsv(write("w.csv", "a,y\n1.7e308,1\n-1.7e308,2\n-1.7e308,4\n"));
        try {
            prepareRegression(wide, o);
            QFAIL("a column whose deviations overflow was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("'a' spans too wide a range"), e.what());
        }
    }
    void subnormalNumbersAreFinite() {
        // 1e-310 is a subnormal double and 1e-400 underflows to 0: both finite, both accepted;
        // 1e400 overflows to infinity and is refused.
        const RegressionData d = loadRegressionCsv(write("tiny.csv", "a,y\n1e-310,2\n1e-400,4\n"));
        QCOMPARE(d.X(0, 0), 1e-310);
        QCOMPARE(d.X(1, 0), 0.0);
        QVERIFY(refusal(write("huge.csv", "a,y\n1e400,2\n3,4\n")).contains("'1e400'"));
    }
    void bundledSetsMatchTheirReadme() {
        // Row counts, input counts and the target means printed in resources/data/README.md.
        struct Expect {
            const char* name;
            Eigen::Index rows, inputs;
            double targetMean, firstTarget;
        };
        for (const Expect& e :
             {Expect{"boston", 506, 13, 22.5328, 24.0}, Expect{"concrete", 1030, 8, 35.8180, 79.99},
              Expect{"energy", 768, 8, 22.3072, 15.55}, Expect{"yacht", 308, 6, 10.4954, 0.11}}) {
            const RegressionData d = loadBuiltinDataset(e.name, defaultDataDirectory());
            QCOMPARE(d.size(), e.rows);
            QCOMPARE(d.inputs(), e.inputs);
            QVERIFY2(std::abs(d.y.mean() - e.targetMean) < 6e-5, e.name);
            QCOMPARE(d.y(0), e.firstTarget);
        }
        const RegressionData energy = loadBuiltinDataset("energy", defaultDataDirectory());
        QVERIFY(std::find(energy.inputNames.begin(), energy.inputNames.end(), "cooling_load") ==
                energy.inputNames.end());
    }
    void standardisesWithTrainingStatistics() {
        RegressionData d;
        d.X.resize(4, 2);
        d.X << 1, 5, 2, 5, 3, 5, 4, 5; // the second column is constant
        d.y = Eigen::Vector4d(2, 4, 6, 8);
        d.inputNames = {"a", "b"};
        const RegressionProblem p = prepareRegression(d, {});
        // a: mean 2.5, population sd sqrt(1.25); b: centred, not scaled; bias column of ones.
        QCOMPARE(p.dim(), Eigen::Index{3});
        QVERIFY(std::abs(p.Xtrain(0, 0) - (1 - 2.5) / std::sqrt(1.25)) < 1e-15);
        QCOMPARE(p.Xtrain.col(1).cwiseAbs().maxCoeff(), 0.0);
        QCOMPARE(p.Xtrain.col(2), Vector::Ones(4));
        QVERIFY(std::abs(p.ytrain(3) - (8 - 5) / std::sqrt(5.0)) < 1e-15);
        QCOMPARE(p.parameterNames.back(), std::string("bias"));
    }
    void splitsAreSeededDisjointAndComplete() {
        RegressionData d;
        d.X = Matrix::Zero(11, 1);
        d.y.resize(11);
        for (int i = 0; i < 11; ++i)
            d.X(i, 0) = d.y(i) = i;
        d.inputNames = {"x"};
        PrepareOptions o;
        o.standardise = false;
        o.bias = false;
        o.trainFraction = 0.5;
        o.splitSeed = 9;
        const RegressionProblem a = prepareRegression(d, o), b = prepareRegression(d, o);
        QCOMPARE(a.Xtrain.rows(), Eigen::Index{6}); // round(5.5)
        QCOMPARE(a.Xtest.rows(), Eigen::Index{5});
        QCOMPARE(a.ytrain, b.ytrain);
        std::vector<double> all(a.ytrain.data(), a.ytrain.data() + 6);
        all.insert(all.end(), a.ytest.data(), a.ytest.data() + 5);
        std::sort(all.begin(), all.end());
        for (int i = 0; i < 11; ++i)
            QCOMPARE(all[static_cast<std::size_t>(i)], double(i));
        o.splitSeed = 10;
        QVERIFY(prepareRegression(d, o).ytrain != a.ytrain);
        QCOMPARE(a.Xtrain.col(0), a.ytrain); // rows move together
    }
    void syntheticRecipeHasItsMoments() {
        SyntheticRecipe r;
        r.samples = 200000;
        const RegressionData d = syntheticRegression(r, 5);
        const Matrix cov = d.X.transpose() * d.X / double(r.samples);
        QVERIFY(std::abs(cov(0, 0) - 1.0) < 0.01);
        QVERIFY(std::abs(cov(0, 1) - 0.5) < 0.01);
        // theta_true is fixed per seed: the least-squares residual variance is 1 / beta.
        const Vector theta = d.X.colPivHouseholderQr().solve(d.y);
        const double noiseVar = (d.y - d.X * theta).squaredNorm() / double(r.samples);
        QVERIFY(std::abs(noiseVar - 1.0 / r.beta) < 0.1);
        QCOMPARE(syntheticRegression(r, 5).y, d.y);
    }
};

QTEST_APPLESS_MAIN(TestRegressionData)
#include "test_regression_data.moc"
