// Issue 25's fuzz findings about files, as a user meets them: an output that is also the input
// (the same path, a symbolic link, a hard link, a bundled set's file) is refused before anything
// runs and the data stay as they were; a write-protected output is refused, never replaced; merge
// refuses a shard cut mid-line, a forgotten shard, shards of different runs and a FIFO, and
// `merge --help` prints its usage instead of writing a file named --help.
#include "tests/support/RunProgram.h"

#include <QRegularExpression>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

class TestCliFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    using Result = test::ProgramResult;
    Result run(const QStringList& args, int timeoutMs = 120000) {
        return test::runProgram(FAEXPLORER_CLI, args, m_dir.path(), timeoutMs);
    }
    QString path(const QString& name) const { return m_dir.filePath(name); }
    static QByteArray read(const QString& file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
    }
    static bool write(const QString& file, const QByteArray& text) {
        QFile f(file);
        return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
    }
    /// 60 rows of 4 columns of numbers, with a target y: data for every command.
    static QByteArray data() {
        QByteArray text = "a,b,c,y\n";
        for (int i = 0; i < 60; ++i) {
            const double a = std::sin(1.0 + i), b = std::cos(3.0 * i), c = std::sin(0.3 * i * i);
            text += QByteArray::number(a) + "," + QByteArray::number(b) + "," +
                    QByteArray::number(c) + "," + QByteArray::number(a - 2 * b + 0.5 * c) + "\n";
        }
        return text;
    }
    QStringList temporaries() const {
        return QDir(m_dir.path()).entryList({"*.tmp-*"}, QDir::Files | QDir::System);
    }

  private slots:
    void anOutputThatIsAnInputIsRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("latent") << QStringList{"latent", "--latent", "1", "--iterations", "2"};
        QTest::newRow("vae") << QStringList{"vae", "--method", "ppca", "--latent",
                                            "1",   "--epochs", "1"};
        QTest::newRow("posterior") << QStringList{"posterior", "--epochs", "2", "--trials", "1"};
        QTest::newRow("neural") << QStringList{
            "neural", "--splits", "1", "--epochs", "1", "--search-trials", "1", "--folds", "2"};
        QTest::newRow("grad-variance") << QStringList{"grad-variance", "--trials", "2"};
        QTest::newRow("vi-bound") << QStringList{"vi-bound", "--iterations", "2"};
    }
    void anOutputThatIsAnInputIsRefused() {
        QFETCH(QStringList, args);
        const QString csv = path("my.csv"), soft = path("soft.csv"), hard = path("hard.csv");
        QVERIFY(write(csv, data()));
        QFile::remove(soft);
        QFile::remove(hard);
        QVERIFY(QFile::link(csv, soft));
        QCOMPARE(::link(csv.toLocal8Bit().constData(), hard.toLocal8Bit().constData()), 0);
        // The same path, a relative one, a symbolic link and a hard link to it.
        for (const QString& out : {csv, QString("./my.csv"), soft, hard}) {
            const Result r = run(args + QStringList{"--dataset", csv, "--out", out});
            QCOMPARE(r.code, 2);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY2(r.err.contains("is also an input"), qPrintable(r.err));
            QCOMPARE(read(csv), data()); // the data are untouched
            QVERIFY(temporaries().isEmpty());
        }
        // Another file is written as usual.
        const Result r = run(args + QStringList{"--dataset", csv, "--out", path("results.csv")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(path("results.csv")));
    }
    // A command's further outputs (latent --imputation and --gibbs-summary, vae
    // --grad-variance-out) are held to the same rule, and to one another and --out: two outputs
    // naming one file would leave only the second written. Refused before anything is written.
    void everyOutputOfACommandIsChecked_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("flag");
        QTest::newRow("latent --imputation")
            << QStringList{"latent", "--model",      "ppca", "--method",        "em", "--latent",
                           "1",      "--iterations", "2",    "--hide-fraction", "0.1"}
            << "--imputation";
        QTest::newRow("latent --gibbs-summary")
            << QStringList{"latent", "--method", "gibbs", "--latent", "1", "--iterations", "4"}
            << "--gibbs-summary";
        QTest::newRow("vae --grad-variance-out")
            << QStringList{"vae",      "--method", "vae",      "--latent", "1",
                           "--hidden", "4",        "--epochs", "1"}
            << "--grad-variance-out";
    }
    void everyOutputOfACommandIsChecked() {
        QFETCH(QStringList, args);
        QFETCH(QString, flag);
        const QString csv = path("input.csv"), out = path("out.csv"), link = path("out-link.csv");
        QVERIFY(write(csv, data()));
        QVERIFY(write(out, "earlier results\n"));
        QFile::remove(link);
        QVERIFY(QFile::link(out, link));
        const QStringList base = args + QStringList{"--dataset", csv};
        Result r = run(base + QStringList{"--out", path("x.csv"), flag, csv});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is also an input"), qPrintable(r.err));
        r = run(base + QStringList{"--out", out, flag, link});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("name one file"), qPrintable(r.err));
        QCOMPARE(read(csv), data()); // nothing the user had is touched
        QCOMPARE(read(out), QByteArray("earlier results\n"));
        QVERIFY(!QFile::exists(path("x.csv")));
        r = run(base + QStringList{"--out", path("x.csv"), flag, path("y.csv")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(path("x.csv")) && QFile::exists(path("y.csv")));
        QFile::remove(path("x.csv"));
        QFile::remove(path("y.csv"));
    }

    void aBundledSetsFileIsAnInputToo() {
        // --data-dir D --dataset boston reads D/boston_housing.csv: writing there is refused.
        const QString bundled =
            QFileInfo(FAEXPLORER_CLI).dir().filePath("../share/faexplorer/data/boston_housing.csv");
        QDir(m_dir.path()).mkpath("data");
        QFile::remove(path("data/boston_housing.csv"));
        QVERIFY(QFile::copy(bundled, path("data/boston_housing.csv")));
        const QByteArray before = read(path("data/boston_housing.csv"));
        const Result r = run({"latent", "--dataset", "boston", "--data-dir", path("data"),
                              "--iterations", "2", "--out", path("data/boston_housing.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is also an input"), qPrintable(r.err));
        QCOMPARE(read(path("data/boston_housing.csv")), before);
    }
    void aWriteProtectedOutputIsRefused() {
        // Renaming over a file needs only the folder's permission, so a file the user made
        // read-only was replaced (by root too). Refused now, with the file as it was.
        const QString out = path("protected.csv");
        QVERIFY(write(out, "keep me\n"));
        QVERIFY(QFile::setPermissions(out, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const Result r = run({"fa-sweep", "--dim", "10", "--latent", "2", "--samples", "100",
                              "--trials", "1", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("write-protected"), qPrintable(r.err));
        QCOMPARE(read(out), QByteArray("keep me\n"));
        QVERIFY(temporaries().isEmpty());
        // Through a symbolic link, the same.
        QVERIFY(QFile::link(out, path("protected-link.csv")));
        QCOMPARE(run({"fa-sweep", "--dim", "10", "--latent", "2", "--samples", "100", "--trials",
                      "1", "--out", path("protected-link.csv")})
                     .code,
                 2);
        QCOMPARE(read(out), QByteArray("keep me\n"));
    }

    void mergeRefusesBrokenRuns() {
        const QStringList sweep{"fa-sweep",  "--dim",   "10",       "--latent", "2",
                                "--samples", "100,200", "--trials", "4"};
        const QString s1 = path("m1.csv"), s2 = path("m2.csv"), out = path("merged.csv");
        QCOMPARE(run(sweep + QStringList{"--shard", "1/2", "--out", s1}).code, 0);
        QCOMPARE(run(sweep + QStringList{"--shard", "2/2", "--out", s2}).code, 0);
        // Each shard says which slice of how many trials it is, after the command's columns.
        const QList<QByteArray> lines = read(s2).split('\n');
        QVERIFY(lines[0].endsWith(",status,shard,run_trials"));
        QVERIFY2(lines[1].endsWith(",2/2,4"), lines[1].constData());
        Result r = run({"merge", out, s1, s2});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(read(out).startsWith("dim,latent,spectrum_lo,spectrum_hi,generator,samples,trial,"
                                     "algorithm,rel_cov_dist,w2,w2_over_dim,rel_mean_dist,seconds,"
                                     "status\n"));
        QFile::remove(out);

        const QByteArray whole = read(s2);
        const QString cut = path("cut.csv"), shortRow = path("short.csv"), other = path("o.csv");
        QVERIFY(write(cut, whole.left(whole.size() - 7))); // cut in the last line
        QByteArray text = whole;
        const int second = text.indexOf('\n', text.indexOf('\n') + 1); // end of the first row
        text.remove(second - 20, 20);                                  // 9 of 13 cells remain
        QVERIFY(write(shortRow, text));
        QCOMPARE(run({"latent", "--iterations", "2", "--trials", "2", "--shard", "2/2", "--out",
                      path("l2.csv")})
                     .code,
                 0);
        QCOMPARE(run({"latent", "--iterations", "3", "--trials", "2", "--shard", "1/2", "--out",
                      path("l1.csv")})
                     .code,
                 0);
        QCOMPARE(run({"latent", "--iterations", "2", "--latent", "1", "--trials", "2", "--shard",
                      "1/2", "--out", path("k1.csv")})
                     .code,
                 0);
        QCOMPARE(run(sweep + QStringList{"--out", other}).code, 0); // unsharded
        const QString fifo = path("pipe.csv");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        struct Case {
            QStringList inputs;
            QString message;
        };
        const QList<Case> cases{
            {{s1, cut}, "the last line has no end"},
            {{s1, shortRow}, "cells, the header has 16"},
            {{s1}, "shard 2/2 is missing"},
            {{s2}, "shard 1/2 is missing"},
            {{path("l1.csv"), path("l2.csv")}, "shards of different runs"},
            {{path("k1.csv"), path("l2.csv")}, "column latent is '2' against '1'"},
            {{s1, other}, "was written without --shard"},
            {{s1, fifo}, "not a regular file"},
        };
        for (const Case& c : cases) {
            r = run(QStringList{"merge", out} + c.inputs, 20000);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(c.message), qPrintable(c.message + " / " + r.err));
            QVERIFY(!QFile::exists(out));
        }
        // --help prints the usage; no file named --help appears.
        r = run({"merge", "--help", s1});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("usage: faexplorer-cli merge"));
        QVERIFY(!QFile::exists(path("--help")));
        r = run({"merge", "--out", s1, s2});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(path("--out")));
        // More shards than trials: a shard would be empty and could not say which it is.
        r = run(sweep + QStringList{"--shard", "5/5", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("a shard would be empty"), qPrintable(r.err));
    }

    // The program starts itself again with glibc's malloc tunable for huge pages added to
    // GLIBC_TUNABLES (app/HugePages.h), keeping what the user set; =0 there is left alone. Read
    // from /proc/PID/environ while fa-sweep waits for a reader of its FIFO (exec keeps the PID).
    // Some glibc versions cut their copy of the string at each ':' as they read it: either is
    // taken.
    void theProgramRunsWithHugePagesAsked_data() {
        QTest::addColumn<QString>("given"); // "-": no GLIBC_TUNABLES at all
        QTest::addColumn<QString>("present");
        QTest::addColumn<QString>("absent");
        QTest::newRow("none") << "-"
                              << "\nGLIBC_TUNABLES=glibc\\.malloc\\.hugetlb=1\n"
                              << "";
        QTest::newRow("the user's own")
            << "glibc.malloc.tcache_count=0"
            << "\nGLIBC_TUNABLES=glibc\\.malloc\\.tcache_count=0[:\n]glibc\\.malloc\\.hugetlb=1\n"
            << "";
        QTest::newRow("turned off") << "glibc.malloc.hugetlb=0"
                                    << "\nGLIBC_TUNABLES=glibc\\.malloc\\.hugetlb=0\n"
                                    << "glibc.malloc.hugetlb=1";
    }
    void theProgramRunsWithHugePagesAsked() {
        QFETCH(QString, given);
        QFETCH(QString, present);
        QFETCH(QString, absent);
        const QString fifo = path("environ-" + QString(QTest::currentDataTag()) + ".csv");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("GLIBC_TUNABLES");
        if (given != "-")
            env.insert("GLIBC_TUNABLES", given);
        cli.setProcessEnvironment(env);
        cli.setReadChannel(QProcess::StandardError);
        cli.start(FAEXPLORER_CLI, {"fa-sweep", "--dim", "10", "--latent", "2", "--samples", "100",
                                   "--trials", "1", "--out", fifo});
        QVERIFY(cli.waitForStarted());
        QByteArray err;
        while (!err.contains("waiting for a program to read it") && cli.waitForReadyRead(20000))
            err += cli.readAllStandardError();
        QVERIFY2(err.contains("waiting for a program to read it"), err.constData());
        QFile environ(QString("/proc/%1/environ").arg(cli.processId()));
        QVERIFY(environ.open(QIODevice::ReadOnly));
        const QString entries = "\n" + QString::fromUtf8(environ.readAll()).replace('\0', '\n');
        QFile comm(QString("/proc/%1/comm").arg(cli.processId()));
        QVERIFY(comm.open(QIODevice::ReadOnly));
        const QByteArray name = comm.readAll().trimmed();
        const int reader = ::open(fifo.toLocal8Bit().constData(), O_RDONLY); // let it finish
        QVERIFY(reader >= 0);
        QByteArray csv;
        char buffer[4096];
        for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;)
            csv.append(buffer, n);
        ::close(reader);
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY2(entries.contains(QRegularExpression(present)), qPrintable(present));
        if (!absent.isEmpty())
            QVERIFY(!entries.contains(absent));
        QCOMPARE(name, QByteArray("faexplorer-cli")); // ps, pgrep and top still know it
        QVERIFY(csv.startsWith("dim,latent,")); // the sweep ran to its end in the restarted program
    }
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "test_cli_files.moc"
