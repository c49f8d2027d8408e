// --threads N and --shard i/n with `merge`, as a cluster user would run them: for every
// experiment command, one thread, two threads and the merged shards give the same CSV byte for
// byte apart from the seconds column; merge refuses shards that do not fit together.
#include <QtTest>

class TestCliShards : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    struct Result {
        int code;
        QString out, err;
    };
    static Result run(const QStringList& args) {
        QProcess p;
        p.start(FAEXPLORER_CLI, args);
        if (!p.waitForFinished(300000))
            return {-1, {}, "timeout"};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    /// The file with its seconds column removed (quoted cells kept whole).
    static QString withoutSeconds(const QString& path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return "unreadable " + path;
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        auto cells = [](const QString& line) {
            QStringList out{QString()};
            bool quoted = false;
            for (const QChar ch : line) {
                if (ch == '"')
                    quoted = !quoted;
                if (ch == ',' && !quoted)
                    out.append(QString());
                else
                    out.last() += ch;
            }
            return out;
        };
        const int at = cells(lines.value(0)).indexOf("seconds");
        QString text;
        for (const QString& line : lines) {
            QStringList c = cells(line);
            if (at >= 0 && at < c.size())
                c.removeAt(at);
            text += c.join(',') + '\n';
        }
        return text;
    }
    QString path(const QString& name) const { return m_dir.filePath(name); }

  private slots:
    void threadsAndShardsGiveTheUnshardedRows_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("hasThreads");
        QTest::newRow("fa-sweep") << QStringList{"fa-sweep", "--dim",    "20",
                                                 "--latent", "2",        "--samples",
                                                 "100,500",  "--trials", "5"}
                                  << true;
        QTest::newRow("posterior") << QStringList{"posterior",
                                                  "--dataset",
                                                  "synthetic",
                                                  "--epochs",
                                                  "20",
                                                  "--every",
                                                  "10",
                                                  "--trials",
                                                  "5",
                                                  "--method",
                                                  "vifa-gauss,sgd-em,swag"}
                                   << true;
        QTest::newRow("latent") << QStringList{"latent",  "--dataset", "synthetic", "--iterations",
                                               "10",      "--trials",  "5",         "--method",
                                               "em,gibbs"}
                                << true;
        QTest::newRow("vae") << QStringList{"vae",       "--dataset",    "two-moons",
                                            "--samples", "200",          "--epochs",
                                            "3",         "--trials",     "5",
                                            "--method",  "vae,vem,ppca", "--iw-samples",
                                            "10",        "--q-steps",    "5"}
                             << true;
        QTest::newRow("neural") << QStringList{"neural", "--dataset", "yacht", "--splits",
                                               "5",      "--epochs",  "2",     "--search-trials",
                                               "2",      "--folds",   "2"}
                                << false;
    }
    void threadsAndShardsGiveTheUnshardedRows() {
        QFETCH(QStringList, args);
        QFETCH(bool, hasThreads);
        const QString name = args.front();
        const QString one = path(name + "-1.csv"), two = path(name + "-2.csv");
        Result r = run(args + QStringList{"--threads", "1", "--out", one});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString reference = withoutSeconds(one);
        QVERIFY(reference.count('\n') > 5);
        if (hasThreads) {
            r = run(args + QStringList{"--threads", "2", "--out", two});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QCOMPARE(withoutSeconds(two), reference);
        }
        // Three shards of five trials (1, 2 and 2 of them), given to merge out of order.
        QStringList shards;
        for (int i = 1; i <= 3; ++i) {
            shards << path(QString("%1-shard%2.csv").arg(name).arg(i));
            r = run(args + QStringList{"--shard", QString("%1/3").arg(i), "--out", shards.last()});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            // Each shard holds rows of the unsharded file and nothing else, its header first,
            // each with two more cells saying which slice of how many trials it is.
            const QStringList lines = withoutSeconds(shards.last()).split('\n', Qt::SkipEmptyParts);
            const QStringList all = reference.split('\n', Qt::SkipEmptyParts);
            const QString column = name == "neural" ? "splits" : "trials";
            QCOMPARE(lines.first(), all.first() + ",shard,run_" + column);
            QVERIFY(lines.size() > 1);
            const QString cells = QString(",%1/3,5").arg(i);
            for (const QString& line : lines.mid(1)) {
                QVERIFY2(line.endsWith(cells), qPrintable(line));
                QVERIFY2(all.contains(line.chopped(cells.size())), qPrintable(line));
            }
        }
        const QString merged = path(name + "-merged.csv");
        r = run({"merge", merged, shards[2], shards[0], shards[1]});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("0-4 (5)"));
        QCOMPARE(withoutSeconds(merged), reference);
    }
    void mergeRefusesShardsThatDoNotFit() {
        const QStringList sweep{"fa-sweep",  "--dim", "10",       "--latent", "2",
                                "--samples", "100",   "--trials", "4"};
        QStringList shards;
        for (int i = 1; i <= 4; ++i) {
            shards << path(QString("s%1.csv").arg(i));
            QCOMPARE(
                run(sweep + QStringList{"--shard", QString("%1/4").arg(i), "--out", shards.last()})
                    .code,
                0);
        }
        const QString out = path("merged.csv"), whole = path("whole.csv");
        QCOMPARE(run(sweep + QStringList{"--out", whole}).code, 0);
        const QString other = path("latent.csv"); // another command's shard, with a trial column
        QCOMPARE(
            run({"latent", "--iterations", "2", "--trials", "2", "--shard", "1/2", "--out", other})
                .code,
            0);
        struct Case {
            QStringList args;
            QString message;
        };
        const QList<Case> cases{
            {{"merge", out, shards[0], whole}, "whole.csv was written without --shard"},
            {{"merge", out, shards[0], shards[0]}, "is given twice"},
            {{"merge", out, shards[0], m_dir.path() + "/./s1.csv"}, "is given twice"},
            {{"merge", out, shards[0], shards[3]}, "shards 2/4, 3/4 are missing"},
            {{"merge", out, shards[0], other}, "its columns differ from"},
            {{"merge", out, shards[0], path("missing.csv")}, "cannot read"},
            {{"merge", out}, "usage: faexplorer-cli merge OUT.csv IN.csv"},
            {{"merge", shards[0], shards[0]}, "is also an input"}};
        for (const Case& c : cases) {
            const Result r = run(c.args);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(c.message), qPrintable(r.err));
            QVERIFY(!QFile::exists(out)); // nothing written
        }
        for (const char* bad : {"0/3", "4/3", "1/0", "x/2", "2", "1/2/3", "-1/2"}) {
            const Result r = run(sweep + QStringList{"--shard", bad, "--out", out});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--shard must be i/n"), qPrintable(r.err));
        }
        const Result r = run(sweep + QStringList{"--threads", "-1", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--threads"));
    }
};

QTEST_GUILESS_MAIN(TestCliShards)
#include "test_cli_shards.moc"
