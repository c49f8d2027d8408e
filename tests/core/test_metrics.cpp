// Metrics: W2 identities and closed forms; dense against an independent eigen route;
// structured (O(D K^2)) against dense; the binned quadrature against the exact one.
#include "core/fa/ModelGenerator.h"
#include "core/metrics/DenseMetrics.h"
#include "core/metrics/StructuredMetrics.h"
#include "tests/support/DenseReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>
#include <stdexcept>

using namespace fa;

namespace {
FAModel model(int D, int K, std::uint64_t seed, double hi = 10.0) {
    return test::makeModel(D, K, seed, hi, GeneratorKind::Haar);
}
} // namespace

class TestMetrics : public QObject {
    Q_OBJECT
  private slots:
    void w2IsZeroForIdenticalGaussians() {
        const FAModel m = model(30, 4, 1);
        const Matrix S = m.denseCovariance();
        // W2^2 is a difference of O(tr S) terms, so the check is on W2^2 relative to tr S
        // (W2 itself is the square root of rounding noise: ~1e-5 sqrt(tr S)).
        const double dense = denseW2(m.c, S, m.c, S), structured = structuredW2(m, m);
        QVERIFY(dense * dense < 1e-10 * S.trace());
        QVERIFY(structured * structured < 1e-10 * S.trace());
        QCOMPARE(structuredRelativeCovarianceDistance(m, m), 0.0);
    }
    void w2IsSymmetric() {
        const FAModel a = model(25, 3, 2), b = model(25, 3, 3);
        const Matrix Sa = a.denseCovariance(), Sb = b.denseCovariance();
        QVERIFY(test::relDiff(denseW2(a.c, Sa, b.c, Sb), denseW2(b.c, Sb, a.c, Sa)) < 1e-10);
        QVERIFY(test::relDiff(structuredW2(a, b), structuredW2(b, a)) < 1e-9);
    }
    void w2OneDimensionalClosedForm() {
        // W2^2 = (m1 - m2)^2 + (s1 - s2)^2 for N(m1, s1^2), N(m2, s2^2).
        const Vector m1 = Vector::Constant(1, 0.3), m2 = Vector::Constant(1, -1.2);
        const Matrix S1 = Matrix::Constant(1, 1, 4.0), S2 = Matrix::Constant(1, 1, 0.25);
        QVERIFY(std::abs(denseW2(m1, S1, m2, S2) - std::sqrt(1.5 * 1.5 + 1.5 * 1.5)) < 1e-12);
        // The same through the structured form: psi carries the variance with a tiny factor.
        const FAModel a{m1, Matrix::Constant(1, 1, 1.0), Vector::Constant(1, 3.0)};  // var 4
        const FAModel b{m2, Matrix::Constant(1, 1, 0.3), Vector::Constant(1, 0.16)}; // var 0.25
        QVERIFY(std::abs(structuredW2(a, b) - std::sqrt(4.5)) < 1e-9);
    }
    void w2DiagonalClosedForm() {
        // Commuting (diagonal) covariances: W2^2 = |dm|^2 + sum (sqrt a_i - sqrt b_i)^2.
        Rng r(4);
        const int D = 50;
        const Vector a = (r.normalMatrix(D, 1).col(0).array().square() + 0.1).matrix();
        const Vector b = (r.normalMatrix(D, 1).col(0).array().square() + 0.1).matrix();
        const double expected = (a.cwiseSqrt() - b.cwiseSqrt()).norm();
        QVERIFY(test::relDiff(denseW2(Vector::Zero(D), a.asDiagonal().toDenseMatrix(),
                                      Vector::Zero(D), b.asDiagonal().toDenseMatrix()),
                              expected) < 1e-10);
        // Structured with F = 0 columns (K = 1 of zeros) is the same diagonal problem.
        const FAModel fa{Vector::Zero(D), Matrix::Zero(D, 1), a},
            fb{Vector::Zero(D), Matrix::Zero(D, 1), b};
        QVERIFY(test::relDiff(structuredW2(fa, fb), expected) < 1e-9);
    }
    void denseW2MatchesProductEigenvalues() {
        const FAModel a = model(40, 5, 5), b = model(40, 5, 6);
        const Matrix Sa = a.denseCovariance(), Sb = b.denseCovariance();
        QVERIFY(test::relDiff(denseW2(a.c, Sa, b.c, Sb),
                              test::w2ViaProductEigenvalues(a.c, Sa, b.c, Sb)) < 1e-9);
    }
    void structuredMatchesDense_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("k1");
        QTest::addColumn<int>("k2");
        QTest::addColumn<double>("spectrumHi");
        QTest::newRow("D=20 K=2/2") << 20 << 2 << 2 << 10.0;
        QTest::newRow("D=100 K=10/10") << 100 << 10 << 10 << 10.0;
        QTest::newRow("D=150 K=3/7 [1,100]") << 150 << 3 << 7 << 100.0;
        QTest::newRow("D=500 K=10/10 [1,1e4]") << 500 << 10 << 10 << 1e4;
    }
    void structuredMatchesDense() {
        QFETCH(int, dim);
        QFETCH(int, k1);
        QFETCH(int, k2);
        QFETCH(double, spectrumHi);
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
            const FAModel a = model(dim, k1, 100 + seed, spectrumHi),
                          b = model(dim, k2, 200 + seed, spectrumHi);
            const Matrix Sa = a.denseCovariance(), Sb = b.denseCovariance();
            const double dense = denseW2(a.c, Sa, b.c, Sb);
            const double structured = structuredW2(a, b);
            QVERIFY2(test::relDiff(structured, dense) < 1e-8,
                     qPrintable(QString("W2 structured %1 dense %2")
                                    .arg(structured, 0, 'g', 16)
                                    .arg(dense, 0, 'g', 16)));
            QVERIFY(test::relDiff(structuredRelativeCovarianceDistance(a, b),
                                  relativeCovarianceDistance(Sa, Sb)) < 1e-8);
        }
    }
    void structuredMatchesDenseForCloseModels() {
        // An estimate near the truth: W2 is small against the traces, the hard case for
        // cancellation.
        const FAModel truth = model(200, 10, 7);
        FAModel est = truth;
        Rng r(8);
        est.F += 0.02 * r.normalMatrix(200, 10);
        est.psi = (est.psi.array() * (1.0 + 0.05 * r.normalMatrix(200, 1).col(0).array())).matrix();
        const double dense =
            denseW2(truth.c, truth.denseCovariance(), est.c, est.denseCovariance());
        QVERIFY2(test::relDiff(structuredW2(est, truth), dense) < 1e-6,
                 qPrintable(QString("%1 vs %2")
                                .arg(structuredW2(est, truth), 0, 'g', 12)
                                .arg(dense, 0, 'g', 12)));
    }
    // Binned (every D here: binAboveDim 0) against the quadrature over every row. D = 30000:
    // bins of more than one 64-row block; D = 5: bins of one row each.
    void binnedQuadratureMatchesExact() {
        W2QuadratureOptions exact, binned;
        exact.binAboveDim = 1 << 30;
        binned.binAboveDim = 0;
        for (const int D : {5, 3000, 30000}) {
            const FAModel a = model(D, std::min(D - 1, 10), 9),
                          b = model(D, std::min(D - 1, 10), 10);
            binned.taylorOrder = 3;
            QVERIFY(test::relDiff(structuredW2(a, b, binned), structuredW2(a, b, exact)) < 1e-9);
            // Each order has its own moment kernel: the fifth, with its error of
            // (0.005)^6 per weight, as close.
            binned.taylorOrder = 5;
            QVERIFY(test::relDiff(structuredW2(a, b, binned), structuredW2(a, b, exact)) < 1e-9);
        }
        // Factors of other widths (the two halves of each row of Z differ in length).
        const FAModel narrow = model(3000, 3, 11), wide = model(3000, 7, 12);
        binned.taylorOrder = 3;
        QVERIFY(test::relDiff(structuredW2(narrow, wide, binned),
                              structuredW2(narrow, wide, exact)) < 1e-9);
        QVERIFY(test::relDiff(structuredW2(wide, narrow, binned),
                              structuredW2(wide, narrow, exact)) < 1e-9);
        // One bin of 203 rows (every psi equal): blocks of 64, 64, 64 and 11 rows, the last
        // padded with zero rows to 12; a stale or missing padding row would show here.
        FAModel c = model(203, 4, 13), d = model(203, 4, 14);
        c.psi.setConstant(0.7);
        d.psi.setConstant(1.3);
        QVERIFY(test::relDiff(structuredW2(c, d, binned), structuredW2(c, d, exact)) < 1e-9);
        const double dense = denseW2(c.c, c.denseCovariance(), d.c, d.denseCovariance());
        QVERIFY(test::relDiff(structuredW2(c, d, binned), dense) < 1e-6);
        // Options out of range are refused on either path, not only where the rows are binned.
        for (W2QuadratureOptions bad : {exact, binned}) {
            bad.taylorOrder = 6;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, structuredW2(c, d, bad));
            bad.taylorOrder = 3;
            bad.binWidth = 0.0;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, structuredW2(c, d, bad));
        }
    }
    void relativeDistances() {
        const Vector a = Vector::Constant(4, 2.0), b = Vector::Constant(4, 1.0);
        QCOMPARE(relativeMeanDistance(a, b), 1.0);
        QCOMPARE(relativeCovarianceDistance(Matrix::Identity(3, 3) * 3.0, Matrix::Identity(3, 3)),
                 2.0);
    }
};

QTEST_APPLESS_MAIN(TestMetrics)
#include "test_metrics.moc"
