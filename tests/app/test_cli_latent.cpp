// faexplorer-cli latent as a user runs it: the CSV contract column for column, determinism, the
// PPCA closed form of a CSV file against eigenvalues of its correlation matrix (computed here),
// the EM staircase in the written rows, missing values opt-in, a Heywood case named, and bad
// arguments giving one line on stderr, exit 2 and no file.
#include "core/math/SymmetricEigen.h"
#include "tests/support/CsvCells.h"

#include <Eigen/Dense>
#include <QtTest>
#include <cmath>
#include <numbers>

class TestCliLatent : public QObject {
    Q_OBJECT

    struct Result {
        int code;
        QString out, err;
    };
    Result run(const QStringList& args) {
        QProcess p;
        p.start(FAEXPLORER_CLI, QStringList{"latent"} + args);
        if (!p.waitForFinished(120000))
            return {-1, {}, "timeout"};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    /// The rows of a CSV as cells (header included).
    QString writeFile(const QString& name, const QByteArray& text) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(text);
        return path;
    }
    QTemporaryDir m_dir;

  private slots:
    // Header, one row per (trial, method, checkpoint), statuses from the contract, empty cells
    // where a number does not apply, and the same numbers from the same arguments.
    void writesTheContractColumnsDeterministically() {
        const QStringList args{"--method",     "em,gibbs,svd,online-em,online-sga",
                               "--iterations", "100",
                               "--trials",     "2",
                               "--dim",        "6",
                               "--samples",    "400",
                               "--burn-in",    "20"};
        const QString a = m_dir.filePath("a.csv"), b = m_dir.filePath("b.csv");
        QCOMPARE(run(args + QStringList{"--out", a}).code, 0);
        QCOMPARE(run(args + QStringList{"--out", b}).code, 0);
        const auto rows = test::readCsvCells(a), again = test::readCsvCells(b);
        QCOMPARE(rows.first().join(','),
                 QString("dataset,model,method,latent,components,trial,iteration,loglik_per_row,"
                         "heldout_loglik_per_row,elbo_per_row,rel_cov_dist,seconds,status"));
        // Checkpoints 1, 2, 3, 5, 10, 20, 30, 50, 100: 9 rows per method and trial.
        QCOMPARE(rows.size(), 1 + 2 * 5 * 9);
        QCOMPARE(again.size(), rows.size());
        const QStringList statuses{"ok", "psi-floor", "diverged", "not-converged"};
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList& r = rows[i];
            QCOMPARE(r.size(), 13);
            QCOMPARE(r[0], QString("synthetic"));
            QCOMPARE(r[1], QString("fa"));
            QCOMPARE(r[3], QString("2"));
            QCOMPARE(r[4], QString("1"));
            QVERIFY(statuses.contains(r[12]));
            QVERIFY(test::finiteCell(r[7]) && test::finiteCell(r[8]));
            QVERIFY(r[10].toDouble() > 0.0);        // generated data: the distance to the truth
            QCOMPARE(r[9].isEmpty(), r[2] != "em"); // the ELBO is batch EM's
            QStringList x = r, y = again[i];
            x.removeAt(11);
            y.removeAt(11);
            QCOMPARE(x, y);
        }
        QCOMPARE(rows[1][6], QString("1"));
        QCOMPARE(rows[9][6], QString("100"));
        // Batch EM: the ELBO of each iteration lies below the log-likelihood after it, and the
        // log-likelihood never falls; the distance to the truth shrinks.
        double previous = -INFINITY;
        for (int i = 1; i <= 9; ++i) {
            QCOMPARE(rows[i][2], QString("em"));
            QVERIFY(rows[i][9].toDouble() <= rows[i][7].toDouble() + 1e-12);
            QVERIFY(rows[i][7].toDouble() >= previous - 1e-12);
            previous = rows[i][7].toDouble();
        }
        QVERIFY(rows[9][10].toDouble() < rows[1][10].toDouble());
    }

    // A CSV of 4 columns, PPCA by the closed form with K = 1 and nothing held out: the columns
    // are z-scored (ddof 0), so S is the correlation matrix R, and ℓ per row =
    // -½ [D log 2π + log λ₁ + (D - 1) log σ² + D], σ² = (tr R - λ₁) / (D - 1) = (D - λ₁) / 3.
    void ppcaClosedFormOfACsvMatchesEigenvalues() {
        QByteArray text = "a,b,c,d\n";
        Eigen::MatrixXd X(40, 4);
        for (int i = 0; i < 40; ++i) {
            const double t = std::sin(0.7 * i), u = std::cos(1.3 * i * i);
            X.row(i) << 3.0 + t, 10.0 * t + u, -2.0 * u + 0.1 * i, 0.5 * t - u + 0.01 * i * i;
            text += QByteArray::number(X(i, 0), 'g', 17) + "," +
                    QByteArray::number(X(i, 1), 'g', 17) + "," +
                    QByteArray::number(X(i, 2), 'g', 17) + "," +
                    QByteArray::number(X(i, 3), 'g', 17) + "\n";
        }
        const QString csv = writeFile("four.csv", text);
        const QString out = m_dir.filePath("cf.csv");
        const Result r =
            run({"--dataset", csv, "--model", "ppca", "--method", "closed-form,em", "--latent", "1",
                 "--iterations", "3000", "--test-fraction", "0", "--out", out});
        QCOMPARE(r.code, 0);
        const auto rows = test::readCsvCells(out);
        QCOMPARE(rows[1][0], QString("four"));
        QCOMPARE(rows[1][2], QString("closed-form"));
        QCOMPARE(rows[1][6], QString("0"));
        QVERIFY(rows[1][8].isEmpty() && rows[1][10].isEmpty()); // nothing held out, no truth
        const Eigen::MatrixXd centred = X.rowwise() - X.colwise().mean();
        const Eigen::VectorXd sd = (centred.colwise().squaredNorm() / 40.0).array().sqrt();
        const Eigen::MatrixXd Z = centred * sd.cwiseInverse().asDiagonal();
        const Eigen::MatrixXd R = Z.transpose() * Z / 40.0;
        const double lambda1 = fa::symmetricEigen(R, false).values(3);
        const double sigma2 = (4.0 - lambda1) / 3.0;
        const double expected = -0.5 * (4.0 * std::log(2.0 * std::numbers::pi) + std::log(lambda1) +
                                        3.0 * std::log(sigma2) + 4.0);
        QVERIFY2(std::abs(rows[1][7].toDouble() - expected) < 1e-12,
                 qPrintable(rows[1][7] + " vs " + QString::number(expected, 'g', 17)));
        // PPCA EM from a random start reaches it.
        QCOMPARE(rows.last()[2], QString("em"));
        QVERIFY(std::abs(rows.last()[7].toDouble() - expected) < 1e-9);
    }

    // Empty cells are refused unless asked for; with --missing em, PPCA EM fits the rest.
    void missingValuesAreOptIn() {
        QByteArray text = "a,b,c\n";
        for (int i = 0; i < 60; ++i) {
            const double t = std::sin(0.37 * i);
            const QByteArray b = i % 7 == 3 ? "" : QByteArray::number(2.0 * t + 0.1 * std::cos(i));
            text += QByteArray::number(t) + "," + b + "," + QByteArray::number(0.3 * i - t) + "\n";
        }
        const QString csv = writeFile("gaps.csv", text);
        const QString out = m_dir.filePath("gaps-out.csv");
        Result r = run(
            {"--dataset", csv, "--model", "ppca", "--method", "em", "--latent", "1", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("row 5") && r.err.contains("'b'"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        r = run({"--dataset", csv, "--model", "ppca", "--method", "closed-form", "--latent", "1",
                 "--missing", "em", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(out));
        r = run({"--dataset", csv, "--model", "ppca", "--method", "em", "--latent", "1",
                 "--missing", "em", "--iterations", "200", "--out", out});
        QCOMPARE(r.code, 0);
        const auto rows = test::readCsvCells(out);
        QVERIFY(test::finiteCell(rows.last()[7]));
        QVERIFY(test::finiteCell(rows.last()[8]));
    }

    // energy with K = 2 is a Heywood case: some ψ_d is driven to the floor. It is named, and
    // every number stays finite.
    void heywoodCaseIsNamed() {
        const QString out = m_dir.filePath("energy.csv");
        const Result r = run({"--dataset", "energy", "--method", "em,svd", "--latent", "2",
                              "--iterations", "2000", "--out", out});
        QCOMPARE(r.code, 0);
        const auto rows = test::readCsvCells(out);
        for (const QStringList& row : rows.mid(1)) {
            QVERIFY(test::finiteCell(row[7]) && test::finiteCell(row[8]));
            QVERIFY(row[10].isEmpty()); // real data: no truth
        }
        QCOMPARE(rows.last()[2], QString("svd"));
        for (const QStringList& row : rows)
            if (row[6] == "2000")
                QCOMPARE(row[12], QString("psi-floor"));
    }

    void refusesBadInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown method") << QStringList{"--method", "mcmc"} << "mcmc";
        QTest::newRow("rows over 4 GB") // 2 x 8 x 10^6 x 2000 bytes, refused before allocating
            << QStringList{"--dim", "2000", "--samples", "1000000"} << "rows would take 32.0 GB";
        QTest::newRow("method of another model")
            << QStringList{"--model", "ppca", "--method", "gibbs"} << "gibbs";
        QTest::newRow("unknown model") << QStringList{"--model", "ica"} << "ica";
        QTest::newRow("components without mixture")
            << QStringList{"--components", "2"} << "components";
        QTest::newRow("synthetic flag on real data")
            << QStringList{"--dataset", "boston", "--dim", "5"} << "--dim";
        QTest::newRow("K >= D") << QStringList{"--dim", "4", "--latent", "4"} << "latent";
        QTest::newRow("test fraction") << QStringList{"--test-fraction", "1"} << "test-fraction";
        QTest::newRow("missing word") << QStringList{"--missing", "mean"} << "missing";
        QTest::newRow("missing on FA") << QStringList{"--missing", "em"} << "PPCA";
        QTest::newRow("unknown data set") << QStringList{"--dataset", "iris"} << "iris";
        QTest::newRow("too many components")
            << QStringList{"--model", "mppca", "--components", "300", "--samples", "100"} << "rows";
        QTest::newRow("iterations") << QStringList{"--iterations", "0"} << "iterations";
        QTest::newRow("prior without FA EM")
            << QStringList{"--model", "ppca", "--method", "em", "--prior", "jeffreys"} << "prior";
        QTest::newRow("unknown prior") << QStringList{"--prior", "flat"} << "flat";
        QTest::newRow("prior for svd")
            << QStringList{"--method", "svd", "--prior", "conjugate"} << "conjugate";
        QTest::newRow("gibbs prior for em")
            << QStringList{"--method", "em", "--prior", "independent"} << "independent";
        QTest::newRow("maximum likelihood for gibbs")
            << QStringList{"--method", "gibbs", "--prior", "none"} << "none";
        QTest::newRow("classes of a table")
            << QStringList{"--dataset", "boston", "--classes", "1"} << "image data sets";
        QTest::newRow("a class twice")
            << QStringList{"--dataset", "digits", "--classes", "2,2"} << "twice";
        QTest::newRow("no such class")
            << QStringList{"--dataset", "digits", "--classes", "10"} << "not a class";
        const QStringList ppcaEm{"--dataset", "digits", "--model", "ppca", "--method", "em"};
        QTest::newRow("square in a table")
            << QStringList{"--dataset", "boston", "--model",      "ppca",
                           "--method",  "em",     "--hide-block", "2"}
            << "image data sets";
        QTest::newRow("square too big") << ppcaEm + QStringList{"--hide-block", "8"} << "1 and 7";
        QTest::newRow("square and share")
            << ppcaEm + QStringList{"--hide-block", "2", "--hide-fraction", "0.1"} << "not both";
        QTest::newRow("square for FA")
            << QStringList{"--dataset", "digits", "--hide-block", "2"} << "only PPCA by EM";
        QTest::newRow("burn-in keeps nothing")
            << QStringList{"--method", "gibbs", "--iterations", "50", "--burn-in", "50"}
            << "burn-in";
    }
    void refusesBadInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = m_dir.filePath("bad.csv");
        const Result r = run(QStringList{"--out", out} + args);
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
    // One word, one prior (docs/maths/latent.md §2.5): --help lists the words; "improper" and
    // "jeffreys" give the same rows; with em and gibbs a word fits both where it can (conjugate
    // changes Gibbs's rows and leaves EM's equal to em alone), and a word only one method takes
    // leaves the other at its default (independent: EM's rows are maximum likelihood's).
    void priorWordsMeanOnePriorForEmAndGibbs() {
        QProcess help;
        help.start(FAEXPLORER_CLI, {"latent", "--help"});
        QVERIFY(help.waitForFinished(30000));
        const QString text = QString::fromUtf8(help.readAllStandardOutput());
        for (const char* word : {"jeffreys", "improper", "conjugate", "independent"})
            QVERIFY2(text.contains(word), word);
        auto rowsOf = [&](const QString& name, const QStringList& extra) {
            const QString path = m_dir.filePath(name);
            const QStringList base{"--dim",     "5",  "--samples", "200", "--iterations", "30",
                                   "--burn-in", "10", "--chains",  "2",   "--out",        path};
            const Result r = run(base + extra);
            [&] { QCOMPARE(r.code, 0); }();
            QMap<QString, QStringList> byMethod; // the rows of each method, seconds dropped
            for (QStringList row : test::readCsvCells(path).mid(1)) {
                row.removeAt(11);
                byMethod[row[2]].append(row.join(','));
            }
            return byMethod;
        };
        const auto improper = rowsOf("i.csv", {"--method", "gibbs", "--prior", "improper"});
        const auto jeffreys = rowsOf("j.csv", {"--method", "gibbs", "--prior", "jeffreys"});
        const auto plain = rowsOf("p.csv", {"--method", "em,gibbs"});
        QCOMPARE(improper["gibbs"], jeffreys["gibbs"]);
        QVERIFY(improper["gibbs"] != rowsOf("g.csv", {"--method", "gibbs"})["gibbs"]);
        const auto both = rowsOf("b.csv", {"--method", "em,gibbs", "--prior", "conjugate"});
        const auto emOnly = rowsOf("e.csv", {"--method", "em", "--prior", "conjugate"});
        QCOMPARE(both["em"], emOnly["em"]);
        QVERIFY(both["em"] != plain["em"] && both["gibbs"] != plain["gibbs"]);
        const auto independent =
            rowsOf("n.csv", {"--method", "em,gibbs", "--prior", "independent"});
        QCOMPARE(independent, plain);
    }

    // A first column of words (an id) is left out and said so; a word later in a column of
    // numbers is refused with its row.
    void columnsOfWordsAreLeftOut() {
        QByteArray text = "id,a,b,c\n";
        for (int i = 0; i < 30; ++i)
            text += "row" + QByteArray::number(i) + "," + QByteArray::number(std::sin(0.3 * i)) +
                    "," + QByteArray::number(std::cos(0.7 * i)) + "," +
                    QByteArray::number(0.1 * i) + "\n";
        const QString csv = writeFile("ids.csv", text);
        const QString out = m_dir.filePath("ids-out.csv");
        Result r = run({"--dataset", csv, "--latent", "1", "--out", out});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("left out") && r.err.contains("id"), qPrintable(r.err));
        QCOMPARE(test::readCsvCells(out)[1][0], QString("ids"));
        // NA, nan, inf or an overflow in the first row is a bad cell of a column of numbers,
        // not a column of words.
        for (const char* first : {"NA", "nan", "-inf", "1e400", "null"}) {
            const QString bad = writeFile("first.csv", QByteArray("a,b,c\n1,") + first +
                                                           ",3\n4,5,6\n7,8,10\n2,1,0\n");
            r = run({"--dataset", bad, "--latent", "1", "--out", m_dir.filePath("never.csv")});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("row 2") && r.err.contains("'b'"), qPrintable(r.err));
        }
        const QString typo = writeFile("typo.csv", "a,b,c\n1,2,3\n4,five,6\n7,8,10\n");
        r = run({"--dataset", typo, "--latent", "1", "--out", m_dir.filePath("never.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("row 3") && r.err.contains("five"), qPrintable(r.err));
    }
    // A split of a later trial that leaves a column constant in its fitting rows is refused
    // before anything runs or is written (it once failed after the earlier trials had run).
    void aLaterTrialsBadSplitIsRefusedUpFront() {
        QByteArray text = "a,b,c\n";
        for (int i = 0; i < 12; ++i)
            text += QByteArray::number(std::sin(1.1 * i)) + "," + (i == 5 ? "1" : "0") + "," +
                    QByteArray::number(std::cos(0.4 * i)) + "\n";
        const QString csv = writeFile("one-hot.csv", text);
        const QString out = m_dir.filePath("one-hot-out.csv");
        const Result r = run({"--dataset", csv, "--latent", "1", "--trials", "100", "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("'b'") && r.err.contains("constant"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFile::exists(out));
    }
    void refusesAConstantColumn() {
        const QString csv = writeFile("flat.csv", "a,b,c\n1,2,5\n2,2,7\n3,2,4\n4,2,1\n");
        const Result r = run({"--dataset", csv, "--latent", "1", "--test-fraction", "0", "--out",
                              m_dir.filePath("never.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("'b'") && r.err.contains("constant"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliLatent)
#include "test_cli_latent.moc"
