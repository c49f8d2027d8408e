// faexplorer-cli as a user runs it: the CSV contract, determinism, and bad arguments giving
// one clear line on stderr, a non-zero exit and no output file.
#include "tests/support/RunProgram.h"

#include <QtTest>

#include <cmath>
#include <csignal>

class TestCli : public QObject {
    Q_OBJECT

    using Result = test::ProgramResult;
    static Result run(const QStringList& args) { return test::runProgram(FAEXPLORER_CLI, args); }
    static QString readText(const QString& path) { // "" when it cannot be read
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
    QTemporaryDir m_dir;

  private slots:
    void faSweepWritesTheContractColumns() {
        const QString out = m_dir.filePath("sweep.csv");
        const Result r = run({"fa-sweep", "--dim", "20", "--latent", "3", "--samples", "100,500",
                              "--trials", "2", "--seed", "1", "--out", out});
        QCOMPARE(r.code, 0);
        const QStringList lines = readText(out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0),
                 QString("dim,latent,spectrum_lo,spectrum_hi,generator,samples,trial,algorithm,"
                         "rel_cov_dist,w2,w2_over_dim,rel_mean_dist,seconds,status"));
        QCOMPARE(lines.size(), 1 + 2 * 2 * 3);
        QVERIFY(lines[1].startsWith("20,3,1,10,exact,100,0,batch,"));
        QVERIFY(lines[1].endsWith(",ok"));
        QVERIFY(r.out.contains("rel_cov_dist"));
        QVERIFY(r.out.contains("±"));
    }
    void sameArgumentsSameCsvApartFromSeconds() {
        auto csvWithoutSeconds = [&](const QString& name) {
            const QString out = m_dir.filePath(name);
            run({"fa-sweep", "--dim", "15", "--latent", "2", "--samples", "200", "--trials", "2",
                 "--seed", "3", "--generator", "haar", "--out", out});
            QFile f(out);
            f.open(QIODevice::ReadOnly);
            QStringList rows;
            for (const QString& line :
                 QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
                QStringList cells = line.split(',');
                cells.removeAt(12); // seconds
                rows << cells.join(',');
            }
            return rows;
        };
        const QStringList a = csvWithoutSeconds("a.csv"), b = csvWithoutSeconds("b.csv");
        QVERIFY(a.size() == 7);
        QCOMPARE(a, b);
    }
    void badArgumentsFailCleanly_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("K >= D") << QStringList{"--dim", "10", "--latent", "10"} << "latent";
        QTest::newRow("spectrum lo > hi") << QStringList{"--spectrum", "10:1"} << "spectrum";
        QTest::newRow("spectrum lo <= 0") << QStringList{"--spectrum", "0:1"} << "spectrum";
        QTest::newRow("bad samples") << QStringList{"--samples", "100,-5"} << "samples";
        QTest::newRow("lr <= 0") << QStringList{"--lr", "0"} << "lr";
        QTest::newRow("unknown algorithm") << QStringList{"--algorithms", "em,pca"} << "pca";
        QTest::newRow("unknown generator") << QStringList{"--generator", "qr"} << "generator";
        QTest::newRow("not a number") << QStringList{"--dim", "ten"} << "dim";
        QTest::newRow("unknown batch svd") << QStringList{"--batch-svd", "lapack"} << "batch-svd";
        QTest::newRow("unknown option") << QStringList{"--colour", "red"} << "colour";
    }
    void badArgumentsFailCleanly() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = m_dir.filePath("bad.csv");
        const Result r = run(QStringList{"fa-sweep", "--out", out} + args);
        QVERIFY(r.code != 0);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    void unwritableOutputFailsBeforeWork() {
        const Result r =
            run({"fa-sweep", "--dim", "10", "--latent", "2", "--out", "/nonexistent-folder/x.csv"});
        QVERIFY(r.code != 0);
        QVERIFY(r.err.contains("cannot write"));
    }
    void benchWritesRows() {
        const QString out = m_dir.filePath("bench.csv");
        const Result r = run({"bench", "--dim", "30", "--latent", "3", "--min-seconds", "0.05",
                              "--batch-samples", "200", "--out", out});
        QCOMPARE(r.code, 0);
        const QString text = readText(out);
        QVERIFY(text.startsWith("kind,name,dim,latent,value,unit\n"));
        QVERIFY(text.contains("throughput,em,30,3,"));
        QVERIFY(text.contains("metric,w2_structured,30,3,"));
        // The host rows: the core count as Qt sees it, the in-cache triad on two threads.
        QVERIFY(
            text.contains(QString("host,cores,0,3,%1,threads\n").arg(QThread::idealThreadCount())));
        const QString cpu = readText("/proc/cpuinfo"); // the CPU's family and model (0: none)
        auto number = [&](const char* key) {
            const auto m = QRegularExpression(QString("^%1\\s*:\\s*(\\d+)$").arg(key),
                                              QRegularExpression::MultilineOption)
                               .match(cpu);
            return m.hasMatch() ? m.captured(1) : QString("0");
        };
        QVERIFY2(text.contains("host,cpu_model,0,3,0,") &&
                     text.contains(QString("host,cpu_family,0,3,%1,model %2\n")
                                       .arg(number("cpu family"), number("model"))),
                 qPrintable(text));
        QVERIFY(text.contains("bandwidth,triad_in_cache_2threads,0,3,"));
    }
    QStringList posteriorCsv(const QStringList& args, const QString& name, bool dropSeconds) {
        const QString out = m_dir.filePath(name);
        const Result r = run(QStringList{"posterior", "--out", out} + args);
        if (r.code != 0)
            return {"exit " + QString::number(r.code) + ": " + r.err};
        QFile f(out);
        f.open(QIODevice::ReadOnly);
        QStringList rows;
        for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
            QStringList cells = line.split(',');
            if (dropSeconds)
                cells.removeAt(9);
            rows << cells.join(',');
        }
        return rows;
    }
    void posteriorWritesTheContractColumnsDeterministically() {
        const QStringList args{"--method", "vifa-gauss,sgd-em,swag",
                               "--epochs", "40",
                               "--every",  "20",
                               "--trials", "2",
                               "--n",      "200",
                               "--seed",   "5"};
        const QStringList a = posteriorCsv(args, "p1.csv", false),
                          b = posteriorCsv(args, "p2.csv", true);
        QCOMPARE(
            a.value(0),
            QString("dataset,method,latent,trial,epoch,rel_mean_dist,rel_cov_dist,w2,w2_over_dim,"
                    "seconds,status"));
        QCOMPARE(a.size(), 1 + 2 * 3 * 2);
        QVERIFY2(a[1].startsWith("synthetic,vifa-gauss,1,0,20,"), qPrintable(a[1]));
        QVERIFY(a[4].startsWith("synthetic,sgd-em,1,0,40,"));
        QVERIFY(a[4].endsWith(",ok"));
        QStringList aNoSeconds;
        for (const QString& row : a) {
            QStringList cells = row.split(',');
            cells.removeAt(9);
            aNoSeconds << cells.join(',');
        }
        QCOMPARE(aNoSeconds, b);
    }
    void posteriorRunsOnRealDataAndCsvFiles() {
        const QStringList yacht =
            posteriorCsv({"--dataset", "yacht", "--latent", "3", "--epochs", "5", "--trials", "1"},
                         "y.csv", true);
        QCOMPARE(yacht.size(), 1 + 5);
        QVERIFY(yacht[1].startsWith("yacht,vifa-gauss,3,0,1,"));
        const QString csv = m_dir.filePath("mine.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,target,c\n1,2,3,4\n2,1,4,3\n3,5,1,2\n4,4,4,1\n5,2,2,2\n");
        f.close();
        const QStringList mine =
            posteriorCsv({"--dataset", csv, "--target", "target", "--hyper", "thesis", "--epochs",
                          "2", "--trials", "1", "--batch", "2", "--train-fraction", "1"},
                         "m.csv", true);
        QVERIFY2(mine.size() == 3, qPrintable(mine.join('|')));
        QVERIFY(mine[1].startsWith("mine,vifa-gauss,1,0,1,"));
    }
    void posteriorRefusesBadInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown method") << QStringList{"--method", "mcmc"} << "mcmc";
        QTest::newRow("K >= D") << QStringList{"--latent", "2"} << "latent";
        QTest::newRow("manual without beta") << QStringList{"--alpha", "1"} << "--beta";
        QTest::newRow("bad hyper") << QStringList{"--hyper", "guess"} << "hyper";
        QTest::newRow("bad optimizer") << QStringList{"--optimizer", "lbfgs"} << "optimizer";
        QTest::newRow("lr <= 0") << QStringList{"--lr-f", "0"} << "lr-f";
        QTest::newRow("bad fraction") << QStringList{"--train-fraction", "1.5"} << "train-fraction";
        QTest::newRow("unknown data set") << QStringList{"--dataset", "iris"} << "iris";
    }
    void posteriorRefusesBadInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = m_dir.filePath("badp.csv");
        const Result r =
            run(QStringList{"posterior", "--out", out, "--epochs", "2", "--trials", "1"} + args);
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    void posteriorNamesTheBadCell() {
        const QString csv = m_dir.filePath("broken.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x1,x2,y\n1,2,3\n4,,6\n");
        f.close();
        const Result r = run({"posterior", "--dataset", csv, "--out", m_dir.filePath("never.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("row 3") && r.err.contains("'x2'"), qPrintable(r.err));
    }
    void neuralWritesTheContractColumnsDeterministically() {
        const QStringList args{"neural",
                               "--dataset",
                               "yacht",
                               "--hidden",
                               "8,8",
                               "--method",
                               "vifa-gauss,vippca-gauss",
                               "--splits",
                               "2",
                               "--epochs",
                               "3",
                               "--search-trials",
                               "2",
                               "--folds",
                               "2",
                               "--seed",
                               "4"};
        auto rows = [&](const QString& name) {
            const QString out = m_dir.filePath(name);
            const Result r = run(args + QStringList{"--out", out});
            QFile f(out);
            f.open(QIODevice::ReadOnly);
            QStringList lines;
            for (const QString& line :
                 QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
                QStringList cells = line.split(',');
                cells.removeAt(cells.size() - 3); // seconds (then status, coverage_95)
                lines << cells.join(',');
            }
            return std::make_pair(r, lines);
        };
        const auto [r1, a] = rows("n1.csv");
        const auto [r2, b] = rows("n2.csv");
        QCOMPARE(r1.code, 0);
        QCOMPARE(a.first(), QString("dataset,method,hidden,split,nmll,rmse,status,coverage_95"));
        QCOMPARE(a.size(), 1 + 2 * 2);
        QVERIFY2(a[1].startsWith("yacht,vifa-gauss,\"8,8\",0,"), qPrintable(a[1]));
        QCOMPARE(a, b);
        QVERIFY(r1.out.contains("vippca-gauss"));
    }
    void neuralRefusesBadInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown method") << QStringList{"--method", "vifa"} << "vifa";
        QTest::newRow("bad hidden") << QStringList{"--hidden", "50,0"} << "hidden";
        QTest::newRow("one fold") << QStringList{"--folds", "1"} << "folds";
        QTest::newRow("bad init") << QStringList{"--init", "zero"} << "init";
        QTest::newRow("unknown data set") << QStringList{"--dataset", "iris"} << "iris";
    }
    void neuralRefusesBadInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = m_dir.filePath("badn.csv");
        const Result r = run(QStringList{"neural", "--out", out} + args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    void refusesWhatWouldGiveNoFiniteNumber_data() {
        // Issue 11: each of these ran and wrote inf/nan cells beside "ok", ran once instead of
        // 4294967297 times, or ignored the option; now each is refused up front (exit 2, one line
        // naming the reason, no file). @ is the test's folder, with the CSV files written below.
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QStringList sweep{"fa-sweep", "--dim", "20", "--latent", "2", "--samples", "200"};
        QTest::newRow("spectrum to 1e308")
            << sweep + QStringList{"--spectrum", "1:1e308"} << "[0.0001, 1e+09]";
        QTest::newRow("sga rate 100") << sweep + QStringList{"--lr", "100"} << "[1e-07, 10]";
        QTest::newRow("batch store 32 GB")
            << QStringList{"fa-sweep", "--dim", "400", "--latent", "5", "--samples", "10000000"}
            << "32.0 GB";
        QTest::newRow("model 40 GB")
            << QStringList{"fa-sweep",    "--dim", "1000000",   "--latent", "5000",
                           "--generator", "haar",  "--samples", "100"}
            << "lower D or K";
        QTest::newRow("empty method list")
            << QStringList{"posterior", "--method", ""} << "--method needs at least one value";
        QTest::newRow("target of a bundled set")
            << QStringList{"posterior", "--dataset", "boston", "--target", "crim"}
            << "fixed target 'medv'";
        QTest::newRow("target of synthetic data")
            << QStringList{"posterior", "--target", "y"} << "no columns";
        QTest::newRow("alpha 1e300") << QStringList{"posterior", "--alpha", "1e300", "--beta", "1"}
                                     << "--alpha must lie in [1e-08, 100000000]";
        QTest::newRow("constant target")
            << QStringList{"posterior", "--dataset", "@/constant.csv"} << "'y' is constant";
        QTest::newRow("repeats past 2^32")
            << QStringList{"posterior-bench", "--repeats", "4294967297"} << "between 1 and";
        QTest::newRow("empty neural test part")
            << QStringList{"neural", "--dataset", "yacht", "--train-fraction", "0.999"}
            << "test part is empty";
        QTest::newRow("three-row CSV")
            << QStringList{"neural", "--dataset", "@/three.csv"} << "test part is empty";
        QTest::newRow("constant neural target")
            << QStringList{"neural", "--dataset", "@/constant.csv"} << "'y' is constant";
        QTest::newRow("empty hidden list")
            << QStringList{"neural", "--hidden", ""} << "--hidden needs at least one value";
    }
    void refusesWhatWouldGiveNoFiniteNumber() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(m_dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        QByteArray constant = "a,b,y\n";
        for (int i = 0; i < 40; ++i)
            constant += QByteArray::number(i) + "," + QByteArray::number(i * i % 7) + ",5\n";
        write("constant.csv", constant);
        write("three.csv", "a,b,y\n1,2,3\n2,1,4\n3,3,1\n");
        for (QString& a : args)
            a.replace("@", m_dir.path());
        const QString out = m_dir.filePath("refused.csv");
        const Result r = run(args + QStringList{"--out", out});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    void tinyAndHugeValuesAreStandardised() {
        // Values of 1e-300 (their variance underflows to 0) and a target of 1e200 (its variance
        // overflows) gave inf and nan beside "ok"; standardised by their largest magnitude they
        // are ordinary data: the same posterior as the data at scale 1, to rounding.
        QByteArray plain = "a,b,y\n", tiny = plain, huge = plain;
        for (int i = 0; i < 40; ++i) {
            const double a = std::sin(1.0 + i), b = std::cos(3.0 * i),
                         y = a - 2 * b + 0.3 * std::sin(7.0 * i);
            auto row = [](double x, double u, double v) {
                return QByteArray::number(x, 'g', 17) + "," + QByteArray::number(u, 'g', 17) + "," +
                       QByteArray::number(v, 'g', 17) + "\n";
            };
            plain += row(a, b, y);
            tiny += row(a * 1e-300, b * 1e-300, y * 1e-300);
            huge += row(a, b, y * 1e200);
        }
        QStringList last;
        for (const auto& [name, text] : {std::pair{"plain.csv", plain}, std::pair{"tiny.csv", tiny},
                                         std::pair{"huge.csv", huge}}) {
            QFile f(m_dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
            f.close();
            const QString out = m_dir.filePath(QString("scaled-") + name);
            const Result r = run({"posterior", "--dataset", m_dir.filePath(name), "--epochs", "50",
                                  "--trials", "1", "--out", out});
            QCOMPARE(r.code, 0);
            QFile o(out);
            QVERIFY(o.open(QIODevice::ReadOnly));
            const QStringList cells =
                QString::fromUtf8(o.readAll()).split('\n', Qt::SkipEmptyParts).last().split(',');
            QCOMPARE(cells.last(), QString("ok"));
            QStringList numbers = cells.mid(5, 4); // rel_mean_dist .. w2_over_dim
            for (const QString& n : numbers) {
                bool ok = false;
                QVERIFY2(std::isfinite(n.toDouble(&ok)) && ok, qPrintable(cells.join(',')));
            }
            if (!last.isEmpty())
                for (int k = 0; k < 4; ++k)
                    QVERIFY2(std::abs(numbers[k].toDouble() - last[k].toDouble()) <=
                                 1e-6 * std::abs(last[k].toDouble()),
                             qPrintable(numbers.join(',') + " vs " + last.join(',')));
            last = numbers;
        }
    }
    void neuralCtrlCKeepsFinishedRows() {
        const QString out = m_dir.filePath("interrupted.csv");
        QProcess p;
        p.start(FAEXPLORER_CLI,
                {"neural", "--dataset", "yacht", "--hidden", "50,50", "--splits", "20", "--epochs",
                 "120", "--search-trials", "4", "--folds", "2", "--threads", "1", "--out", out});
        QVERIFY(p.waitForStarted());
        // Interrupt once the first split has finished (the progress line has moved on to the
        // second), whatever the machine's speed: far from all 20.
        // (Progress lines come at most every 5 s when stderr is not a terminal, so any split
        // after the first will do.)
        QString progress;
        const QRegularExpression later("split ([2-9]|1[0-9])/20");
        QTRY_VERIFY_WITH_TIMEOUT(
            (progress += QString::fromUtf8(p.readAllStandardError())).contains(later), 120000);
        QCOMPARE(p.state(), QProcess::Running);
        QVERIFY(p.processId() > 0);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 130);
        const QStringList lines = readText(out).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() >= 2 && lines.size() < 21, // the header, the finished splits
                 qPrintable(QString::number(lines.size())));
        QCOMPARE(lines.first(),
                 QString("dataset,method,hidden,split,nmll,rmse,seconds,status,coverage_95"));
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains("interrupted"));
    }
};

QTEST_MAIN(TestCli)
#include "test_cli.moc"
