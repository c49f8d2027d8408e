// FAModel: Woodbury log-density against the dense Cholesky formula; sampling moments; the
// density's constant log(2 pi) (core/math/Types.h) against the library's log.
#include "core/fa/FAModel.h"
#include "core/fa/ModelGenerator.h"
#include "tests/support/DenseReference.h"

#include <QtTest>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>

using namespace fa;

class TestFAModel : public QObject {
    Q_OBJECT
  private slots:
    void logTwoPiIsTheLibrarysValue() {
        // Every file's constant; bit for bit what std::log gave where each file computed it
        // (volatile: evaluated at run time, by the C library, not folded by the compiler).
        volatile double twoPi = 2.0 * std::numbers::pi;
        QCOMPARE(std::bit_cast<std::uint64_t>(kLog2Pi),
                 std::bit_cast<std::uint64_t>(std::log(twoPi)));
        // And the double nearest to log of the double 2 pi: log(2 pi) - (2 pi - fl(2 pi)) / (2 pi)
        // = 1.83787706640934548356... - 3.898e-17 = 1.83787706640934544458... (by hand).
        const double exact = 1.83787706640934544458;
        QVERIFY(std::abs(kLog2Pi - exact) < std::abs(std::nextafter(kLog2Pi, 2.0) - exact));
        QVERIFY(std::abs(kLog2Pi - exact) < std::abs(std::nextafter(kLog2Pi, 1.0) - exact));
    }
    void logDensityMatchesDense_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("latent");
        QTest::newRow("D=5 K=1") << 5 << 1;
        QTest::newRow("D=40 K=6") << 40 << 6;
        QTest::newRow("D=200 K=10") << 200 << 10;
    }
    void logDensityMatchesDense() {
        QFETCH(int, dim);
        QFETCH(int, latent);
        GeneratorSpec spec;
        spec.dim = dim;
        spec.latent = latent;
        spec.kind = GeneratorKind::Haar;
        const FAModel m = generateModel(spec, 11);
        Rng r(5);
        for (int i = 0; i < 5; ++i) {
            const Vector x = m.c + r.normalMatrix(dim, 1).col(0) * 2.0;
            QVERIFY(test::relDiff(m.logDensity(x), test::denseLogDensity(x, m)) < 1e-12);
        }
    }
    void samplesHaveModelMoments() {
        GeneratorSpec spec;
        spec.dim = 6;
        spec.latent = 2;
        const FAModel m = generateModel(spec, 3);
        FASampler sampler(m);
        Rng r(9);
        const int n = 200000;
        Matrix X(6, n);
        for (int j = 0; j < n; ++j)
            sampler.draw(r, X.col(j));
        const Vector mean = X.rowwise().mean();
        const Matrix centered = X.colwise() - mean;
        const Matrix cov = centered * centered.transpose() / (n - 1);
        const Matrix S = m.denseCovariance();
        QVERIFY((mean - m.c).norm() < 5 * std::sqrt(S.trace() / n));
        QVERIFY((cov - S).norm() / S.norm() < 0.01);
    }
    void validateRejectsBadModels() {
        FAModel m{Vector::Zero(3), Matrix::Ones(3, 1), Vector::Ones(3)};
        m.validate();
        m.psi[1] = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.validate());
        m.psi[1] = 1.0;
        m.F(0, 0) = std::nan("");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.validate());
        FAModel bad{Vector::Zero(2), Matrix::Ones(3, 1), Vector::Ones(3)};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bad.validate());
    }
    void mostCorrelatedPairIsTheDenseArgmax() {
        for (const std::uint64_t seed : {1u, 2u, 3u}) {
            GeneratorSpec spec;
            spec.dim = 60;
            spec.latent = 4;
            spec.kind = GeneratorKind::Haar;
            const FAModel m = generateModel(spec, seed);
            for (const Eigen::Index among : {Eigen::Index(60), Eigen::Index(12)}) {
                const Matrix S = m.denseCovariance().topLeftCorner(among, among);
                const Vector sd = S.diagonal().cwiseSqrt();
                Matrix R = S.cwiseQuotient(sd * sd.transpose()).cwiseAbs();
                R.diagonal().setConstant(-1.0);
                Eigen::Index i = 0, j = 0;
                R.maxCoeff(&i, &j);
                const auto [a, b] = mostCorrelatedPair(m, among);
                QCOMPARE(a, std::min(i, j));
                QCOMPARE(b, std::max(i, j));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestFAModel)
#include "test_fa_model.moc"
