// VIFA: every gradient term against central finite differences of dense, independent
// formulas (entropy by a dense log-determinant, priors by dense traces, the likelihood
// expectation in closed form for the linear-Gaussian case); the Laplace E|theta| formula against
// numerical integration; and VIFA with K = D - 1 recovering the exact posterior.
#include "core/data/RegressionData.h"
#include "core/fa/ModelGenerator.h"
#include "core/metrics/DenseMetrics.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/Likelihood.h"
#include "core/vi/Vifa.h"
#include "core/vi/VifaTerms.h"

#include <QtTest>

#include <functional>
#include <numbers>
#include <numeric>

using namespace fa;

namespace {

// The state (c, F, gamma) as one flat vector, so one finite-difference loop covers all of it.
struct Layout {
    Eigen::Index D, K;
    Eigen::Index size() const { return D + D * K + D; }
    Vector pack(const Vector& c, const Matrix& F, const Vector& gamma) const {
        Vector v(size());
        v << c, Eigen::Map<const Vector>(F.data(), F.size()), gamma;
        return v;
    }
    Vector c(const Vector& v) const { return v.head(D); }
    Matrix F(const Vector& v) const { return Eigen::Map<const Matrix>(v.data() + D, D, K); }
    Vector psi(const Vector& v) const { return v.tail(D).array().exp(); }
    Vector pack(const VifaGradients& g) const { return pack(g.c, g.F, g.gamma); }
};

Matrix denseCov(const Matrix& F, const Vector& psi) {
    Matrix S = F * F.transpose();
    S.diagonal() += psi;
    return S;
}

// -H up to a constant, by a dense Cholesky log-determinant.
double denseNegEntropy(const Matrix& F, const Vector& psi) {
    const Matrix L = denseCov(F, psi).llt().matrixL();
    return -L.diagonal().array().log().sum();
}

// E_q[alpha/2 theta^T theta] = alpha/2 (c^T c + tr S).
double denseGaussianPrior(const Vector& c, const Matrix& F, const Vector& psi, double alpha) {
    return 0.5 * alpha * (c.squaredNorm() + denseCov(F, psi).trace());
}

Vector centralDifferences(const std::function<double(const Vector&)>& f, const Vector& x) {
    Vector g(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double h = 1e-6 * std::max(1.0, std::abs(x(i)));
        Vector a = x, b = x;
        a(i) += h;
        b(i) -= h;
        g(i) = (f(a) - f(b)) / (2.0 * h);
    }
    return g;
}

double relErr(const Vector& a, const Vector& b) {
    return (a - b).norm() / b.norm();
}

Vector randomState(const Layout& L, std::uint64_t seed) {
    Rng rng(seed);
    Vector v(L.size());
    rng.fillNormal(v);
    v.tail(L.D) = v.tail(L.D) * 0.5 - Vector::Constant(L.D, 0.3); // psi around 0.7
    return v;
}

// E|X| by composite Simpson on each side of the kink at 0, out to 14 standard deviations.
double numericExpectedAbs(double mu, double var) {
    const double s = std::sqrt(var), lo = mu - 14 * s, hi = mu + 14 * s;
    auto simpson = [&](double a, double b) {
        if (b <= a)
            return 0.0;
        const int n = 20000;
        const double h = (b - a) / n;
        auto f = [&](double x) { return std::abs(x) * std::exp(-0.5 * (x - mu) * (x - mu) / var); };
        double sum = f(a) + f(b);
        for (int i = 1; i < n; ++i)
            sum += f(a + i * h) * (i % 2 ? 4.0 : 2.0);
        return sum * h / 3.0;
    };
    const double total = simpson(lo, std::min(hi, 0.0)) + simpson(std::max(lo, 0.0), hi);
    return total / (s * std::sqrt(2.0 * std::numbers::pi));
}

} // namespace

class TestVifa : public QObject {
    Q_OBJECT
  private slots:
    void negEntropyMatchesDenseLogDet() {
        const Layout L{7, 3};
        const Vector x = randomState(L, 1);
        QVERIFY(std::abs(negEntropy(L.F(x), L.psi(x)) - denseNegEntropy(L.F(x), L.psi(x))) < 1e-12);
    }
    void entropyGradientsMatchFiniteDifferences() {
        const Layout L{7, 3};
        const Vector x = randomState(L, 2);
        VifaGradients g;
        g.resize(L.D, L.K);
        addNegEntropyGradients(L.F(x), L.psi(x), g);
        const Vector fd = centralDifferences(
            [&](const Vector& v) { return denseNegEntropy(L.F(v), L.psi(v)); }, x);
        QVERIFY(g.c.isZero());
        QVERIFY2(relErr(L.pack(g), fd) < 1e-7, qPrintable(QString::number(relErr(L.pack(g), fd))));
    }
    void gaussianPriorGradientsMatchFiniteDifferences() {
        const Layout L{6, 2};
        const Vector x = randomState(L, 3);
        const double alpha = 0.7;
        VifaGradients g;
        g.resize(L.D, L.K);
        addGaussianPriorGradients(L.c(x), L.F(x), L.psi(x), alpha, g);
        const Vector fd = centralDifferences(
            [&](const Vector& v) { return denseGaussianPrior(L.c(v), L.F(v), L.psi(v), alpha); },
            x);
        QVERIFY(relErr(L.pack(g), fd) < 1e-8);
        QVERIFY(std::abs(gaussianPriorTerm(L.c(x), L.F(x), L.psi(x), alpha) -
                         denseGaussianPrior(L.c(x), L.F(x), L.psi(x), alpha)) < 1e-12);
    }
    void laplaceExpectedAbsMatchesNumericalIntegration_data() {
        QTest::addColumn<double>("mu");
        QTest::addColumn<double>("var");
        QTest::newRow("centred") << 0.0 << 1.0;
        QTest::newRow("small offset") << 0.3 << 2.0;
        QTest::newRow("negative") << -1.7 << 0.25;
        QTest::newRow("far from zero") << 5.0 << 0.5;
        QTest::newRow("tiny variance") << 0.01 << 1e-4;
    }
    void laplaceExpectedAbsMatchesNumericalIntegration() {
        QFETCH(double, mu);
        QFETCH(double, var);
        const double closed = expectedAbs(mu, var), numeric = numericExpectedAbs(mu, var);
        QVERIFY2(std::abs(closed - numeric) < 1e-10 * std::max(1.0, numeric),
                 qPrintable(QString("%1 vs %2").arg(closed, 0, 'g', 15).arg(numeric, 0, 'g', 15)));
    }
    // The Laplace prior stands in for the Gaussian one of the same variance: the second moment
    // of the density (rate/2) exp(-rate |w|), integrated numerically, is 1 / alpha; and the
    // report's search range [0.141, 4.472] is what precisions [0.01, 10] give.
    void laplacePriorHasTheGaussianVariance() {
        const LinearGaussianLikelihood lik(Matrix::Identity(3, 3), Vector::Ones(3), 1.0);
        for (const double alpha : {0.01, 0.3, 1.0, 23.57}) {
            VifaOptions o;
            o.prior = PriorKind::Laplace;
            o.precision = alpha;
            const double rate = Vifa(lik, o).priorRate();
            const int n = 200000;
            const double hi = 60.0 / rate, h = hi / n;
            double sum = 0.0; // Simpson on [0, hi], doubled by symmetry
            for (int i = 0; i <= n; ++i) {
                const double w = i * h, f = w * w * 0.5 * rate * std::exp(-rate * w);
                sum += f * (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0));
            }
            const double variance = 2.0 * sum * h / 3.0;
            QVERIFY2(std::abs(variance * alpha - 1.0) < 1e-9,
                     qPrintable(QString::number(variance)));
        }
        QVERIFY(std::abs(laplaceRateForPrecision(0.01) - 0.141) < 5e-4);
        QVERIFY(std::abs(laplaceRateForPrecision(10.0) - 4.472) < 5e-4);
    }
    void laplacePriorGradientsMatchFiniteDifferences() {
        const Layout L{6, 2};
        const Vector x = randomState(L, 4);
        const double rate = std::numbers::sqrt2 * 0.8;
        VifaGradients g;
        g.resize(L.D, L.K);
        addLaplacePriorGradients(L.c(x), L.F(x), L.psi(x), rate, g);
        // The reference term: each E|theta_d| by integration, with var_d from the dense covariance.
        const auto term = [&](const Vector& v) {
            const Matrix S = denseCov(L.F(v), L.psi(v));
            double t = 0.0;
            for (Eigen::Index d = 0; d < L.D; ++d)
                t += expectedAbs(L.c(v)(d), S(d, d));
            return rate * t;
        };
        QVERIFY(std::abs(term(x) - laplacePriorTerm(L.c(x), L.F(x), L.psi(x), rate)) < 1e-12);
        const Vector fd = centralDifferences(term, x);
        QVERIFY2(relErr(L.pack(g), fd) < 1e-7, qPrintable(QString::number(relErr(L.pack(g), fd))));
    }
    void expectedLikelihoodGradientMatchesClosedForm() {
        // The reparameterised gradient is at most quadratic in u = (h, z), so its expectation is
        // exactly the average over the 2n cubature points +-sqrt(n) e_i (n = K + D). That must
        // equal the finite-difference gradient of the closed-form -ELBO:
        // N E_q[-mean log p] + (-H) + E_q[-log prior].
        SyntheticRecipe recipe;
        recipe.samples = 40;
        recipe.inputs = 5;
        const RegressionData data = syntheticRegression(recipe, 11);
        const LinearGaussianLikelihood lik(data.X, data.y, 0.4);
        const Layout L{5, 2};
        const Vector x = randomState(L, 5);
        const double alpha = 0.3;
        std::vector<Eigen::Index> batch(12);
        std::iota(batch.begin(), batch.end(), Eigen::Index{7});

        for (const PriorKind prior : {PriorKind::Gaussian, PriorKind::Laplace}) {
            VifaOptions o;
            o.latent = 2;
            o.precision = alpha;
            o.prior = prior;
            Vifa vifa(lik, o);
            vifa.setState({L.c(x), L.F(x), L.psi(x)});
            const Eigen::Index n = L.K + L.D;
            Vector mean = Vector::Zero(L.size());
            for (Eigen::Index i = 0; i < n; ++i)
                for (const double sign : {1.0, -1.0}) {
                    Vector u = Vector::Zero(n);
                    u(i) = sign * std::sqrt(double(n));
                    mean += L.pack(vifa.singleSampleGradients(u.head(L.K), u.tail(L.D), batch));
                }
            mean /= double(2 * n);
            const double N = double(lik.size());
            const double rate = prior == PriorKind::Gaussian ? alpha : std::sqrt(2.0 * alpha);
            const auto objective = [&](const Vector& v) {
                const Matrix S = denseCov(L.F(v), L.psi(v));
                double priorTerm = 0.0;
                if (prior == PriorKind::Gaussian)
                    priorTerm = denseGaussianPrior(L.c(v), L.F(v), L.psi(v), alpha);
                else
                    for (Eigen::Index d = 0; d < L.D; ++d)
                        priorTerm +=
                            rate * expectedAbs(L.c(v)(d), S(d, d)); // checked by integration above
                return N * lik.expectedMeanNegLogLik(L.c(v), S, batch) +
                       denseNegEntropy(L.F(v), L.psi(v)) + priorTerm;
            };
            const Vector fd = centralDifferences(objective, x);
            QVERIFY2(relErr(mean, fd) < 1e-6, qPrintable(QString::fromStdString(priorName(prior)) +
                                                         ": " + QString::number(relErr(mean, fd))));
        }
    }
    // The score-function estimators of VIFA (grad log q by the Woodbury identity) are unbiased:
    // the mean of 4000 estimates, each from 10 draws, within 4.5 standard errors of the
    // finite-difference gradient of the closed-form -ELBO in (c, F, log psi), every component.
    void scoreFunctionEstimatorsAreUnbiased() {
        SyntheticRecipe recipe;
        recipe.samples = 40;
        recipe.inputs = 4;
        const RegressionData data = syntheticRegression(recipe, 11);
        const LinearGaussianLikelihood lik(data.X, data.y, 0.4);
        const Layout L{4, 2};
        Vector x = randomState(L, 6);
        x.head(L.D) *= 0.3; // c near the posterior's scale keeps f's spread moderate
        std::vector<Eigen::Index> all(40);
        std::iota(all.begin(), all.end(), Eigen::Index{0});
        VifaOptions o;
        o.latent = 2;
        o.precision = 0.3;
        Vifa vifa(lik, o);
        vifa.setState({L.c(x), L.F(x), L.psi(x)});
        const auto objective = [&](const Vector& v) {
            const Matrix S = denseCov(L.F(v), L.psi(v));
            return 40.0 * lik.expectedMeanNegLogLik(L.c(v), S, all) +
                   denseNegEntropy(L.F(v), L.psi(v)) +
                   denseGaussianPrior(L.c(v), L.F(v), L.psi(v), 0.3);
        };
        const Vector exact = centralDifferences(objective, x);
        for (const GradientEstimator e : {GradientEstimator::Reparam, GradientEstimator::Score,
                                          GradientEstimator::ScoreBaseline}) {
            Rng rng(21);
            const int T = 4000;
            Vector sum = Vector::Zero(x.size()), sq = Vector::Zero(x.size());
            for (int t = 0; t < T; ++t) {
                const Vector g = L.pack(vifa.estimate(e, 10, all, rng));
                sum += g;
                sq += g.cwiseAbs2();
            }
            const Vector mean = sum / T;
            const Vector sd = ((sq / T - mean.cwiseAbs2()) * (T / (T - 1.0))).cwiseSqrt();
            const Vector z = (mean - exact).array() / (sd.array() / std::sqrt(double(T)));
            QVERIFY2(z.cwiseAbs().maxCoeff() < 4.5,
                     qPrintable(QString::fromStdString(estimatorName(e)) +
                                QString(": max |z| %1").arg(z.cwiseAbs().maxCoeff())));
        }
        o.estimator = GradientEstimator::ScoreBaseline;
        o.samples = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(o));
    }
    void likelihoodGradientMatchesFiniteDifferences() {
        SyntheticRecipe recipe;
        recipe.samples = 30;
        recipe.inputs = 4;
        const RegressionData data = syntheticRegression(recipe, 3);
        const LinearGaussianLikelihood lik(data.X, data.y, 2.5);
        std::vector<Eigen::Index> batch = {0, 3, 4, 17, 29};
        const Vector theta = Eigen::Vector4d(0.3, -1.0, 2.0, 0.5);
        Vector grad(4);
        lik.meanNegLogLik(theta, batch, grad);
        // Reference: the Gaussian log density written out, averaged over the batch.
        const auto f = [&](const Vector& t) {
            double s = 0.0;
            for (const auto n : batch) {
                const double r = data.y(n) - data.X.row(n).dot(t);
                s += -0.5 * std::log(2.5 / (2 * std::numbers::pi)) + 0.5 * 2.5 * r * r;
            }
            return s / double(batch.size());
        };
        QVERIFY(relErr(grad, centralDifferences(f, theta)) < 1e-8);
        Vector unused(4);
        QVERIFY(std::abs(lik.meanNegLogLik(theta, batch, unused) - f(theta)) < 1e-12);
    }
    void vifaWithKEqualDMinusOneRecoversTheExactPosterior() {
        // D = 3 synthetic problem, K = 2: q can represent the posterior exactly. Plain SGD with
        // the report's rates, then a tenfold smaller rate to let the iterate noise settle.
        SyntheticRecipe recipe;
        recipe.samples = 200;
        recipe.inputs = 3;
        for (const std::uint64_t seed : {1u, 2u, 3u}) {
            const RegressionData data = syntheticRegression(recipe, seed);
            const GaussianPosterior exact =
                exactPosterior(data.X, data.y, {recipe.alpha, recipe.beta});
            const LinearGaussianLikelihood lik(data.X, data.y, recipe.beta);
            VifaOptions o;
            o.latent = 2;
            o.precision = recipe.alpha;
            o.lrF = 3e-4;
            o.seed = seed;
            Vifa vifa(lik, o);
            for (int e = 0; e < 20000; ++e)
                vifa.runEpoch();
            vifa.setLearningRates(1e-3, 3e-5, 1e-3);
            for (int e = 0; e < 5000; ++e)
                vifa.runEpoch();
            const FAModel q = vifa.model();
            const double relCov = relativeCovarianceDistance(q.denseCovariance(), exact.cov);
            const double relMean = relativeMeanDistance(q.c, exact.mean);
            QVERIFY2(
                relCov < 0.05,
                qPrintable(
                    QString("seed %1: relative covariance distance %2").arg(seed).arg(relCov)));
            QVERIFY2(
                relMean < 0.01,
                qPrintable(QString("seed %1: relative mean distance %2").arg(seed).arg(relMean)));
            QVERIFY(!vifa.diverged());
        }
    }
    void vippcaKeepsPsiFixed() {
        SyntheticRecipe recipe;
        recipe.samples = 100;
        recipe.inputs = 3;
        const RegressionData data = syntheticRegression(recipe, 4);
        const LinearGaussianLikelihood lik(data.X, data.y, recipe.beta);
        VifaOptions o;
        o.latent = 1;
        o.precision = recipe.alpha;
        o.ppca = true;
        o.sigma = 0.02;
        Vifa vifa(lik, o);
        for (int e = 0; e < 200; ++e)
            vifa.runEpoch();
        QCOMPARE(vifa.psi(), Vector::Constant(3, 0.02));
        QVERIFY(vifa.updates() == 200 * 1 / 10);
    }
    void badOptionsAreRefused() {
        VifaOptions o;
        o.lrF = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(o));
        o = {};
        o.samples = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(o));
        o = {};
        o.precision = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(o));
    }
};

QTEST_APPLESS_MAIN(TestVifa)
#include "test_vifa.moc"
