// faexplorer-cli gp (issue 28) as a user runs it: the contract's columns and rows (one per trial
// and kernel, in order, "ok"), the same rows for the same seed, a CSV data set, --help from the
// command table, and bad input refused with one line on stderr, exit 2 and no file.
#include "tests/support/CsvCells.h"
#include "tests/support/RunProgram.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

class TestCliGp : public QObject {
    Q_OBJECT

    QStringList small() const {
        return {"gp", "--dataset", "yacht", "--trials",     "2", "--restarts",
                "1",  "--seed",    "3",     "--iterations", "30"};
    }
    test::ProgramResult run(const QStringList& args) const {
        return test::runProgram(FAEXPLORER_CLI, args);
    }
    /// The rows without their seconds cell.
    static QList<QStringList> timeless(const QList<QStringList>& rows) {
        return test::withoutColumn(rows, 6);
    }
    QString writeCsv(const QString& name, const QByteArray& text) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(text);
        return path;
    }
    QTemporaryDir m_dir;

  private slots:
    void writesTheContractRows() {
        const QString a = m_dir.filePath("a.csv"), b = m_dir.filePath("b.csv");
        const test::ProgramResult r = run(small() << "--out" << a);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(run(small() << "--threads"
                             << "1"
                             << "--out" << b)
                     .code,
                 0);
        const auto rows = test::readCsvCells(a);
        QCOMPARE(rows.first().join(','),
                 QString("dataset,kernel,trial,nmll,rmse,log_marginal_likelihood,seconds,status"));
        const QStringList order{"se", "linear", "nn-erf", "nn-relu"};
        QCOMPARE(rows.size(), 1 + 2 * 4);
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList& c = rows[i];
            QCOMPARE(c[0], QString("yacht"));
            QCOMPARE(c[1], order[(i - 1) % 4]);
            QCOMPARE(c[2], QString::number((i - 1) / 4));
            QCOMPARE(c[7], QString("ok"));
            for (int k : {3, 4, 5, 6})
                QVERIFY2(test::finiteCell(c[k]), qPrintable(c.join(',')));
            // Yacht's resistance has sd 15: a GP's RMSE is well below it, BLR's near 9.
            QVERIFY2(c[4].toDouble() > 0.0 && c[4].toDouble() < 15.0, qPrintable(c.join(',')));
        }
        // The same seed, the same rows, on any number of threads.
        QCOMPARE(timeless(test::readCsvCells(b)), timeless(rows));
        for (const QString& k : order)
            QVERIFY2(r.out.contains(k), qPrintable(r.out));
    }

    // A CSV data set (target: the last column) and one kernel.
    void readsACsv() {
        QByteArray text = "a,b,y\n";
        for (int i = 0; i < 40; ++i)
            text += QByteArray::number(i % 7) + "," + QByteArray::number((i * 13) % 11) + "," +
                    QByteArray::number(0.5 * (i % 7) - 0.2 * ((i * 13) % 11) + 0.01 * (i % 3)) +
                    "\n";
        const QString csv = writeCsv("data.csv", text), out = m_dir.filePath("csv-out.csv");
        const test::ProgramResult r =
            run({"gp", "--dataset", csv, "--kernel", "linear", "--trials", "1", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = test::readCsvCells(out);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1][0], QString("data"));
        QCOMPARE(rows[1][7], QString("ok"));
    }

    void helpComesFromTheTable() {
        const test::ProgramResult r = run({"gp", "--help"});
        QCOMPARE(r.code, 0);
        for (const char* flag : {"--dataset", "--kernel", "--trials", "--seed", "--train-fraction",
                                 "--out", "--restarts", "--iterations"})
            QVERIFY2(r.out.contains(flag), flag);
        QVERIFY(run({"--help"}).out.contains("gp"));
    }

    void refusesBadInput_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown kernel")
            << QStringList{"--kernel", "se,matern"} << "unknown kernel 'matern' (use se, linear";
        QTest::newRow("kernel twice") << QStringList{"--kernel", "se,se"} << "listed twice";
        QTest::newRow("fraction 0") << QStringList{"--train-fraction", "0"}
                                    << "--train-fraction must lie strictly between 0 and 1";
        QTest::newRow("fraction 1") << QStringList{"--train-fraction", "1"}
                                    << "--train-fraction must lie strictly between 0 and 1";
        QTest::newRow("fraction 1.5")
            << QStringList{"--train-fraction", "1.5"} << "--train-fraction must lie in";
        QTest::newRow("no trial") << QStringList{"--trials", "0"} << "--trials must be between";
        QTest::newRow("no restart")
            << QStringList{"--restarts", "0"} << "--restarts must be between";
        QTest::newRow("unknown data set")
            << QStringList{"--dataset", "nowhere.csv"} << "nowhere.csv";
        QTest::newRow("unknown option") << QStringList{"--lr", "0.1"} << "--lr";
    }
    void refusesBadInput() {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const QString out = m_dir.filePath("bad.csv");
        QStringList args = small();
        if (const qsizetype at = args.indexOf(extra.first()); at >= 0)
            args[at + 1] = extra[1]; // a value small() gives: replaced
        else
            args += extra;
        const test::ProgramResult r = run(args + QStringList{"--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(!QFile::exists(out));
    }

    // An --out that is the CSV gp reads is refused before anything is written.
    void keepsItsInput() {
        const QByteArray text = "a,y\n1,2\n2,3\n3,5\n4,4\n5,7\n6,6\n7,9\n8,8\n9,11\n10,12\n";
        const QString csv = writeCsv("same.csv", text);
        const test::ProgramResult r = run({"gp", "--dataset", csv, "--out", csv});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), text);
    }
};

QTEST_GUILESS_MAIN(TestCliGp)
#include "test_cli_gp.moc"
