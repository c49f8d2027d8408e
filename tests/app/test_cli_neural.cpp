// faexplorer-cli neural's posteriors from the SGD iterates (issue 27) as a user runs them: the
// rows of map, swag, ensemble and multiswag in the contract's columns, determinism, what
// --members changes (only the multi methods' rows), a linear-size check of the rank against the
// network's weights, and bad values refused with one line, exit 2 and no file.
#include "tests/support/CsvCells.h"
#include "tests/support/RunProgram.h"

#include <QTemporaryDir>
#include <QtTest>

class TestCliNeural : public QObject {
    Q_OBJECT

    /// yacht (6 inputs) through a network of one hidden layer of 4 units: D = 6·4 + 4 + 4 + 1
    /// = 33 weights.
    QStringList small(const QString& methods) const {
        return {"neural", "--dataset", "yacht", "--hidden", "4",  "--method",
                methods,  "--splits",  "2",     "--epochs", "12", "--search-trials",
                "2",      "--folds",   "2",     "--seed",   "5",  "--predictive-samples",
                "20"};
    }
    test::ProgramResult run(const QStringList& args) const {
        return test::runProgram(FAEXPLORER_CLI, args);
    }
    /// The rows without their seconds cell.
    static QList<QStringList> timeless(const QList<QStringList>& rows) {
        return test::withoutColumn(rows, 6);
    }
    QTemporaryDir m_dir;

  private slots:
    void iterateMethodsWriteTheContractRows() {
        const QString a = m_dir.filePath("a.csv"), b = m_dir.filePath("b.csv");
        const QStringList args = small("map,swag,ensemble,multiswag") << "--members"
                                                                      << "3";
        const test::ProgramResult r = run(args + QStringList{"--out", a});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(run(args + QStringList{"--out", b}).code, 0);
        const auto rows = test::readCsvCells(a);
        QCOMPARE(rows.first().join(','),
                 QString("dataset,method,hidden,split,nmll,rmse,seconds,status,coverage_95"));
        QCOMPARE(rows.size(), 1 + 2 * 4);
        const QStringList order{"map", "swag", "ensemble", "multiswag"};
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList& c = rows[i];
            QCOMPARE(c[0], QString("yacht"));
            QCOMPARE(c[1], order[(i - 1) % 4]);
            QCOMPARE(c[3], QString::number((i - 1) / 4));
            QCOMPARE(c[7], QString("ok"));
            QVERIFY(test::finiteCell(c[4]) && test::finiteCell(c[5]) && c[5].toDouble() > 0.0);
            const double coverage = c[8].toDouble();
            QVERIFY2(coverage >= 0.0 && coverage <= 1.0, qPrintable(c.join(',')));
        }
        QCOMPARE(timeless(test::readCsvCells(b)), timeless(rows)); // the same seed, the same rows
        for (const QString& m : order)
            QVERIFY2(r.out.contains(m), qPrintable(r.out));
    }

    // The generated in-between set (core/data/InBetween.h): 100 rows, one input, so a 90/10
    // split tests 10 rows; its rows carry its name.
    void inBetweenIsADataSet() {
        QStringList args = small("map");
        args[args.indexOf("--dataset") + 1] = "in-between";
        const QString out = m_dir.filePath("ib.csv");
        const test::ProgramResult r = run(args + QStringList{"--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = test::readCsvCells(out);
        QCOMPARE(rows.size(), 3);
        for (int i = 1; i < 3; ++i) {
            QCOMPARE(rows[i][0], QString("in-between"));
            QCOMPARE(rows[i][7], QString("ok"));
            const double coverage = rows[i][8].toDouble(); // a share of 10 test rows
            QVERIFY2(std::abs(coverage * 10 - std::round(coverage * 10)) < 1e-9,
                     qPrintable(rows[i].join(',')));
        }
    }

    // A fit that blows up without a non-finite number is not "ok": online SGA at step 0.1 on
    // Yacht ends with a test RMSE of about 2300 against a target sd of 15. Its row says
    // "diverged" and keeps its (finite) cells; the summary counts 0 of 1 ok.
    void anAbsurdRowIsNotOk() {
        const QString out = m_dir.filePath("absurd.csv");
        const test::ProgramResult r =
            run({"neural", "--dataset", "yacht", "--method", "swa-fa-sga", "--sga-lr", "0.1",
                 "--splits", "1", "--threads", "1", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = test::readCsvCells(out);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1][7], QString("diverged"));
        QVERIFY2(rows[1][5].toDouble() > 10 * 15.0, qPrintable(rows[1].join(',')));
        QVERIFY(test::finiteCell(rows[1][4]));
        QVERIFY2(r.out.contains("0/1"), qPrintable(r.out));
    }

    // --members is M of the multi methods alone: map's and swag's rows do not move with it,
    // the ensemble's and MultiSWAG's do (more networks in the mixture).
    void membersChangeOnlyTheMultiMethods() {
        const QString two = m_dir.filePath("m2.csv"), four = m_dir.filePath("m4.csv");
        const QStringList args = small("map,swag,ensemble,multiswag");
        QCOMPARE(run(args + QStringList{"--members", "2", "--out", two}).code, 0);
        QCOMPARE(run(args + QStringList{"--members", "4", "--out", four}).code, 0);
        const auto a = timeless(test::readCsvCells(two)), b = timeless(test::readCsvCells(four));
        QCOMPARE(a.size(), b.size());
        for (int i = 1; i < a.size(); ++i) {
            const bool multi = a[i][1] == "ensemble" || a[i][1] == "multiswag";
            QVERIFY2((a[i] == b[i]) != multi, qPrintable(a[i].join(',') + " | " + b[i].join(',')));
        }
    }

    void refusesBadValues_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("no member") << QStringList{"--members", "0"} << "--members must be";
        QTest::newRow("rank 0") << QStringList{"--rank", "0"} << "--rank must be";
        QTest::newRow("start at the end")
            << QStringList{"--swa-start", "12"} << "--swa-start must be below --epochs (12)";
        QTest::newRow("rate 2") << QStringList{"--sgd-lr", "2"} << "--sgd-lr must lie in";
        QTest::newRow("rank of every weight")
            << QStringList{"--rank", "33"} << "below the number of weights D = 33";
        QTest::newRow("range upside down") << QStringList{"--prior-range", "10,1"}
                                           << "--prior-range must be LO,HI with 0 < LO <= HI";
        QTest::newRow("range of one number")
            << QStringList{"--laplace-range", "1"} << "--laplace-range must be LO,HI";
        QTest::newRow("range at zero")
            << QStringList{"--noise-range", "0,1"} << "--noise-range must be LO,HI";
        QTest::newRow("fa start") << QStringList{"--fa-start", "unit"}
                                  << "--fa-start must be thesis or iterates";
        QTest::newRow("fa start without an epoch before")
            << QStringList{"--fa-start", "iterates", "--swa-start", "0"}
            << "the SWA start must be 1 or more";
        QTest::newRow("in-between's target")
            << QStringList{"--dataset", "in-between", "--target", "z"}
            << "the bundled data set 'in-between' has the fixed target 'y'";
        QTest::newRow("unknown method")
            << QStringList{"--method", "swa"} << "unknown method 'swa' (use vifa-gauss";
    }
    void refusesBadValues() {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QStringList args = small("swa-fa-em");
        if (extra.first() == "--method" || extra.first() == "--dataset") {
            args[args.indexOf(extra.first()) + 1] = extra[1];
            args += extra.mid(2);
        } else
            args += extra;
        const QString out = m_dir.filePath("bad.csv");
        const test::ProgramResult r = run(args + QStringList{"--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(out));
    }

    // network-bench's rows (timings aside, which belong in docs/benchmarks.md): the weight
    // count of concrete's 8 inputs through 4 and 3 hidden units, 8·4 + 4 + 4·3 + 3 + 3 + 1 = 55,
    // and one update row per fitter with a positive time.
    void networkBenchCountsTheWeights() {
        const QString out = m_dir.filePath("bench.csv");
        const test::ProgramResult r =
            run({"network-bench", "--hidden", "4,3", "--rank", "2", "--epochs", "1", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = test::readCsvCells(out);
        QVERIFY(rows.size() > 1);
        const int name = int(rows.first().indexOf("name")),
                  value = int(rows.first().indexOf("value"));
        QVERIFY(name >= 0 && value >= 0);
        QStringList updates;
        for (const QStringList& row : rows.mid(1)) {
            if (row[name] == "weights/concrete")
                QCOMPARE(row[value].toDouble(), 55.0);
            if (row[name].endsWith("_update/concrete")) {
                updates << row[name];
                QVERIFY(row[value].toDouble() > 0.0);
            }
        }
        QCOMPARE(updates, (QStringList{"em_update/concrete", "sga_update/concrete",
                                       "swag_update/concrete"}));
    }

    // An --out that is the CSV network-bench reads is refused before anything is written: the
    // data file keeps its bytes.
    void networkBenchKeepsItsInput() {
        const QString csv = m_dir.filePath("data.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray text = "a,b,y\n1,2,3\n4,5,6\n7,8,10\n2,1,0\n";
        f.write(text);
        f.close();
        const test::ProgramResult r = run({"network-bench", "--dataset", csv, "--hidden", "2",
                                           "--rank", "1", "--epochs", "1", "--out", csv});
        QCOMPARE(r.code, 2);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), text);
    }

    void helpNamesTheNewOptions() {
        const test::ProgramResult r = run({"neural", "--help"});
        QCOMPARE(r.code, 0);
        for (const char* flag : {"--members", "--rank", "--swa-start", "--sgd-lr", "--sgd-batch",
                                 "EPOCHS/2", "multi-swa-fa-em"})
            QVERIFY2(r.out.contains(flag), flag);
    }
};

QTEST_GUILESS_MAIN(TestCliNeural)
#include "test_cli_neural.moc"
