// The VAE's encoder gradient by the score function (docs/maths/nonlinear.md §9) against
// independent references: with a linear decoder the ELBO of a network encoder is closed form
// (linearElbo), so its exact φ-gradient is a central difference; each estimator's mean over many
// draws must lie within 4 standard errors of it (and the draws are enough to see a 10 % bias).
// S draws per row are the mean of S one-draw passes; the spread (the trace of the estimates'
// covariance) equals the two-pass formula over the same draws; the option's refusals; a VAE with
// the network's noise and one trained by the score function both learn.
#include "core/math/Rng.h"
#include "core/vae/VaeData.h"
#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeMetrics.h"
#include "core/vae/VaeObjectives.h"
#include "tests/support/NonlinearFaSupport.h"

#include <QtTest>

#include <cmath>

using namespace fa;
using namespace fa::test;

namespace {

/// A linear decoder (D = 3, K = 2, diagonal Ψ) and a small tanh encoder, both with random
/// weights, and four rows.
struct Problem {
    NlfaModel model;
    MlpShape shape;
    Vector phi;
    Matrix X;
};

Problem problem() {
    Rng rng(401);
    Problem p;
    const Matrix rows = rng.normalMatrix(3, 40);
    p.model = initialNlfaModel(2, {}, Activation::Tanh, NoiseKind::Diagonal, 0.1, rows, 402);
    p.model.theta += 0.3 * rng.normalMatrix(p.model.theta.size(), 1);
    p.model.gamma = Vector::Constant(3, -0.3) + 0.2 * rng.normalMatrix(3, 1);
    p.shape.inputs = 3;
    p.shape.hidden = {4};
    p.shape.outputs = 4; // [μ; ℓ]
    p.shape.activation = Activation::Tanh;
    p.phi = 0.6 * Mlp::initialWeights(p.shape, 403);
    p.phi += 0.2 * rng.normalMatrix(p.phi.size(), 1);
    p.phi.tail(2).array() -= 0.7; // q's variances about e^-0.7
    p.X = rows.leftCols(4);
    return p;
}

/// Σ_n of the closed-form ELBO under the encoder's q (ℓ clamped as the VAE clamps it).
double exactElbo(const Problem& p, const Vector& phi) {
    Mlp net(p.shape);
    const Matrix& h = net.forward(phi, p.X);
    const Matrix L = h.bottomRows(2).cwiseMax(kEncoderLogVarMin).cwiseMin(kQLogVarMax);
    return linearElbo(p.model, p.X, h.topRows(2), L).sum();
}

struct Draws {
    Vector mean, se;
};
/// `count` estimates of φ's gradient, each from S draws per row.
Draws estimate(const Problem& p, GradientEstimator e, int samples, int count, std::uint64_t seed) {
    Mlp net(p.shape);
    ElboPass pass(p.model.shape);
    ElboGradient g;
    Vector gPhi, sum = Vector::Zero(p.phi.size()), sumSq = Vector::Zero(p.phi.size());
    Rng rng(seed);
    Matrix eps(2, p.X.cols() * samples);
    for (int t = 0; t < count; ++t) {
        rng.fillNormal(Eigen::Map<Vector>(eps.data(), eps.size()));
        vaeBatchElbo(net, pass, p.model, p.phi, p.X, eps, &g, &gPhi, e);
        sum += gPhi;
        sumSq += gPhi.cwiseAbs2();
    }
    Draws d;
    d.mean = sum / count;
    d.se = ((sumSq / count - d.mean.cwiseAbs2()) / (count - 1.0)).cwiseSqrt();
    return d;
}

} // namespace

class TestVaeScore : public QObject {
    Q_OBJECT
  private slots:
    void eachEstimatorIsUnbiasedForTheClosedFormGradient_data() {
        QTest::addColumn<int>("estimator");
        QTest::addColumn<int>("samples");
        QTest::addColumn<int>("count");
        QTest::newRow("reparam") << int(GradientEstimator::Reparam) << 1 << 20000;
        QTest::newRow("score") << int(GradientEstimator::Score) << 1 << 400000;
        QTest::newRow("score, S = 2") << int(GradientEstimator::Score) << 2 << 200000;
        QTest::newRow("score-baseline, S = 2")
            << int(GradientEstimator::ScoreBaseline) << 2 << 100000;
        QTest::newRow("score-baseline, S = 5")
            << int(GradientEstimator::ScoreBaseline) << 5 << 40000;
    }
    void eachEstimatorIsUnbiasedForTheClosedFormGradient() {
        QFETCH(int, estimator);
        QFETCH(int, samples);
        QFETCH(int, count);
        const Problem p = problem();
        const Vector exact =
            numericGradient([&](const Vector& v) { return exactElbo(p, v); }, p.phi, 1e-5);
        const Draws d = estimate(p, GradientEstimator(estimator), samples, count, 404);
        QString worst;
        double worstZ = 0.0;
        for (Eigen::Index j = 0; j < exact.size(); ++j) {
            const double z = std::abs(d.mean(j) - exact(j)) / d.se(j);
            if (z > worstZ) {
                worstZ = z;
                worst = QString("φ_%1: mean %2 ± %3, exact %4")
                            .arg(j)
                            .arg(d.mean(j))
                            .arg(d.se(j))
                            .arg(exact(j));
            }
        }
        QVERIFY2(worstZ < 4.0, qPrintable(worst));
        // Power: the draws would see a 10 % bias along the exact gradient.
        const double norm = exact.norm();
        const Vector u = exact / norm;
        const double along = u.dot(d.mean),
                     seAlong = std::sqrt(u.cwiseAbs2().dot(d.se.cwiseAbs2()));
        QVERIFY2(std::abs(along - norm) < 4.0 * seAlong && 4.0 * seAlong < 0.1 * norm,
                 qPrintable(QString("along: %1 ± %2, exact %3").arg(along).arg(seAlong).arg(norm)));
    }

    // S draws per row: the value and every gradient are the means of S one-draw passes.
    void sDrawsAreTheMeanOfOneDrawPasses() {
        const Problem p = problem();
        Rng rng(411);
        const Eigen::Index b = p.X.cols();
        const Matrix eps = rng.normalMatrix(2, 3 * b);
        Mlp net(p.shape);
        ElboPass pass(p.model.shape);
        ElboGradient g, one;
        Vector gPhi, onePhi, theta = Vector::Zero(p.model.theta.size()),
                             phi = Vector::Zero(p.phi.size());
        const double value = vaeBatchElbo(net, pass, p.model, p.phi, p.X, eps, &g, &gPhi);
        double sum = 0.0;
        for (int s = 0; s < 3; ++s) {
            sum += vaeBatchElbo(net, pass, p.model, p.phi, p.X, eps.middleCols(s * b, b), &one,
                                &onePhi);
            theta += one.theta;
            phi += onePhi;
        }
        QVERIFY(std::abs(value - sum / 3.0) < 1e-12 * std::abs(value));
        QVERIFY(relErr(g.theta, theta / 3.0) < 1e-12);
        QVERIFY(relErr(gPhi, phi / 3.0) < 1e-12);
    }

    // The spread: Welford's running sums against the two-pass mean and covariance trace of the
    // same draws (the same stream: one K x (S b) block per estimate).
    void theSpreadIsTheTraceOfTheEstimatesCovariance() {
        const Problem p = problem();
        const int draws = 300, samples = 2;
        for (const GradientEstimator e : {GradientEstimator::Reparam, GradientEstimator::Score,
                                          GradientEstimator::ScoreBaseline}) {
            Rng rng(421), again(421);
            const GradientSpread spread =
                encoderGradientSpread(p.model, {p.shape, p.phi}, p.X, e, samples, draws, rng);
            Mlp net(p.shape);
            ElboPass pass(p.model.shape);
            ElboGradient g;
            Vector gPhi;
            Matrix G(p.phi.size(), draws), eps(2, p.X.cols() * samples);
            for (int t = 0; t < draws; ++t) {
                again.fillNormal(Eigen::Map<Vector>(eps.data(), eps.size()));
                vaeBatchElbo(net, pass, p.model, p.phi, p.X, eps, &g, &gPhi, e);
                G.col(t) = gPhi / double(p.X.cols());
            }
            const Vector mean = G.rowwise().mean();
            const double trace = (G.colwise() - mean).squaredNorm() / (draws - 1.0);
            QVERIFY(std::abs(spread.meanNorm - mean.norm()) < 1e-10 * mean.norm());
            QVERIFY2(std::abs(spread.variance - trace) < 1e-9 * trace,
                     qPrintable(QString("%1 vs %2").arg(spread.variance).arg(trace)));
        }
        // What the study is for: here the baseline takes most of the score function's variance
        // away, and the reparameterised draws spread least (measured, not a law).
        Rng rng(431);
        auto variance = [&](GradientEstimator e) {
            return encoderGradientSpread(p.model, {p.shape, p.phi}, p.X, e, 2, 2000, rng).variance;
        };
        const double reparam = variance(GradientEstimator::Reparam),
                     score = variance(GradientEstimator::Score),
                     baseline = variance(GradientEstimator::ScoreBaseline);
        QVERIFY2(reparam < baseline && baseline < 0.5 * score,
                 qPrintable(QString("%1 %2 %3").arg(reparam).arg(baseline).arg(score)));
    }

    void theOptionsRefusalsAreOneLineEach() {
        Rng rng(441);
        const Matrix rows = rng.normalMatrix(50, 4);
        VaeOptions o;
        o.latent = 1;
        o.hidden = {5};
        o.encoderGradient = GradientEstimator::ScoreBaseline;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeVaeFit(VaeMethod::Vae, rows, o));
        o.encoderSamples = 2;
        QVERIFY(makeVaeFit(VaeMethod::Vae, rows, o));
        o.noise = NoiseKind::Network;
        QVERIFY(makeVaeFit(VaeMethod::Vae, rows, o));
        QVERIFY(makeVaeFit(VaeMethod::Vem, rows, o));
        QVERIFY(makeVaeFit(VaeMethod::LinearVae, rows, o)); // its own noise, σ²I
        o.hidden.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeVaeFit(VaeMethod::Vae, rows, o));
        o.hidden = {5};
        o.linearNoise = NoiseKind::Network;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeVaeFit(VaeMethod::LinearVae, rows, o));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseEncoderGradient("reinforce"));
        QCOMPARE(parseEncoderGradient("score-baseline"), GradientEstimator::ScoreBaseline);
    }

    // Both new pieces learn on two moons: the held-out ELBO rises from the first epoch to the
    // fifteenth, the IW log-likelihood (with σ²(z)) stays above the ELBO within Monte Carlo
    // error, and the study gives a row per estimator.
    void aHeteroscedasticVaeAndAScoreFunctionVaeLearn_data() {
        QTest::addColumn<int>("noise");
        QTest::addColumn<int>("estimator");
        QTest::newRow("network noise")
            << int(NoiseKind::Network) << int(GradientEstimator::Reparam);
        QTest::newRow("score-baseline")
            << int(NoiseKind::Diagonal) << int(GradientEstimator::ScoreBaseline);
    }
    void aHeteroscedasticVaeAndAScoreFunctionVaeLearn() {
        QFETCH(int, noise);
        QFETCH(int, estimator);
        VaeDataSpec spec;
        spec.dataset = "two-moons";
        spec.dim = 4;
        spec.samples = 500;
        const VaeData data = makeVaeData(spec, {});
        VaeOptions o;
        o.latent = 1;
        o.hidden = {16};
        o.noise = NoiseKind(noise);
        o.encoderGradient = GradientEstimator(estimator);
        o.encoderSamples = 2;
        o.lr = 0.01;
        o.seed = 451;
        auto fit = makeVaeFit(VaeMethod::Vae, data.rows.train, o);
        const VaeEvalOptions eval{50, 200, 30, 0.05};
        fit->epoch();
        const VaeScores first = scoreVaeFit(*fit, data.rows.test, eval, 452);
        for (int e = 1; e < 15; ++e)
            fit->epoch();
        const VaeScores last = scoreVaeFit(*fit, data.rows.test, eval, 452);
        const QString what = QString("ELBO %1 -> %2, IW %3")
                                 .arg(first.testElbo)
                                 .arg(last.testElbo)
                                 .arg(last.iwLoglik);
        QVERIFY2(std::isfinite(last.testElbo) && last.testElbo > first.testElbo + 0.1,
                 qPrintable(what));
        QVERIFY2(last.iwLoglik > last.testElbo - 0.05, qPrintable(what));
        const auto rows = vaeGradientStudy(*fit, 20, 453, VaeGradRow{});
        QCOMPARE(rows.size(), std::size_t(3));
        for (const VaeGradRow& r : rows)
            QVERIFY(r.variance > 0.0 && r.rows == 100 && r.samples == 2 && r.draws == 20);
    }
};

QTEST_APPLESS_MAIN(TestVaeScore)
#include "test_vae_score.moc"
