// The network behind neural VIFA: backpropagation against central finite differences for every
// layer; the predictive NMLL and RMSE against hand and closed-form computations on the
// original target scale; the tuner's independence of the thread count; a fit that learns; a
// cancel while the predictive's draws score the test rows or a tuner's fold, and a run that
// reports its progress giving the same rows.
#include "core/math/Rng.h"
#include "core/models/Mlp.h"
#include "core/neural/MlpLikelihood.h"
#include "core/neural/NeuralRegression.h"

#include <QtTest>
#include <array>

#include <atomic>
#include <chrono>
#include <numbers>
#include <numeric>
#include <thread>

using namespace fa;

namespace {

double relErr(const Vector& a, const Vector& b) {
    return (a - b).norm() / b.norm();
}

Matrix randomMatrix(Eigen::Index r, Eigen::Index c, std::uint64_t seed) {
    Rng rng(seed);
    return rng.normalMatrix(r, c);
}

/// One split of `rows` synthetic rows, half held out, a small network and a one-candidate,
/// two-fold search: a run of milliseconds unless predictiveSamples is large.
NeuralConfig smallRun(int rows) {
    NeuralConfig c;
    c.dataset = "synthetic";
    c.loader = [rows](const std::string&, const std::string&) {
        SyntheticRecipe r;
        r.samples = rows;
        RegressionData d = syntheticRegression(r, 3);
        d.name = "synthetic";
        return d;
    };
    c.fit.hidden = {3};
    c.fit.batch = 2;
    c.fit.epochs = 2;
    c.splits = 1;
    c.trainFraction = 0.5;
    c.searchTrials = 1;
    c.folds = 2;
    c.threads = 1;
    return c;
}

} // namespace

class TestNeural : public QObject {
    Q_OBJECT
  private slots:
    void parameterCountAndLayout() {
        MlpShape s;
        s.inputs = 13;
        s.hidden = {50};
        QCOMPARE(s.parameterCount(), Eigen::Index{13 * 50 + 50 + 50 + 1});
        s.hidden = {50, 50};
        QCOMPARE(s.parameterCount(), Eigen::Index{13 * 50 + 50 + 50 * 50 + 50 + 50 + 1});
        QCOMPARE(s.name(), std::string("50,50"));
    }
    void backpropagationMatchesFiniteDifferences_data() {
        QTest::addColumn<QList<int>>("hidden");
        QTest::newRow("linear") << QList<int>{};
        QTest::newRow("one hidden layer") << QList<int>{6};
        QTest::newRow("two hidden layers") << QList<int>{5, 4};
        QTest::newRow("three hidden layers") << QList<int>{4, 3, 5};
    }
    void backpropagationMatchesFiniteDifferences() {
        QFETCH(QList<int>, hidden);
        MlpShape shape;
        shape.inputs = 3;
        shape.hidden = std::vector<int>(hidden.begin(), hidden.end());
        const Matrix X = randomMatrix(20, 3, 1);
        const Vector y = randomMatrix(20, 1, 2).col(0);
        const MlpLikelihood net(X, y, shape, 1.7);
        Vector theta = MlpLikelihood::initialWeights(shape, 3);
        Rng rng(4);
        for (Eigen::Index k = 0; k < theta.size(); ++k)
            theta(k) += 0.3 * rng.normal(); // non-zero biases, so no ReLU sits exactly at its kink
        const std::vector<Eigen::Index> batch = {0, 2, 3, 7, 11, 19};
        Vector grad(theta.size());
        net.meanNegLogLik(theta, batch, grad);
        // Reference: the mean NLL from predict() (the forward pass alone), differentiated
        // numerically.
        const auto f = [&](const Vector& t) {
            const Vector out = net.predict(t, X);
            double s = 0.0;
            for (const auto n : batch)
                s += 0.5 * 1.7 * (out(n) - y(n)) * (out(n) - y(n)) -
                     0.5 * std::log(1.7 / (2 * std::numbers::pi));
            return s / double(batch.size());
        };
        Vector fd(theta.size());
        for (Eigen::Index k = 0; k < theta.size(); ++k) {
            Vector a = theta, b = theta;
            a(k) += 1e-6;
            b(k) -= 1e-6;
            fd(k) = (f(a) - f(b)) / 2e-6;
        }
        QVERIFY2(relErr(grad, fd) < 1e-6, qPrintable(QString::number(relErr(grad, fd))));
        // Every layer's block individually (a wrong index in one layer cannot hide behind others).
        Eigen::Index offset = 0, in = shape.inputs;
        std::vector<int> outs = shape.hidden;
        outs.push_back(1);
        for (const int out : outs) {
            const Eigen::Index size = out * in + out;
            QVERIFY(relErr(grad.segment(offset, size), fd.segment(offset, size)) < 1e-5);
            offset += size;
            in = out;
        }
        Vector unused(theta.size());
        QVERIFY(std::abs(net.meanNegLogLik(theta, batch, unused) - f(theta)) < 1e-12);
    }
    void nmllAndRmseByHand() {
        // Network 1 -> 1 -> 1: f(x) = w2 relu(w1 x + b1) + b2 with (w1, b1, w2, b2) = (2, -1, 3,
        // 0.5); q concentrated on that theta (no factors' effect: F = 0, psi tiny), so every draw
        // is it.
        MlpShape shape;
        shape.inputs = 1;
        shape.hidden = {1};
        Matrix X(3, 1);
        X << 0.2, 1.0, 2.0; // standardised inputs: f = 0.5, 3.5, 9.5
        const Vector yStd = Eigen::Vector3d(0, 0, 0);
        const double beta = 4.0, yMean = 10.0, yScale = 2.0;
        const MlpLikelihood net(X, yStd, shape, beta);
        FAModel q;
        q.c = Eigen::Vector4d(2, -1, 3, 0.5);
        q.F = Matrix::Zero(4, 1);
        q.psi = Vector::Constant(4, 1e-300);
        const Vector yOriginal = Eigen::Vector3d(11.0, 18.0, 27.0);
        const Predictive p = predictive(net, q, X, yOriginal, yMean, yScale, 5, 1);
        // Original scale: means 10 + 2 f = 11, 17, 29; variance 2^2 / 4 = 1.
        const double nll = (0.0 + 1.0 + 4.0) / 2.0 / 3.0 + 0.5 * std::log(2 * std::numbers::pi);
        QVERIFY(std::abs(p.nmll - nll) < 1e-12);
        QVERIFY(std::abs(p.rmse - std::sqrt((0.0 + 1.0 + 4.0) / 3.0)) < 1e-12);
        QVERIFY(std::abs(p.mean(2) - 29.0) < 1e-12);
        QVERIFY(std::abs(p.sd(0) - 1.0) < 1e-12);
        // Standardised errors 0, 1 and -2: the last lies outside +-1.96 (coverage 2/3), and the
        // PIT values Phi(0) = 0.5, Phi(1) = 0.84, Phi(-2) = 0.023 fall in bins 5, 8 and 0.
        QCOMPARE(p.coverage95, 2.0 / 3.0);
        const std::array<int, kPitBins> pit{1, 0, 0, 0, 0, 1, 0, 0, 1, 0};
        QCOMPARE(p.pit, pit);
    }
    void mixtureNmllTendsToTheClosedForm() {
        // A linear "network" (no hidden layer) under q = N(c, F F^T + Psi): the predictive is
        // exactly N(y; s x^T c + m, s^2 (1/beta + x^T S x)); with many draws the Monte Carlo
        // mixture NMLL and its standard deviation approach it.
        MlpShape shape;
        shape.inputs = 2;
        shape.hidden = {};
        const Matrix X = randomMatrix(6, 2, 8);
        const double beta = 2.0, yMean = -1.0, yScale = 3.0;
        const MlpLikelihood net(X, Vector::Zero(6), shape, beta);
        FAModel q;
        // (dynamic sizes: GCC 12 at -O3 misreads a fixed Vector3d copied into them)
        q.c = (Vector(3) << 0.4, -0.2, 0.1).finished();
        q.F = (Matrix(3, 1) << 0.3, 0.2, -0.1).finished();
        q.psi = (Vector(3) << 0.05, 0.02, 0.03).finished();
        const Matrix S = q.denseCovariance();
        const Vector yOriginal = randomMatrix(6, 1, 9).col(0) * 3.0;
        const Predictive p = predictive(net, q, X, yOriginal, yMean, yScale, 40000, 3);
        double nll = 0.0;
        for (Eigen::Index i = 0; i < 6; ++i) {
            const Vector x = (Vector(3) << X(i, 0), X(i, 1), 1.0).finished();
            const double mu = yScale * x.dot(q.c) + yMean,
                         var = yScale * yScale * (1 / beta + x.dot(S * x));
            nll += 0.5 * std::log(2 * std::numbers::pi * var) +
                   0.5 * (yOriginal(i) - mu) * (yOriginal(i) - mu) / var;
            QVERIFY(std::abs(p.sd(i) - std::sqrt(var)) < 0.02 * std::sqrt(var));
        }
        QVERIFY2(std::abs(p.nmll - nll / 6) < 0.01,
                 qPrintable(QString("%1 vs %2").arg(p.nmll).arg(nll / 6)));
    }
    void tunerDoesNotDependOnThreads() {
        SyntheticRecipe r;
        r.samples = 60;
        r.inputs = 2;
        const RegressionData d = syntheticRegression(r, 2);
        PrepareOptions o;
        o.bias = false;
        const RegressionProblem p = prepareRegression(d, o);
        NeuralFitOptions f;
        f.hidden = {4};
        f.epochs = 5;
        f.predictiveSamples = 10;
        const TuneResult one = tuneNeural(p, NeuralMethod::VippcaGauss, f, 4, 3, 11, 1);
        const TuneResult two = tuneNeural(p, NeuralMethod::VippcaGauss, f, 4, 3, 11, 2);
        QCOMPARE(one.validationNmll, two.validationNmll);
        QCOMPARE(one.best.priorPrecision, two.best.priorPrecision);
        QVERIFY(one.best.priorPrecision >= 0.01 && one.best.priorPrecision <= 10);
        QVERIFY(one.best.sigma >= 0.01 && one.best.sigma <= 1);
    }
    // The search ranges (appendix A of the report: the Laplace rate searched itself). A range
    // of one point gives that value to every candidate, so the choice is known in closed form:
    // alpha, beta and sigma the points, and for a Laplace method with a rate range [b, b]
    // alpha = b^2 / 2 (the rate is sqrt(2 alpha)); a Gaussian method ignores the rate range.
    // Wider ranges keep the choice inside them; a range with low > high is refused.
    void searchRangesBoundTheCandidates() {
        SyntheticRecipe r;
        r.samples = 40;
        r.inputs = 2;
        PrepareOptions o;
        o.bias = false;
        const RegressionProblem p = prepareRegression(syntheticRegression(r, 3), o);
        NeuralFitOptions f;
        f.hidden = {3};
        f.epochs = 2;
        f.predictiveSamples = 5;
        SearchRanges point;
        point.prior = {0.3, 0.3};
        point.noise = {7.0, 7.0};
        point.sigma = {0.2, 0.2};
        point.laplace = SearchRange{2.5, 2.5};
        const TuneResult laplace =
            tuneNeural(p, NeuralMethod::VifaLaplace, f, 3, 2, 4, 1, nullptr, point);
        QCOMPARE(laplace.best.priorPrecision, 0.5 * 2.5 * 2.5);
        QCOMPARE(laplace.best.noisePrecision, 7.0);
        const TuneResult gauss =
            tuneNeural(p, NeuralMethod::VippcaGauss, f, 3, 2, 4, 1, nullptr, point);
        QCOMPARE(gauss.best.priorPrecision, 0.3);
        QCOMPARE(gauss.best.sigma, 0.2);
        SearchRanges wide;
        wide.prior = {2.0, 3.0};
        wide.noise = {20.0, 30.0};
        wide.laplace = SearchRange{0.5, 0.6};
        const TuneResult w = tuneNeural(p, NeuralMethod::VifaLaplace, f, 4, 2, 4, 1, nullptr, wide);
        const double rate = std::sqrt(2.0 * w.best.priorPrecision);
        QVERIFY2(rate >= 0.5 - 1e-12 && rate <= 0.6 + 1e-12, qPrintable(QString::number(rate)));
        QVERIFY(w.best.noisePrecision >= 20.0 && w.best.noisePrecision <= 30.0);
        wide.sigma = {1.0, 0.5};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tuneNeural(p, NeuralMethod::VippcaGauss, f,
                                                                   2, 2, 4, 1, nullptr, wide));
    }
    void aFitLearnsTheFunction() {
        // y = sin(2 x) + noise: after training, the test RMSE is far below the target's spread.
        Rng rng(5);
        const int n = 400;
        Matrix X(n, 1);
        Vector y(n);
        for (int i = 0; i < n; ++i) {
            X(i, 0) = rng.uniform(-1.5, 1.5);
            y(i) = std::sin(2 * X(i, 0)) + 0.1 * rng.normal();
        }
        NeuralFitOptions f;
        f.hidden = {20};
        f.epochs = 60;
        f.reportInit =
            false; // a network-scaled start: this checks learning, not the report's start
        NeuralHyper h;
        h.priorPrecision = 1.0;
        h.noisePrecision = 100.0; // the true noise sd is 0.1
        NeuralFit fit(X.topRows(300), y.head(300), NeuralMethod::VifaGauss, h, f, 1);
        const Predictive before = fit.evaluate(X.bottomRows(100), y.tail(100), 0.0, 1.0, 50, 2);
        for (int e = 0; e < f.epochs; ++e)
            fit.runEpoch();
        const Predictive after = fit.evaluate(X.bottomRows(100), y.tail(100), 0.0, 1.0, 50, 2);
        QVERIFY2(after.rmse < 0.2 && after.rmse < 0.5 * before.rmse,
                 qPrintable(QString("RMSE %1 -> %2").arg(before.rmse).arg(after.rmse)));
        QVERIFY(after.nmll < before.nmll);
    }

    // As `vae`'s held-out scoring before 056981b: the test rows' S draws (up to 10⁵ from the CLI,
    // each a forward pass over every row) ignored a cancel, and the progress line still said
    // "final fit". The cancel is raised at the first report of the new stage: no draw follows
    // (the draws over 380 test rows would take about a second, reported every 0.1 s), and the
    // unfinished split gives no row.
    void aCancelWhileScoringTheTestRowsDropsTheSplit() {
        NeuralConfig c = smallRun(400);
        c.trainFraction = 0.05; // folds of 10 rows: the tuner's draws take a fraction of that
        c.fit.predictiveSamples = 100'000;
        std::atomic<bool> cancel{false};
        QStringList stages;
        int rowsSeen = 0;
        const auto rows = runNeural(
            c, [&](const NeuralRow&) { ++rowsSeen; },
            [&](const NeuralProgress& p) {
                stages << QString::fromStdString(p.stage);
                if (p.stage == "evaluating on the test rows")
                    cancel = true;
            },
            &cancel);
        QVERIFY(rows.empty());
        QCOMPARE(rowsSeen, 0);
        QCOMPARE(stages, QStringList({"tuning", "final fit", "evaluating on the test rows"}));
    }

    // The predictive itself at 10⁸ draws (minutes): a poll that cancels at its 100th look ends it
    // there, with NaN for the caller to drop.
    void aCancelStopsThePredictiveWithinADraw() {
        MlpShape shape;
        shape.inputs = 2;
        shape.hidden = {3};
        const Matrix X = randomMatrix(1, 2, 12);
        const MlpLikelihood net(X, Vector::Zero(1), shape, 2.0);
        FAModel q;
        q.c = MlpLikelihood::initialWeights(shape, 13);
        q.F = randomMatrix(shape.parameterCount(), 1, 14) * 0.1;
        q.psi = Vector::Constant(shape.parameterCount(), 0.01);
        std::atomic<bool> cancel{false};
        long looks = 0;
        const Predictive p = predictive(net, q, X, Vector::Zero(1), 0.0, 1.0, 100'000'000, 15,
                                        {&cancel, [&] { cancel = ++looks >= 100; }});
        QCOMPARE(looks, 100L);
        QVERIFY(std::isnan(p.nmll) && std::isnan(p.rmse));
        QCOMPARE(p.mean.size(), Eigen::Index{0});
    }

    // A tuner's fold is scored with the same S draws (no stage of its own: the line says
    // "tuning"). At 10⁵ draws of 2,001 weights per fold (the most a configuration takes, about
    // 0.3 s a fold, folds × trials of them) a cancel raised 0.3 s in, well after the millisecond
    // fits, ends the run within a draw and drops the split.
    void aCancelWhileValidatingAFoldStopsTheTuner() {
        NeuralConfig c = smallRun(8); // two rows per fold: the draws' matrix stays small
        c.fit.hidden = {500};
        c.fit.predictiveSamples = 100'000; // the most the configuration takes (NeuralParams.h)
        std::atomic<bool> cancel{false};
        QStringList stages;
        const auto start = std::chrono::steady_clock::now();
        std::thread later([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel = true;
        });
        const auto rows = runNeural(
            c, {}, [&](const NeuralProgress& p) { stages << QString::fromStdString(p.stage); },
            &cancel);
        later.join();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QVERIFY(rows.empty());
        QCOMPARE(stages, QStringList{"tuning"});
        QVERIFY2(seconds < 5.0, qPrintable(QString::number(seconds)));
    }

    // Reporting the stage (and looking at a cancel never raised) changes no number.
    void reportingChangesNoNumber() {
        NeuralConfig c = smallRun(40);
        c.fit.predictiveSamples = 2000;
        c.splits = 2;
        const std::atomic<bool> never{false};
        long reports = 0;
        const auto plain = runNeural(c);
        const auto reported = runNeural(
            c, {}, [&](const NeuralProgress&) { ++reports; }, &never);
        QVERIFY(reports >= 6); // three stages a split
        QCOMPARE(reported.size(), plain.size());
        QCOMPARE(plain.size(), std::size_t{2});
        for (std::size_t i = 0; i < plain.size(); ++i) {
            QVERIFY(reported[i].nmll == plain[i].nmll && reported[i].rmse == plain[i].rmse);
            QVERIFY(reported[i].hyper.priorPrecision == plain[i].hyper.priorPrecision);
            QCOMPARE(reported[i].status, std::string("ok"));
            QCOMPARE(plain[i].status, std::string("ok"));
        }
    }
};

QTEST_APPLESS_MAIN(TestNeural)
#include "test_neural.moc"
