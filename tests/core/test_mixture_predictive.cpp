// The scores of an equal-weight Gaussian mixture predictive (core/metrics/MixturePredictive.h)
// against independent references: the NMLL against the log of the averaged density written out
// directly, the mean and variance against a numerical integration of the dense density, the
// quantile against the normal distribution's published 97.5 % point, and the coverage and PIT
// histogram on targets drawn from the predictive itself (calibrated: 0.95 and flat) and from a
// wider one (over-confident: low coverage, a U-shaped histogram). Units: NMLL_y = NMLL_z +
// log s_y, RMSE_y = s_y RMSE_z.
#include "core/math/Rng.h"
#include "core/metrics/MixturePredictive.h"

#include <QtTest>
#include <cmath>
#include <numbers>

using namespace fa;

namespace {

struct Mixtures {
    Matrix mu, sd;
};

/// N mixtures of J components with means in [-2, 2] and sds in [0.2, 1].
Mixtures randomMixtures(Eigen::Index n, Eigen::Index J, Rng& rng) {
    Mixtures m{Matrix(n, J), Matrix(n, J)};
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < J; ++j) {
            m.mu(i, j) = rng.uniform(-2.0, 2.0);
            m.sd(i, j) = rng.uniform(0.2, 1.0);
        }
    return m;
}

/// One target per row drawn from that row's mixture with its sds scaled by `widen`.
Vector drawTargets(const Mixtures& m, double widen, Rng& rng) {
    Vector y(m.mu.rows());
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const auto j = std::min<Eigen::Index>(
            static_cast<Eigen::Index>(rng.uniform() * static_cast<double>(m.mu.cols())),
            m.mu.cols() - 1);
        y(i) = m.mu(i, j) + widen * m.sd(i, j) * rng.normal();
    }
    return y;
}

double density(const Mixtures& m, Eigen::Index i, double t) {
    double p = 0.0;
    for (Eigen::Index j = 0; j < m.mu.cols(); ++j) {
        const double z = (t - m.mu(i, j)) / m.sd(i, j);
        p += std::exp(-0.5 * z * z) / (m.sd(i, j) * std::sqrt(2.0 * std::numbers::pi));
    }
    return p / static_cast<double>(m.mu.cols());
}

} // namespace

class TestMixturePredictive : public QObject {
    Q_OBJECT
  private slots:
    void nmllIsTheLogOfTheAveragedDensity() {
        Rng rng(7);
        const Mixtures m = randomMixtures(50, 6, rng);
        const Vector y = drawTargets(m, 1.0, rng);
        double direct = 0.0;
        for (Eigen::Index i = 0; i < y.size(); ++i)
            direct -= std::log(density(m, i, y(i)));
        direct /= static_cast<double>(y.size());
        const MixtureScores s = scoreMixture(m.mu, m.sd, y);
        QVERIFY2(std::abs(s.nmll - direct) < 1e-12 * std::abs(direct),
                 qPrintable(QString("%1 vs %2").arg(s.nmll, 0, 'g', 17).arg(direct, 0, 'g', 17)));
        const Vector err = y - m.mu.rowwise().mean();
        QVERIFY(std::abs(s.rmse - std::sqrt(err.squaredNorm() / 50.0)) < 1e-14);
    }

    void meanAndSdAreTheDenseMixtures() {
        // Trapezoidal integration of t p(t) and t^2 p(t) over [-20, 20] (600001 points).
        Rng rng(11);
        const Mixtures m = randomMixtures(3, 5, rng);
        const MixtureScores s = scoreMixture(m.mu, m.sd, Vector::Zero(3));
        for (Eigen::Index i = 0; i < 3; ++i) {
            const int points = 600001;
            const double a = -20.0, h = 40.0 / (points - 1);
            double m0 = 0.0, m1 = 0.0, m2 = 0.0;
            for (int k = 0; k < points; ++k) {
                const double t = a + h * k, w = (k == 0 || k == points - 1) ? 0.5 : 1.0;
                const double p = density(m, i, t) * w * h;
                m0 += p, m1 += p * t, m2 += p * t * t;
            }
            const double mean = m1 / m0, var = m2 / m0 - mean * mean;
            QVERIFY(std::abs(s.mean(i) - mean) < 1e-9);
            QVERIFY(std::abs(s.sd(i) * s.sd(i) - var) < 1e-8 * var);
        }
    }

    void quantilesInvertTheCdf() {
        const Vector one = Vector::Constant(1, 3.0), unit = Vector::Constant(1, 2.0);
        // N(3, 2^2): the 97.5 % point is 3 + 2 x 1.959963984540054.
        QVERIFY(std::abs(mixtureQuantile(one, unit, 0.975) - (3.0 + 2.0 * 1.959963984540054)) <
                1e-9);
        Rng rng(3);
        const Mixtures m = randomMixtures(1, 4, rng);
        for (const double alpha : {0.025, 0.3, 0.5, 0.975}) {
            const double q =
                mixtureQuantile(m.mu.row(0).transpose(), m.sd.row(0).transpose(), alpha);
            QVERIFY(std::abs(mixtureCdf(m.mu.row(0).transpose(), m.sd.row(0).transpose(), q) -
                             alpha) < 1e-10);
        }
    }

    void calibratedTargetsCover95PercentWithAFlatPit() {
        Rng rng(2019);
        const Mixtures m = randomMixtures(4000, 6, rng);
        const MixtureScores s = scoreMixture(m.mu, m.sd, drawTargets(m, 1.0, rng));
        const double se = std::sqrt(0.95 * 0.05 / 4000.0);
        QVERIFY2(std::abs(s.coverage95 - 0.95) < 4.0 * se,
                 qPrintable(QString::number(s.coverage95)));
        // Each bin holds 400 in expectation; sd sqrt(4000 x 0.1 x 0.9) = 19.
        for (const int count : s.pit)
            QVERIFY2(std::abs(count - 400) < 4 * 19, qPrintable(QString::number(count)));
        // The targets inside the interval agree with the bisected quantiles.
        for (Eigen::Index i = 0; i < 20; ++i) {
            const Vector mu = m.mu.row(i).transpose(), sd = m.sd.row(i).transpose();
            const double lo = mixtureQuantile(mu, sd, 0.025), hi = mixtureQuantile(mu, sd, 0.975);
            QVERIFY(lo < hi && mixtureCdf(mu, sd, lo) < mixtureCdf(mu, sd, hi));
        }
    }

    void overConfidentPredictivesUnderCover() {
        // Targets from a predictive twice as wide as the one scored.
        Rng rng(5);
        const Mixtures m = randomMixtures(4000, 1, rng);
        const MixtureScores s = scoreMixture(m.mu, m.sd, drawTargets(m, 2.0, rng));
        // P(|Z| <= 1.96 / 2) = 0.672 for a single Gaussian.
        QVERIFY2(std::abs(s.coverage95 - 0.6729) < 0.03, qPrintable(QString::number(s.coverage95)));
        QVERIFY(s.pit.front() > 2 * s.pit[4] && s.pit.back() > 2 * s.pit[5]); // a U
    }

    void unitsTransformAsTheDensity() {
        Rng rng(9);
        const Mixtures z = randomMixtures(200, 3, rng);
        const Vector yz = drawTargets(z, 1.0, rng);
        const double my = 3.0, sy = 7.5;
        const MixtureScores inZ = scoreMixture(z.mu, z.sd, yz);
        const Matrix muY = (z.mu.array() * sy + my).matrix(), sdY = z.sd * sy;
        const MixtureScores inY = scoreMixture(muY, sdY, (yz.array() * sy + my).matrix());
        QVERIFY(std::abs(inY.nmll - (inZ.nmll + std::log(sy))) < 1e-12);
        QVERIFY(std::abs(inY.rmse - sy * inZ.rmse) < 1e-12);
        QCOMPARE(inY.coverage95, inZ.coverage95);
        QCOMPARE(inY.pit, inZ.pit);
    }

    void badMixturesAreRefused() {
        const Matrix mu = Matrix::Zero(2, 3), sd = Matrix::Ones(2, 3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scoreMixture(mu, sd, Vector::Zero(3)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 scoreMixture(mu, Matrix::Zero(2, 3), Vector::Zero(2)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 scoreMixture(Matrix(0, 3), Matrix(0, 3), Vector(0)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            mixtureQuantile(mu.row(0).transpose(), sd.row(0).transpose(), 1.0));
    }
};

QTEST_GUILESS_MAIN(TestMixturePredictive)
#include "test_mixture_predictive.moc"
