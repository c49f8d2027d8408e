// faexplorer-cli as a user runs it: the CSV contract, determinism, and bad arguments giving
// one clear line on stderr, a non-zero exit and no output file.
#include <QtTest>

class TestCli : public QObject {
    Q_OBJECT

    struct Result {
        int code;
        QString out, err;
    };
    Result run(const QStringList& args) {
        QProcess p;
        p.start(FAEXPLORER_CLI, args);
        if (!p.waitForFinished(120000))
            return {-1, {}, "timeout"};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }
    QTemporaryDir m_dir;

private slots:
    void faSweepWritesTheContractColumns() {
        const QString out = m_dir.filePath("sweep.csv");
        const Result r = run({"fa-sweep", "--dim", "20", "--latent", "3", "--samples", "100,500", "--trials", "2",
                              "--seed", "1", "--out", out});
        QCOMPARE(r.code, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QString("dim,latent,spectrum_lo,spectrum_hi,generator,samples,trial,algorithm,"
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
            run({"fa-sweep", "--dim", "15", "--latent", "2", "--samples", "200", "--trials", "2", "--seed", "3",
                 "--generator", "haar", "--out", out});
            QFile f(out);
            f.open(QIODevice::ReadOnly);
            QStringList rows;
            for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts)) {
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
        const Result r = run({"fa-sweep", "--dim", "10", "--latent", "2", "--out", "/nonexistent-folder/x.csv"});
        QVERIFY(r.code != 0);
        QVERIFY(r.err.contains("cannot write"));
    }
    void benchWritesRows() {
        const QString out = m_dir.filePath("bench.csv");
        const Result r = run({"bench", "--dim", "30", "--latent", "3", "--min-seconds", "0.05", "--batch-samples", "200",
                              "--out", out});
        QCOMPARE(r.code, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.startsWith("kind,name,dim,latent,value,unit\n"));
        QVERIFY(text.contains("throughput,em,30,3,"));
        QVERIFY(text.contains("metric,w2_structured,30,3,"));
    }
};

QTEST_MAIN(TestCli)
#include "test_cli.moc"
