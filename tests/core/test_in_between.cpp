// The in-between regression set (core/data/InBetween.h) against the recipe's published reference
// values (docs/maths/neural.md §6): the first three normals of SplitMix64 seeded 2019 through
// Box-Muller, the first and last targets and their sum, to 1e-12; and SplitMix64 itself against
// the first outputs of its reference implementation for seed 0.
#include "core/data/InBetween.h"

#include <QtTest>
#include <cmath>

using namespace fa;

class TestInBetween : public QObject {
    Q_OBJECT
  private slots:
    void splitMixIsTheReferenceGenerator() {
        // Seed 0: Vigna's splitmix64.c gives 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, ...
        SplitMix64 gen(0);
        QCOMPARE(gen.next(), 0xE220A8397B1DCDAFULL);
        QCOMPARE(gen.next(), 0x6E789E6AA1B965F4ULL);
    }

    void theNoiseIsTheRecipes() {
        const Vector eps = inBetweenNoise(3);
        QVERIFY(std::abs(eps(0) - (-0.24197896495149282)) < 1e-12);
        QVERIFY(std::abs(eps(1) - (-0.7571150620113859)) < 1e-12);
        QVERIFY(std::abs(eps(2) - 1.314120438677547) < 1e-12);
    }

    void theRowsAreTheRecipes() {
        const RegressionData d = inBetweenData();
        QCOMPARE(d.size(), Eigen::Index(100));
        QCOMPARE(d.inputs(), Eigen::Index(1));
        QVERIFY(std::abs(d.y(0) - 0.20199209248237324) < 1e-12);
        QVERIFY(std::abs(d.y(99) - (-0.22516557670822582)) < 1e-12);
        QVERIFY(std::abs(d.y.sum() - (-1.0511776294381798)) < 1e-12);
        // The gap (-0.708, 0.708): no input in it, 50 on each side (its ends are inputs).
        QCOMPARE(static_cast<int>((d.X.col(0).array() <= -0.708 + 1e-12).count()), 50);
        QCOMPARE(static_cast<int>((d.X.col(0).array() >= 0.708 - 1e-12).count()), 50);
        const Matrix grid = inBetweenGrid();
        QCOMPARE(grid.rows(), Eigen::Index(201));
        QCOMPARE(grid(0, 0), -2.5);
        QCOMPARE(grid(100, 0), 0.0);
        QCOMPARE(grid(200, 0), 2.5);
    }
};

QTEST_GUILESS_MAIN(TestInBetween)
#include "test_in_between.moc"
