// Gradients beyond the Gaussian (docs/maths/posterior.md §4.7): the special functions against
// independent forms (differences of std::lgamma, a quadrature of the gamma density), the ELBO at
// the exact posterior against the closed-form evidence, and every estimator's mean within 4
// standard errors of the exact gradient (central differences of the closed-form ELBO); the
// Bernoulli latent refuses the reparameterisation.
#include "core/vi/ScalarFamilies.h"

#include <QtTest>
#include <cmath>
#include <functional>

using namespace fa;

namespace {

/// Central differences of f in each coordinate.
Vector numericGradient(const std::function<double(const Vector&)>& f, const Vector& at) {
    Vector g(at.size());
    for (Eigen::Index i = 0; i < at.size(); ++i) {
        Vector up = at, down = at;
        const double h = 1e-5;
        up(i) += h;
        down(i) -= h;
        g(i) = (f(up) - f(down)) / (2 * h);
    }
    return g;
}

/// The mean of T estimates and the largest |mean − exact| / SE over the coordinates.
double worstZ(const std::function<Vector()>& estimate, const Vector& exact, int trials) {
    Matrix draws(exact.size(), trials);
    for (int t = 0; t < trials; ++t)
        draws.col(t) = estimate();
    const Vector mean = draws.rowwise().mean();
    double worst = 0.0;
    for (Eigen::Index i = 0; i < exact.size(); ++i) {
        const double var = (draws.row(i).array() - mean(i)).square().sum() / (trials - 1.0);
        worst = std::max(worst, std::abs(mean(i) - exact(i)) / std::sqrt(var / trials));
    }
    return worst;
}

PositiveQ qOf(PositiveFamily family, const Vector& v) {
    PositiveQ q;
    q.family = family;
    if (family == PositiveFamily::Gamma)
        q.logShape = v(0);
    q.logRate = v(v.size() - 1);
    return q;
}

} // namespace

class TestScalarFamilies : public QObject {
    Q_OBJECT
  private slots:
    void digammaIsTheDerivativeOfLogGamma() {
        for (const double x : {0.1, 0.7, 1.0, 2.5, 6.0, 13.3, 250.0}) {
            const double h = 1e-5 * x;
            const double fd = (std::lgamma(x + h) - std::lgamma(x - h)) / (2 * h);
            QVERIFY2(std::abs(digamma(x) - fd) < 1e-6 * std::max(1.0, std::abs(fd)),
                     qPrintable(QString::number(x)));
        }
        QVERIFY(std::abs(digamma(1.0) + 0.5772156649015329) < 1e-12); // −γ
    }

    void theGammaCdfIsTheIntegralOfItsDensity() {
        for (const double a : {0.5, 1.0, 2.0, 7.3, 40.0})
            for (const double x : {0.05, 0.5, 1.5, 6.0, 30.0, 60.0}) {
                // Simpson's rule on λ^(a−1) e^(−λ) / Γ(a) over [0, x], with λ = u² so that the
                // integrand u^(2a−1) 2 e^(−u²) is smooth at 0 for a = 1/2.
                const int n = 20000;
                const double top = std::sqrt(x), step = top / n;
                double sum = 0.0;
                for (int k = 0; k <= n; ++k) {
                    const double u = k * step, w = (k == 0 || k == n) ? 1 : (k % 2 ? 4 : 2);
                    sum += w * 2 * std::pow(u, 2 * a - 1) * std::exp(-u * u - std::lgamma(a));
                }
                const double quad = sum * step / 3;
                QVERIFY2(std::abs(gammaCdf(a, x) - quad) < 1e-8,
                         qPrintable(QString("a %1 x %2: %3 vs %4")
                                        .arg(a)
                                        .arg(x)
                                        .arg(gammaCdf(a, x))
                                        .arg(quad)));
            }
        QCOMPARE(gammaCdf(1.0, 2.0), 1.0 - std::exp(-2.0));
    }

    // At the exact posterior Gamma(A, B) the ELBO is the log evidence,
    // log p(y) = a₀ log b₀ − lnΓ(a₀) + lnΓ(A) − A log B − Σ log y!.
    void theGammaElboAtThePosteriorIsTheLogEvidence() {
        const PoissonGammaTarget t = PoissonGammaTarget::synthetic(3);
        double logFactorials = 0.0, sum = 0.0;
        for (const int y : t.counts) {
            logFactorials += std::lgamma(y + 1.0);
            sum += y;
        }
        QVERIFY(sum > 60 && sum < 180); // 30 counts of rate 4
        const double A = t.priorShape + sum, B = t.priorRate + double(t.counts.size());
        const double evidence = t.priorShape * std::log(t.priorRate) - std::lgamma(t.priorShape) +
                                std::lgamma(A) - A * std::log(B) - logFactorials;
        const PositiveQ q = positiveOptimum(t, PositiveFamily::Gamma);
        QVERIFY(std::abs(positiveElbo(t, q) - evidence) < 1e-10);
        // Anywhere else it is below.
        PositiveQ off = q;
        off.logShape += 0.2;
        QVERIFY(positiveElbo(t, off) < evidence);
    }

    void positiveEstimatorsAreUnbiased_data() {
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("estimator");
        for (const int f : {0, 1})
            for (const int e : {0, 1, 2})
                QTest::newRow(qPrintable(QString("%1 %2").arg(
                    f ? "exponential" : "gamma",
                    QString::fromStdString(estimatorName(GradientEstimator(e))))))
                    << f << e;
    }
    void positiveEstimatorsAreUnbiased() {
        QFETCH(int, family);
        QFETCH(int, estimator);
        const auto fam = family ? PositiveFamily::Exponential : PositiveFamily::Gamma;
        const PoissonGammaTarget t = PoissonGammaTarget::synthetic(3);
        const Vector at =
            fam == PositiveFamily::Gamma ? Vector{{std::log(3.0), 0.0}} : Vector{{std::log(0.5)}};
        const Vector exact =
            numericGradient([&](const Vector& v) { return positiveElbo(t, qOf(fam, v)); }, at);
        QVERIFY(exact.norm() > 1.0); // away from the optimum
        Rng rng(11);
        const double z = worstZ(
            [&] {
                return positiveGradient(t, qOf(fam, at), GradientEstimator(estimator), 10, rng);
            },
            exact, 4000);
        QVERIFY2(z < 4.0, qPrintable(QString("%1 standard errors").arg(z)));
        // A wrong gradient would be found: the exact one shifted by 5 % is many SE away.
        if (GradientEstimator(estimator) != GradientEstimator::Score)
            QVERIFY(worstZ(
                        [&] {
                            return positiveGradient(t, qOf(fam, at), GradientEstimator(estimator),
                                                    10, rng);
                        },
                        1.05 * exact, 4000) > 4.0);
    }

    void theBernoulliLatentTakesOnlyTheScoreFunction() {
        const MixtureLatentTarget t = MixtureLatentTarget::synthetic(5);
        const Vector at = Vector::Constant(t.x.size(), 0.3);
        const Vector exact =
            numericGradient([&](const Vector& v) { return bernoulliElbo(t, v); }, at);
        Rng rng(2);
        for (const auto e : {GradientEstimator::Score, GradientEstimator::ScoreBaseline}) {
            const double z =
                worstZ([&] { return bernoulliGradient(t, at, e, 10, rng); }, exact, 4000);
            QVERIFY2(z < 4.0, qPrintable(QString("%1 standard errors").arg(z)));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 bernoulliGradient(t, at, GradientEstimator::Reparam, 10, rng));
        // The exact posterior's logits are the maximiser: the gradient vanishes there.
        const Vector zero = numericGradient([&](const Vector& v) { return bernoulliElbo(t, v); },
                                            bernoulliOptimum(t));
        QVERIFY(zero.norm() < 1e-8);
    }
};

QTEST_MAIN(TestScalarFamilies)
#include "test_scalar_families.moc"
