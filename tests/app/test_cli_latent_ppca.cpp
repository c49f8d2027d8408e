// faexplorer-cli latent's PPCA MAP and hidden entries as a user runs them: --prior independent
// --alpha A on a CSV reaches the log posterior's closed form (docs/maths/latent.md §3.5), whose
// log-likelihood is computed here from the eigenvalues of the columns' correlation matrix;
// --hide-fraction with --imputation writes its own file (the latent CSV's 13 columns and its
// rows unchanged), hides the stated count, and EM's fill beats the column means; the bad
// combinations give one line on stderr, exit 2 and no file.
#include "core/math/SymmetricEigen.h"
#include "tests/support/CsvCells.h"
#include "tests/support/RunProgram.h"

#include <Eigen/Dense>
#include <QtTest>
#include <cmath>
#include <numbers>

class TestCliLatentPpca : public QObject {
    Q_OBJECT

    static test::ProgramResult run(const QStringList& args) {
        return test::runProgram(FAEXPLORER_CLI, QStringList{"latent"} + args);
    }
    QTemporaryDir m_dir;
    QString m_csv;
    Eigen::MatrixXd m_x;

  private slots:
    void initTestCase() {
        // Five columns driven by one factor plus noise: 80 rows.
        QByteArray text = "a,b,c,d,e\n";
        m_x.resize(80, 5);
        for (int i = 0; i < 80; ++i) {
            const double t = std::sin(0.9 * i + 0.3), u = std::cos(1.7 * i * i),
                         v = std::sin(2.3 * i);
            m_x.row(i) << 2.0 * t + 0.3 * u, -1.5 * t + 0.4 * v, t + 0.5 * u * v, 0.8 * t - 0.3 * v,
                0.2 * u + 0.6 * t;
            for (int d = 0; d < 5; ++d)
                text += QByteArray::number(m_x(i, d), 'g', 17) + (d < 4 ? "," : "\n");
        }
        m_csv = m_dir.filePath("factor.csv");
        QFile f(m_csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

    // K = 1, nothing held out: the columns are z-scored (ddof 0), so S is the correlation matrix
    // R, v̄ = 1, and the MAP has c = (-N + √(N² + 4 α N λ₁)) / (2α) along R's top eigenvector and
    // σ² the smaller root of α s² - [N (D - 1) + 4] s + N Σ_{j>1} λ_j + 0.2 = 0 (a₀ = 1,
    // b₀ = 0.1). Its log-likelihood per row is -½ [D log 2π + log c + (D - 1) log σ² + λ₁ / c +
    // Σ_{j>1} λ_j / σ²], below maximum likelihood's.
    void mapReachesItsClosedForm() {
        const double alpha = 30.0, N = 80.0, D = 5.0;
        const QString out = m_dir.filePath("map.csv");
        const test::ProgramResult r =
            run({"--dataset", m_csv, "--model", "ppca", "--method", "em,closed-form", "--latent",
                 "1", "--prior", "independent", "--alpha", "30", "--iterations", "3000",
                 "--test-fraction", "0", "--out", out});
        QCOMPARE(r.code, 0);
        const auto rows = test::readCsvCells(out);
        QCOMPARE(rows.first().size(), 13);
        const Eigen::MatrixXd centred = m_x.rowwise() - m_x.colwise().mean();
        const Eigen::VectorXd sd = (centred.colwise().squaredNorm() / N).array().sqrt();
        const Eigen::MatrixXd Z = centred * sd.cwiseInverse().asDiagonal();
        const Eigen::VectorXd lambda = fa::symmetricEigen(Z.transpose() * Z / N, false).values;
        const double l1 = lambda(4), rest = lambda.head(4).sum();
        const double c = (-N + std::sqrt(N * N + 4.0 * alpha * N * l1)) / (2.0 * alpha);
        const double B = N * (D - 1.0) + 4.0, C0 = N * rest + 0.2;
        const double s2 = 2.0 * C0 / (B + std::sqrt(B * B - 4.0 * alpha * C0));
        QVERIFY(c > s2);
        const double log2pi = std::log(2.0 * std::numbers::pi);
        const double expected =
            -0.5 * (D * log2pi + std::log(c) + (D - 1.0) * std::log(s2) + l1 / c + rest / s2);
        const double ml = -0.5 * (D * log2pi + std::log(l1) + (D - 1.0) * std::log(rest / 4.0) + D);
        QStringList em, closed;
        for (const QStringList& row : rows.mid(1))
            (row[2] == "em" ? em : closed) = row;
        QVERIFY2(std::abs(em[7].toDouble() - expected) < 1e-9,
                 qPrintable(em[7] + " vs " + QString::number(expected, 'g', 17)));
        QCOMPARE(em[12], QString("ok"));
        // The closed form keeps maximum likelihood: the word does not fit it.
        QVERIFY(std::abs(closed[7].toDouble() - ml) < 1e-12);
        QVERIFY(expected < ml - 1e-3);
    }

    // 30 % of the fitting entries hidden: the latent CSV is the same with or without
    // --imputation; the imputation file has its header, round(0.3 · 64 · 5) = 96 hidden entries
    // in every row, one column-mean RMSE per trial, and EM's fill beating it at the end.
    void hiddenEntriesAreFilledAndScored() {
        const QString a = m_dir.filePath("h.csv"), b = m_dir.filePath("h2.csv"),
                      imp = m_dir.filePath("imp.csv");
        const QStringList args{"--dataset",    m_csv, "--model",  "ppca", "--method",        "em",
                               "--latent",     "1",   "--trials", "2",    "--hide-fraction", "0.3",
                               "--iterations", "200"};
        test::ProgramResult r = run(args + QStringList{"--out", a, "--imputation", imp});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("RMSE of E[x_miss | x_obs]"), qPrintable(r.out));
        QCOMPARE(run(args + QStringList{"--out", b}).code, 0);
        QCOMPARE(test::withoutColumn(test::readCsvCells(a), 11),
                 test::withoutColumn(test::readCsvCells(b), 11));
        QCOMPARE(test::readCsvCells(a).first().size(), 13);
        const auto rows = test::readCsvCells(imp);
        QCOMPARE(rows.first().join(','),
                 QString("dataset,model,method,latent,trial,iteration,hide_fraction,hidden,"
                         "rmse_conditional_mean,rmse_column_mean"));
        QCOMPARE(rows.size(), 1 + 2 * 10); // checkpoints 1, 2, 3, 5, 10, 20, 30, 50, 100, 200
        for (const QStringList& row : rows.mid(1)) {
            QCOMPARE(row[6], QString("0.3"));
            QCOMPARE(row[7], QString("96"));
            QCOMPARE(row[9], rows[row[4] == "0" ? 1 : 11][9]);
        }
        for (const int last : {10, 20})
            QVERIFY(rows[last][8].toDouble() < 0.8 * rows[last][9].toDouble());
        // A different trial hides other entries.
        QVERIFY(rows[1][9] != rows[11][9]);
    }

    // Pictures (issue 29): a 3 x 3 square hidden in each of the 160 fitting digits (200 taken,
    // the last 40 held out) is 9 of the 64 pixels, 1440 entries; EM's fill beats the column
    // means.
    void aSquareHiddenInEachPicture() {
        const QString out = m_dir.filePath("square.csv"), fill = m_dir.filePath("fill.csv");
        const test::ProgramResult r =
            run({"--dataset", "digits", "--samples", "200", "--model", "ppca", "--method", "em",
                 "--latent", "5", "--iterations", "20", "--hide-block", "3", "--imputation", fill,
                 "--out", out});
        QCOMPARE(r.code, 0);
        const auto rows = test::readCsvCells(fill);
        QCOMPARE(rows[0][6], QString("hide_fraction"));
        QCOMPARE(rows.last()[6].toDouble(), 9.0 / 64.0);
        QCOMPARE(rows.last()[7], QString("1440"));
        QVERIFY(rows.last()[8].toDouble() < 0.9 * rows.last()[9].toDouble()); // 0.265, 0.308
    }

    void refusesBadCombinations_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("hiding for FA") << QStringList{"--hide-fraction", "0.2"} << "PPCA by EM";
        QTest::newRow("hiding beside the closed form")
            << QStringList{"--model",         "ppca", "--method", "em,closed-form",
                           "--hide-fraction", "0.2"}
            << "PPCA by EM";
        QTest::newRow("hiding out of range")
            << QStringList{"--model", "ppca", "--method", "em", "--hide-fraction", "0.95"}
            << "--hide-fraction must";
        QTest::newRow("imputation without hiding")
            << QStringList{"--model", "ppca", "--method", "em", "--imputation", "x.csv"}
            << "--hide-fraction";
        QTest::newRow("alpha without the prior")
            << QStringList{"--model", "ppca", "--method", "em", "--alpha", "5"} << "--alpha";
        QTest::newRow("an FA prior for PPCA")
            << QStringList{"--model", "ppca", "--method", "em", "--prior", "conjugate"}
            << "conjugate";
        QTest::newRow("the prior for the closed form alone")
            << QStringList{"--model", "ppca", "--method", "closed-form", "--prior", "independent"}
            << "independent";
    }
    void refusesBadCombinations() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = m_dir.filePath("bad.csv");
        const test::ProgramResult r = run(QStringList{"--out", out} + args);
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliLatentPpca)
#include "test_cli_latent_ppca.moc"
