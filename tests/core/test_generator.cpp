// Model generator (thesis Algorithm 3): ranges, orthonormal frames, determinism, and the
// exact and haar generators against closed-form moments of a uniformly random frame.
#include "core/fa/ModelGenerator.h"

#include <QtTest>

using namespace fa;

namespace {
GeneratorSpec spec(int D, int K, double lo, double hi, GeneratorKind kind) {
    GeneratorSpec s;
    s.dim = D;
    s.latent = K;
    s.spectrumLo = lo;
    s.spectrumHi = hi;
    s.kind = kind;
    return s;
}
} // namespace

class TestGenerator : public QObject {
    Q_OBJECT
  private slots:
    void structureAndRanges_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("exact") << static_cast<int>(GeneratorKind::Exact);
        QTest::newRow("haar") << static_cast<int>(GeneratorKind::Haar);
    }
    void structureAndRanges() {
        QFETCH(int, kind);
        const auto g =
            generateModelDetailed(spec(60, 5, 1.0, 100.0, static_cast<GeneratorKind>(kind)), 3);
        const Matrix gram = g.frame.transpose() * g.frame;
        QVERIFY((gram - Matrix::Identity(5, 5)).norm() < 1e-12);
        QVERIFY(g.s2.minCoeff() >= 1.0 && g.s2.maxCoeff() <= 100.0);
        const Matrix rebuilt = g.frame.array().colwise() * g.s2.array().sqrt();
        QVERIFY((rebuilt - g.model.F).norm() < 1e-12);
        QVERIFY(g.model.psi.minCoeff() > 0.0);
        QVERIFY(g.model.psi.maxCoeff() <= g.s2.maxCoeff());
        QCOMPARE(g.model.c.size(), 60);
    }
    void sameSeedSameModel() {
        const auto a = generateModel(spec(30, 3, 1, 10, GeneratorKind::Exact), 5);
        const auto b = generateModel(spec(30, 3, 1, 10, GeneratorKind::Exact), 5);
        const auto c = generateModel(spec(30, 3, 1, 10, GeneratorKind::Exact), 6);
        QCOMPARE(a.F, b.F);
        QCOMPARE(a.psi, b.psi);
        QVERIFY((a.F - c.F).norm() > 1e-3);
    }
    // A uniformly random unit vector v in R^D has E[sum v_i^4] = 3 / (D + 2), and
    // E ||F||_F^2 = K (a + b) / 2 for s^2 ~ U(a, b). Both generators must match these.
    void generatorsAgreeInDistribution_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("exact") << static_cast<int>(GeneratorKind::Exact);
        QTest::newRow("haar") << static_cast<int>(GeneratorKind::Haar);
    }
    void generatorsAgreeInDistribution() {
        QFETCH(int, kind);
        const int D = 24, K = 3, trials = 400;
        double fourth = 0.0, normF = 0.0, psiMean = 0.0;
        for (int t = 0; t < trials; ++t) {
            const auto g = generateModelDetailed(
                spec(D, K, 1.0, 10.0, static_cast<GeneratorKind>(kind)), 1000 + t);
            fourth += g.frame.col(0).array().pow(4).sum();
            normF += g.model.F.squaredNorm();
            psiMean += g.model.psi.mean() / g.s2.maxCoeff();
        }
        fourth /= trials;
        normF /= trials;
        psiMean /= trials;
        const double expectedFourth = 3.0 / (D + 2);
        QVERIFY2(
            std::abs(fourth - expectedFourth) < 0.1 * expectedFourth,
            qPrintable(QString("E sum v^4 = %1, expected %2").arg(fourth).arg(expectedFourth)));
        QVERIFY2(std::abs(normF - K * 5.5) < 0.05 * K * 5.5,
                 qPrintable(QString("E||F||^2 = %1").arg(normF)));
        QVERIFY(std::abs(psiMean - 0.5) < 0.02); // psi / max s^2 ~ U(0, 1)
    }
    void refusesBadSpecs() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 generateModel(spec(10, 10, 1, 10, GeneratorKind::Haar), 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 generateModel(spec(10, 2, 0, 10, GeneratorKind::Haar), 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 generateModel(spec(10, 2, 5, 1, GeneratorKind::Haar), 0));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            generateModel(spec(kExactGeneratorMaxDim + 1, 2, 1, 10, GeneratorKind::Exact), 0));
        QCOMPARE(parseGeneratorKind("haar").value(), GeneratorKind::Haar);
        QVERIFY(!parseGeneratorKind("qr").has_value());
    }
};

QTEST_APPLESS_MAIN(TestGenerator)
#include "test_generator.moc"
