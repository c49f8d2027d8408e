// Random numbers: determinism by seed and the normal distribution against closed forms.
#include "core/math/Rng.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <vector>

using namespace fa;

class TestRng : public QObject {
    Q_OBJECT
  private slots:
    void sameSeedSameStream() {
        Rng a(42), b(42), c(43);
        bool differs = false;
        for (int i = 0; i < 1000; ++i) {
            const double x = a.normal();
            QCOMPARE(x, b.normal());
            differs |= x != c.normal();
        }
        QVERIFY(differs);
    }
    void derivedSeedsAreDistinct() {
        QVERIFY(deriveSeed(0, 1) != deriveSeed(0, 2));
        QVERIFY(deriveSeed(0, 1) != deriveSeed(1, 1));
        QCOMPARE(deriveSeed(7, 3), deriveSeed(7, 3));
    }
    void uniformMoments() {
        Rng r(1);
        const int n = 400000;
        double s = 0, s2 = 0;
        for (int i = 0; i < n; ++i) {
            const double u = r.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
            s += u;
            s2 += u * u;
        }
        QVERIFY(std::abs(s / n - 0.5) < 4 * std::sqrt(1.0 / 12 / n));
        QVERIFY(std::abs(s2 / n - 1.0 / 3) < 0.003);
    }
    // Kolmogorov-Smirnov distance to the standard normal CDF; the 0.1% critical value for
    // n = 200000 is 1.95 / sqrt(n) = 0.0044.
    void normalMatchesGaussianCdf() {
        Rng r(2);
        std::vector<double> x(200000);
        for (auto& v : x)
            v = r.normal();
        std::sort(x.begin(), x.end());
        double ks = 0.0;
        const double n = static_cast<double>(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double cdf = 0.5 * std::erfc(-x[i] / std::sqrt(2.0));
            ks = std::max({ks, std::abs(cdf - i / n), std::abs(cdf - (i + 1) / n)});
        }
        QVERIFY2(ks < 0.0044, qPrintable(QString("KS distance %1").arg(ks)));
    }
    // The ziggurat's tail beyond r = 3.44 is its own code path: P(|x| > 3.5) = 4.65e-4.
    void normalTailProbability() {
        Rng r(3);
        const int n = 2000000;
        int tail = 0;
        for (int i = 0; i < n; ++i)
            tail += std::abs(r.normal()) > 3.5;
        const double p = std::erfc(3.5 / std::sqrt(2.0));
        QVERIFY(std::abs(tail - p * n) < 5 * std::sqrt(p * n));
    }
    void fillNormalFourthMoment() {
        Rng r(4);
        Vector v(300000);
        r.fillNormal(v);
        QVERIFY(std::abs(v.mean()) < 0.01);
        QVERIFY(std::abs(v.array().square().mean() - 1.0) < 0.01);
        QVERIFY(std::abs(v.array().pow(4).mean() - 3.0) < 0.06);
    }
};

QTEST_APPLESS_MAIN(TestRng)
#include "test_rng.moc"
