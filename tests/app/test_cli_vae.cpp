// faexplorer-cli vae as a user runs it: the CSV contract column for column (one row per trial,
// method and checkpoint epoch; empty cells where a value does not apply), determinism, PPCA's row
// on a CSV file against the eigenvalues of its correlation matrix (computed here), the encoder-
// gradient study's own file (--grad-variance-out) beside an unchanged CSV, bad arguments giving
// one line on stderr, exit 2 and no file, and Ctrl-C while the held-out rows are scored.
#include "core/math/SymmetricEigen.h"
#include "tests/support/CsvCells.h"
#include "tests/support/RunProgram.h"

#include <Eigen/Dense>
#include <QtTest>
#include <cmath>
#include <csignal>
#include <numbers>

class TestCliVae : public QObject {
    Q_OBJECT

    struct Result {
        int code;
        QString out, err;
    };
    Result run(const QStringList& args) {
        QProcess p;
        p.start(FAEXPLORER_CLI, QStringList{"vae"} + args);
        if (!p.waitForFinished(120000))
            return {-1, {}, "timeout"};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QTemporaryDir m_dir;

  private slots:
    void writesTheContractColumnsDeterministically() {
        const QStringList args{"--method",     "vem,vae,linear-vae,ppca",
                               "--epochs",     "10",
                               "--trials",     "2",
                               "--dim",        "5",
                               "--samples",    "300",
                               "--hidden",     "8,8",
                               "--iw-samples", "50",
                               "--q-steps",    "20"};
        const QString a = m_dir.filePath("a.csv"), b = m_dir.filePath("b.csv");
        const Result r = run(args + QStringList{"--out", a});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(run(args + QStringList{"--out", b}).code, 0);
        QFile raw(a);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QVERIFY(raw.readAll().contains(",\"8,8\","));
        const auto rows = test::readCsvCells(a), again = test::readCsvCells(b);
        QCOMPARE(rows.first().join(','),
                 QString("dataset,method,latent,hidden,trial,epoch,train_elbo_per_row,"
                         "test_elbo_per_row,test_iw_loglik_per_row,amortization_gap,"
                         "approximation_gap,seconds,status"));
        // Per trial: checkpoints 1, 2, 3, 5, 10 for each fitter, one closed-form row for PPCA.
        QCOMPARE(rows.size(), 1 + 2 * (3 * 5 + 1));
        QCOMPARE(again.size(), rows.size());
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList& c = rows[i];
            QCOMPARE(c.size(), 13);
            QCOMPARE(c[0], QString("nonlinear-synthetic"));
            QCOMPARE(c[2], QString("2"));
            QVERIFY(c[12] == "ok" || c[12] == "psi-floor");
            QVERIFY(test::finiteCell(c[6]) && test::finiteCell(c[7]) && test::finiteCell(c[8]) &&
                    c[11].toDouble() >= 0.0);
            QStringList same = c, other = again[i];
            same.removeAt(11); // seconds differ
            other.removeAt(11);
            QCOMPARE(same, other);
            const QString method = c[1];
            if (method == "ppca") {
                QCOMPARE(c[3], QString());
                QCOMPARE(c[5], QString("0"));
                QCOMPARE(c[7], c[8]); // the held-out log-likelihood in the ELBO column too
                QVERIFY(c[9].isEmpty() && c[10].isEmpty());
            } else {
                QCOMPARE(c[3], method == "linear-vae" ? QString("linear") : QString("8,8"));
                QCOMPARE(c[9].isEmpty(), method == "vem"); // no encoder, no amortisation gap
                QVERIFY(test::finiteCell(c[10]));
                // The IW estimate bounds the ELBO from above (within Monte Carlo error).
                QVERIFY(c[8].toDouble() > c[7].toDouble() - 0.05);
            }
        }
        QVERIFY(r.out.contains("amortisation gap"));
    }

    // PPCA's row on a CSV: z-scored columns, so the maximum log-likelihood per row is
    // −½[D log 2π + Σ_{k≤K} log λ_k + (D − K) log σ² + D] with λ the correlation matrix's
    // eigenvalues and σ² the mean of the discarded ones.
    void ppcaRowMatchesTheCorrelationEigenvalues() {
        const int n = 120, d = 4;
        Eigen::MatrixXd X(n, d);
        QByteArray text = "a,b,c,e\n";
        for (int i = 0; i < n; ++i) {
            const double t = i * 0.37;
            X.row(i) << std::sin(t), std::cos(1.3 * t) + 0.2 * std::sin(t),
                t * 0.01 + std::sin(2 * t), std::cos(t) * std::sin(0.5 * t);
            for (int j = 0; j < d; ++j)
                text += QByteArray::number(X(i, j), 'g', 17) + (j + 1 < d ? "," : "\n");
        }
        const QString csv = m_dir.filePath("table.csv"), out = m_dir.filePath("ppca.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        const Result r = run({"--dataset", csv, "--method", "ppca", "--latent", "1",
                              "--test-fraction", "0", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto rows = test::readCsvCells(out);
        QCOMPARE(rows.size(), 2);
        const Eigen::MatrixXd centred = X.rowwise() - X.colwise().mean();
        Eigen::MatrixXd S = centred.transpose() * centred / n;
        const Eigen::VectorXd sd = S.diagonal().array().sqrt();
        S = sd.cwiseInverse().asDiagonal() * S * sd.cwiseInverse().asDiagonal();
        const Eigen::VectorXd ev = fa::symmetricEigen(S, false).values;
        const double sigma2 = ev.head(d - 1).mean();
        const double expected = -0.5 * (d * std::log(2.0 * std::numbers::pi) + std::log(ev(d - 1)) +
                                        (d - 1) * std::log(sigma2) + d);
        QVERIFY2(std::abs(rows[1][6].toDouble() - expected) < 1e-9,
                 qPrintable(rows[1][6] + " vs " + QString::number(expected, 'g', 12)));
        QVERIFY(rows[1][7].isEmpty() && rows[1][8].isEmpty()); // nothing held out
    }

    // --grad-variance-out: its own columns, a row per (checkpoint, estimator), and the main CSV
    // exactly what the same run writes without it (the study draws from streams of its own).
    void theGradientStudyHasItsOwnFileAndLeavesTheCsvAlone() {
        const QStringList args{"--method",
                               "vae,ppca",
                               "--epochs",
                               "3",
                               "--dim",
                               "4",
                               "--samples",
                               "200",
                               "--hidden",
                               "6",
                               "--iw-samples",
                               "20",
                               "--q-steps",
                               "5",
                               "--encoder-gradient",
                               "score-baseline",
                               "--encoder-samples",
                               "2"};
        const QString a = m_dir.filePath("study-a.csv"), b = m_dir.filePath("study-b.csv"),
                      g = m_dir.filePath("study-grad.csv");
        const Result with =
            run(args + QStringList{"--out", a, "--grad-variance-out", g, "--grad-draws", "20"});
        QVERIFY2(with.code == 0, qPrintable(with.err));
        QCOMPARE(run(args + QStringList{"--out", b}).code, 0);
        QCOMPARE(test::withoutColumn(test::readCsvCells(a), 11),
                 test::withoutColumn(test::readCsvCells(b), 11)); // seconds aside
        const auto rows = test::readCsvCells(g);
        QCOMPARE(rows.first().join(','),
                 QString("dataset,method,latent,hidden,trial,epoch,trained_with,estimator,samples,"
                         "draws,rows,mean_norm,variance"));
        QCOMPARE(rows.size(), 1 + 3 * 3); // checkpoints 1, 2, 3; three estimators each
        QStringList estimators;
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList& c = rows[i];
            QCOMPARE(c[1], QString("vae"));
            QCOMPARE(c[3], QString("6"));
            QCOMPARE(c[5], QString::number((i - 1) / 3 + 1));
            QCOMPARE(c[6], QString("score-baseline"));
            QCOMPARE(c.mid(8, 3), (QStringList{"2", "20", "100"})); // 160 fitting rows, batch 100
            QVERIFY(c[11].toDouble() > 0.0 && c[12].toDouble() > 0.0);
            estimators << c[7];
        }
        QCOMPARE(estimators.mid(0, 3), (QStringList{"reparam", "score", "score-baseline"}));
    }

    // Issue 25: scoring ignored Ctrl-C (41 s and more on 200k rows) and the progress line stayed
    // at "epoch 2/2". Here scoring would take minutes (10⁵ Adam steps for q*, then 10⁶ draws).
    void ctrlCWhileScoringStopsAtOnceAndKeepsTheOldFile() {
        const QString out = m_dir.filePath("scoring.csv");
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("previous\n");
        }
        // The line says it is scoring (stderr is a pipe: a line every 5 s at most).
        const test::InterruptResult r =
            test::interruptWhenSaid(FAEXPLORER_CLI,
                                    {"vae", "--method", "vem", "--epochs", "1", "--q-steps",
                                     "100000", "--iw-samples", "1000000", "--out", out},
                                    "scoring");
        const QString& err = r.result.err;
        QVERIFY2(r.said && err.contains("vae: trial 1/1, vem: scoring held-out rows after epoch "
                                        "1/1 (Ctrl-C stops and keeps the finished trials)"),
                 qPrintable(err));
        QVERIFY(r.runningAtSignal);
        QCOMPARE(r.result.code, 130);
        QVERIFY2(err.contains("interrupted before any trial finished"), qPrintable(err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("previous\n"));
        QCOMPARE(QDir(m_dir.path()).entryList({"scoring.csv.tmp-*"}), QStringList());
    }

    void badArgumentsGiveOneLineExitTwoAndNoFile_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("method") << QStringList{"--method", "vae,gibbs"} << "unknown method";
        QTest::newRow("hidden") << QStringList{"--hidden", "5,5,5,5"} << "three hidden";
        // Over 4 GB, refused before anything is allocated: 2 x 8 x 10^6 x 2000 bytes of rows;
        // 4 x 8 bytes for each of the 4.0e8 weights of the 10-D decoder and encoder.
        QTest::newRow("beyond a double") // was "not a number", as for "abc"
            << QStringList{"--lr", "1e400"} << "--lr: '1e400' is beyond the range of a double";
        // Refused before the run, not after it (the run had gone its whole length first).
        QTest::newRow("side output in a missing folder")
            << QStringList{"--grad-variance-out", "/nonexistent-folder/g.csv"}
            << "'/nonexistent-folder/g.csv': the folder does not exist";
        QTest::newRow("rows over 4 GB")
            << QStringList{"--dim", "2000", "--samples", "1000000"} << "rows would take 32.0 GB";
        QTest::newRow("network over 4 GB") << QStringList{"--hidden", "10000,10000,10000"}
                                           << "encoder would take 12.8 GB in memory (at most 4";
        QTest::newRow("latent") << QStringList{"--latent", "10"} << "smaller than D";
        QTest::newRow("spectrum") << QStringList{"--dataset", "two-moons", "--spectrum", "1:5"}
                                  << "synthetic only";
        QTest::newRow("true latent")
            << QStringList{"--dataset", "pinwheel", "--true-latent", "1"} << "true-latent";
        QTest::newRow("dim on UCI")
            << QStringList{"--dataset", "boston", "--dim", "5"} << "generated";
        QTest::newRow("noise") << QStringList{"--noise", "laplace"} << "unknown noise";
        QTest::newRow("twice") << QStringList{"--method", "vae,ppca,vae"} << "listed twice";
        QTest::newRow("one sigma")
            << QStringList{"--noise", "fixed", "--linear-noise", "diagonal"} << "go together";
        QTest::newRow("variance") << QStringList{"--noise-variance", "0.5"} << "fixed only";
        QTest::newRow("file") << QStringList{"--dataset", "/nonexistent/x.csv"} << "x.csv";
        QTest::newRow("estimator")
            << QStringList{"--encoder-gradient", "reinforce"} << "unknown encoder gradient";
        QTest::newRow("baseline draws")
            << QStringList{"--encoder-gradient", "score-baseline"} << "at least 2 draws";
        QTest::newRow("estimator without vae")
            << QStringList{"--method", "vem", "--encoder-gradient", "score"} << "VAE";
        QTest::newRow("grad draws") << QStringList{"--grad-draws", "50"} << "--grad-variance-out";
        QTest::newRow("network noise, linear")
            << QStringList{"--noise", "network", "--hidden", "0"} << "needs a hidden layer";
        QTest::newRow("linear network noise")
            << QStringList{"--method", "linear-vae", "--linear-noise", "network"}
            << "linear VAE's noise";
        QTest::newRow("swiss roll")
            << QStringList{"--dataset", "swiss-roll", "--dim", "2", "--latent", "1"} << "D >= 3";
    }
    void badArgumentsGiveOneLineExitTwoAndNoFile() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const QString out = m_dir.filePath("bad.csv");
        const Result r = run(args + QStringList{"--epochs", "1", "--out", out});
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY2(r.err.contains(says), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        const Result noOut = run({"--epochs", "1"});
        QCOMPARE(noOut.code, 2);
        QVERIFY(noOut.err.contains("--out"));
    }
};

QTEST_GUILESS_MAIN(TestCliVae)
#include "test_cli_vae.moc"
