// Issue 25's fuzz findings about numbers and small gaps: `ok` only beside sensible numbers (a
// diverged fit says `diverged`, tiny data is refused), the CLI's ranges are the window's, hex is
// refused for real numbers as for whole ones, epoch:N and the bound's start are bounded,
// duplicate methods are refused by every command, and a dataset name with a comma is quoted.
// Every command answers --help from the command table (issue 26). grad-variance's families beyond
// the Gaussian (issue 28) refuse what they cannot do and vanish at their optimum.
#include "tests/support/CsvCells.h"
#include "tests/support/RunProgram.h"

#include <QtTest>

#include <cmath>

class TestCliBounds : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    using Result = test::ProgramResult;
    Result run(const QStringList& args) { return test::runProgram(FAEXPLORER_CLI, args); }
    QString path(const QString& name) const { return m_dir.filePath(name); }
    static QStringList lines(const QString& file) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    }

  private slots:
    // Every command in the program's usage answers --help with its own usage (the command table,
    // app/cli/CommandTable.cpp); vae's lists every option its parser takes, with its range.
    void everyCommandHasHelp() {
        const Result all = run({"--help"});
        QCOMPARE(all.code, 0);
        const QString commands = all.out.section("commands:\n", 1).section("\n\n", 0, 0);
        QStringList names;
        for (const QString& line : commands.split('\n', Qt::SkipEmptyParts))
            names << line.trimmed().section(' ', 0, 0);
        QCOMPARE(names.size(), 13); // gp (issue 28) is the 13th
        for (const QString& name : names) {
            const Result r = run({name, "--help"});
            QVERIFY2(r.code == 0, qPrintable(name + ": " + r.err));
            QVERIFY2(r.out.startsWith("usage: faexplorer-cli " + name), qPrintable(r.out));
        }
        const Result vae = run({"vae", "--help"});
        for (const char* flag : {"--latent [2]", "--lr [0.003]", "--dim [10]", "--seed [0]",
                                 "--iw-samples [1000]", "--dataset [nonlinear-synthetic]"})
            QVERIFY2(vae.out.contains(flag), flag);
        QVERIFY(vae.out.contains("(whole, 1 to 100)")); // --latent's one range
        // An option that takes a value still refuses a missing one; --help elsewhere is refused.
        QCOMPARE(run({"vae", "--latent", "--help"}).code, 2);
    }

    void refusedBeforeTheRun_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        // The ranges of the window's fields.
        QTest::newRow("sigma 1e10")
            << QStringList{"posterior", "--sigma", "1e10"} << "--sigma must lie in [1e-08, 100]";
        QTest::newRow("lr-c 100") << QStringList{"posterior", "--lr-c", "100"}
                                  << "--lr-c must lie in [1e-07, 10]";
        QTest::newRow("posterior K 5000")
            << QStringList{"posterior", "--latent", "5000"} << "between 1 and 1000";
        QTest::newRow("grad-variance sigma")
            << QStringList{"grad-variance", "--sigma", "1e10"} << "--sigma must lie in";
        QTest::newRow("neural lr 10")
            << QStringList{"neural", "--lr", "10"} << "--lr must lie in [1e-06, 1]";
        QTest::newRow("neural K 500")
            << QStringList{"neural", "--latent", "500"} << "between 1 and 100";
        // Hex is not a decimal number, for reals as for whole numbers.
        QTest::newRow("hex real") << QStringList{"posterior", "--lr-c", "0x10"} << "not a number";
        QTest::newRow("hex float") << QStringList{"fa-sweep", "--lr", "0x1p-3"} << "not a number";
        QTest::newRow("hex spectrum")
            << QStringList{"fa-sweep", "--spectrum", "0x1:10"} << "not a number";
        QTest::newRow("hex integer") << QStringList{"fa-sweep", "--dim", "0x10"} << "whole number";
        // Bounded like --epochs; the bound's start like α everywhere.
        QTest::newRow("epoch:1e11")
            << QStringList{"grad-variance", "--at", "epoch:100000000000"} << "between 0 and";
        QTest::newRow("start alpha 1e300")
            << QStringList{"vi-bound", "--start-alpha", "1e300"} << "[1e-08, 1e+08]";
        QTest::newRow("start beta 1e-20")
            << QStringList{"vi-bound", "--start-beta", "1e-20"} << "[1e-08, 1e+08]";
        // A method listed twice, refused by every command as vae does.
        QTest::newRow("latent em,em")
            << QStringList{"latent", "--method", "em,em"} << "'em' is listed twice";
        QTest::newRow("neural twice") << QStringList{"neural", "--method", "vifa-gauss,vifa-gauss"}
                                      << "'vifa-gauss' is listed twice";
        QTest::newRow("posterior twice")
            << QStringList{"posterior", "--method", "swag,vifa-gauss,swag"}
            << "'swag' is listed twice";
        QTest::newRow("vae twice")
            << QStringList{"vae", "--method", "ppca,ppca"} << "'ppca' is listed twice";
        QTest::newRow("fa-sweep twice")
            << QStringList{"fa-sweep", "--algorithms", "em,em"} << "'em' is listed twice";
        QTest::newRow("estimator twice")
            << QStringList{"grad-variance", "--estimator", "score,score"}
            << "'score' is listed twice";
        // Gradients beyond the Gaussian: a discrete z has no reparameterisation; each data set
        // takes its own families and none of the Gaussian fits' options.
        QTest::newRow("bernoulli reparam")
            << QStringList{"grad-variance", "--dataset", "bernoulli-latent", "--estimator",
                           "reparam"}
            << "reparam does not exist for vi-bernoulli";
        QTest::newRow("poisson bernoulli")
            << QStringList{"grad-variance", "--dataset", "poisson-synthetic", "--method",
                           "vi-bernoulli"}
            << "poisson-synthetic takes --method vi-gamma or vi-exponential";
        QTest::newRow("poisson alpha")
            << QStringList{"grad-variance", "--dataset", "poisson-synthetic", "--alpha", "2"}
            << "--alpha does not apply to poisson-synthetic";
        QTest::newRow("poisson epoch")
            << QStringList{"grad-variance", "--dataset", "poisson-synthetic", "--at", "epoch:3"}
            << "--at must be optimum or start";
        // Tiny data: vae refuses what latent refuses (K = 1 needs more than 2 fitting rows).
        QTest::newRow("vae 3 rows")
            << QStringList{"vae", "--dataset", "@/three.csv", "--method", "ppca", "--latent", "1"}
            << "fitting rows";
    }
    void refusedBeforeTheRun() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QFile three(path("three.csv"));
        QVERIFY(three.open(QIODevice::WriteOnly));
        three.write("a,b,c\n1,2,3\n2,1,4\n3,3,1\n");
        three.close();
        for (QString& a : args)
            a.replace("@", m_dir.path());
        const QString out = path("refused.csv");
        QFile::remove(out);
        const Result r = run(args + QStringList{"--out", out});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void aDivergedFitIsNotOk() {
        // Rates of 10 without clipping: VIPPCA's relative covariance distance reached 5e127,
        // finite, and was written `ok`. Beyond 1e6 it is `diverged`.
        // (At epoch 20 the state is still finite; from epoch 40 on it is not.)
        const QString out = path("vippca.csv");
        Result r = run({"posterior", "--method", "vippca", "--lr-c", "10", "--lr-f", "10",
                        "--lr-gamma", "10", "--max-grad-norm", "0", "--epochs", "20", "--every",
                        "10", "--trials", "1", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QStringList rows = lines(out);
        QCOMPARE(rows.size(), 3);
        for (const QString& row : rows.mid(1)) {
            const QStringList c = test::csvCells(row);
            QVERIFY2(std::isfinite(c[6].toDouble()) && c[6].toDouble() > 1e6, qPrintable(row));
            QCOMPARE(c.last(), QString("diverged"));
        }
        QVERIFY(r.out.contains("0/1")); // and the summary counts no ok trial

        // neural: test targets of 10^18 against 5 training rows that (with this seed) hold at
        // most 10^16: an NMLL per point of 1e9, finite, was `ok`.
        const QString csv = path("wild.csv"), neural = path("neural.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,y\n");
        for (int i = 0; i < 100; ++i)
            f.write(QByteArray::number(i % 10) + "," + QByteArray::number(i * 7 % 11) + ",1e" +
                    QByteArray::number(2 * (i % 10)) + "\n");
        f.close();
        r = run({"neural", "--dataset", csv, "--splits", "1", "--epochs", "3", "--search-trials",
                 "1", "--folds", "2", "--train-fraction", "0.05", "--seed", "2", "--out", neural});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        rows = lines(neural);
        QCOMPARE(rows.size(), 2);
        const QStringList c = test::csvCells(rows[1]);
        QVERIFY2(c[4].toDouble() > 1e6, qPrintable(rows[1]));
        QCOMPARE(c[c.size() - 2], QString("diverged")); // status, then coverage_95
    }

    // Once diverged, a fit stays `diverged` at its later checkpoints (VIFA at rates of 10:
    // 1.25e6 at epoch 180, 3.2e5 at 200 was `ok`). The trajectory is chaotic: with AVX-512 its
    // distance comes back under 1e6, on the portable SSE2 build it does not, so the case of a
    // distance back under is held by hand-written rows in test_posterior; here the command's
    // rows are checked to follow the rule, whichever way they went.
    void aFitThatDivergedStaysDiverged() {
        const QString out = path("vifa.csv");
        const Result r =
            run({"posterior", "--method", "vifa-gauss", "--lr-c", "10", "--lr-f", "10",
                 "--lr-gamma", "10", "--epochs", "200", "--trials", "1", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        bool gone = false;
        for (const QString& row : lines(out).mid(1)) {
            const QStringList c = test::csvCells(row);
            gone = gone || c[6].toDouble() > 1e6;
            QCOMPARE(c.last(), QString(gone ? "diverged" : "ok"));
        }
        QVERIFY(gone); // the fit did diverge
    }

    // grad-variance beyond the Gaussian: one row per (estimator, S, block), and at the optimum
    // (the exact posterior; the exponential's best rate B / A) the exact gradient is 0, so each
    // estimator's mean lies within 4 standard errors of it.
    void gradientsBeyondTheGaussianVanishAtTheOptimum() {
        const QList<QPair<QStringList, QStringList>> runs{
            {{"poisson-synthetic", "vi-gamma"}, {"log-shape", "log-rate"}},
            {{"poisson-synthetic", "vi-exponential"}, {"log-rate"}},
            {{"bernoulli-latent", "vi-bernoulli"}, {"logits"}}};
        for (const auto& [args, blocks] : runs) {
            const QString out = path("gv.csv");
            const Result r = run({"grad-variance", "--dataset", args[0], "--method", args[1],
                                  "--samples", "10", "--trials", "400", "--out", out});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QStringList rows = lines(out);
            const int estimators = args[1] == "vi-bernoulli" ? 2 : 3;
            QCOMPARE(rows.size(), 1 + estimators * int(blocks.size()));
            for (const QString& row : rows.mid(1)) {
                const QStringList c = test::csvCells(row); // ...,block,mean_norm,variance,seconds
                QVERIFY(blocks.contains(c[4]));
                // The variance is the trace of the estimates' covariance, so under a zero
                // gradient |mean|² is about trace / T for a block of any size.
                const double se = std::sqrt(c[6].toDouble() / 400);
                QVERIFY2(c[5].toDouble() < 4 * se, qPrintable(row));
            }
        }
    }

    void aDatasetNameWithACommaIsQuoted() {
        // neural wrote `my,data` bare: 10 cells under a 9-cell header.
        const QString csv = path("my,data.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("a,b,y\n");
        for (int i = 0; i < 40; ++i)
            f.write(QByteArray::number(std::sin(1.0 + i)) + "," +
                    QByteArray::number(std::cos(2.0 * i)) + "," +
                    QByteArray::number(std::sin(1.0 + i) - std::cos(2.0 * i)) + "\n");
        f.close();
        const QString out = path("neural.csv");
        Result r = run({"neural", "--dataset", csv, "--splits", "1", "--epochs", "1",
                        "--search-trials", "1", "--folds", "2", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QStringList rows = lines(out);
        QVERIFY(rows.size() == 2);
        QCOMPARE(test::csvCells(rows[1]).size(), 9);
        QCOMPARE(test::csvCells(rows[1]).first(), QString("my,data"));
        QVERIFY(rows[1].startsWith("\"my,data\","));
        // The posterior command's rows too.
        r = run({"posterior", "--dataset", csv, "--epochs", "2", "--trials", "1", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        rows = lines(out);
        QCOMPARE(test::csvCells(rows[1]).size(), test::csvCells(rows[0]).size());
    }
};

QTEST_GUILESS_MAIN(TestCliBounds)
#include "test_cli_bounds.moc"
