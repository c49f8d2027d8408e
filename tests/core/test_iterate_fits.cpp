// Posteriors from a network's SGD iterates (core/neural/IterateFits.h, docs/maths/neural.md §8),
// each against an independent reference: SWAG's covariance against its definition written out
// densely on the trajectory recorded here; swa-fa-em / swa-fa-sga over a linear model's weights
// against the posterior lab's SGD (core/vi/SgdTrainer, its own loss and gradient code) feeding
// online EM / SGA as core/posterior does; MAP against the ridge solution; the run's bookkeeping
// (members, warm-ups, abandoning, no allocation per iterate). The mixture predictive is in
// test_neural_predictive.cpp.
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/math/Rng.h"
#include "core/neural/IterateFits.h"
#include "core/vi/SgdTrainer.h"
#include "tests/support/CountAllocations.h" // replaces operator new in this program

#include <QtTest>
#include <atomic>

using namespace fa;

namespace {

struct Data {
    Matrix X;
    Vector y;
};

/// y = 1.5 x0 - 0.5 x1 + 0.8 x2 + 0.3 + 0.3 eps (inputs N(0, 1)).
Data linearData(Eigen::Index n, std::uint64_t seed) {
    Rng rng(seed);
    Data d{rng.normalMatrix(n, 3), Vector(n)};
    for (Eigen::Index i = 0; i < n; ++i)
        d.y(i) = 1.5 * d.X(i, 0) - 0.5 * d.X(i, 1) + 0.8 * d.X(i, 2) + 0.3 + 0.3 * rng.normal();
    return d;
}

/// 40 rows of two N(0, 1) inputs, y = x0 x1 + 0.1 x0: a target a 2-3-1 ReLU network can learn.
Data productData(std::uint64_t seed) {
    Rng rng(seed);
    const Matrix X = rng.normalMatrix(40, 2);
    return {X, (X.col(0).array() * X.col(1).array()).matrix() + 0.1 * X.col(0)};
}

Matrix withOnes(const Matrix& X) {
    Matrix Z(X.rows(), X.cols() + 1);
    Z << X, Vector::Ones(X.rows());
    return Z;
}

double maxAbs(const Matrix& A) {
    return A.cwiseAbs().maxCoeff();
}

IterateFitOptions linearOptions(IterateMethod method) {
    IterateFitOptions o;
    o.method = method;
    o.hidden = {};
    o.batch = 8;
    o.learningRate = 0.02;
    o.priorPrecision = 2.0;
    o.noisePrecision = 4.0;
    o.epochs = 30;
    o.swaStart = 10;
    o.rank = 2;
    o.faWarmup = 20;
    o.seed = 3;
    return o;
}

} // namespace

class TestIterateFits : public QObject {
    Q_OBJECT
  private slots:
    void namesRoundTrip() {
        const std::vector<IterateMethod> all = allIterateMethods();
        QCOMPARE(all.size(), std::size_t(7));
        for (const IterateMethod m : all)
            QCOMPARE(parseIterateMethod(iterateMethodName(m)), std::optional(m));
        QCOMPARE(iterateMethodName(IterateMethod::MultiSwaFaEm), std::string("multi-swa-fa-em"));
        QVERIFY(!parseIterateMethod("swa"));
        QCOMPARE(defaultMembers(IterateMethod::MultiSwag), 5);
        QCOMPARE(defaultMembers(IterateMethod::Swag), 1);
    }

    void swagCovarianceIsItsDefinitionOnTheRecordedTrajectory() {
        // A 2-3-1 ReLU network (D = 13). The trajectory is recorded here through the observer;
        // the mean, the variance (two passes) and the last K deviations from the running mean
        // at their time (a fresh sum each) give Sigma = 1/2 diag(var) + 1/2 D D^T / (K - 1).
        const auto [X, y] = productData(4);
        IterateFitOptions o;
        o.method = IterateMethod::Swag;
        o.hidden = {3};
        o.batch = 8, o.learningRate = 0.05, o.rank = 6, o.epochs = 12, o.swaStart = 4;
        IterateFit fit(X, y, o);
        std::vector<Vector> iterates;
        fit.onIterate([&](int member, const Vector& theta) {
            QCOMPARE(member, 0);
            if (fit.epoch() >= o.swaStart)
                iterates.push_back(theta);
        });
        for (int e = 0; e < o.epochs; ++e)
            fit.runEpoch();
        QVERIFY(fit.finished());
        const auto T = static_cast<long>(iterates.size());
        QCOMPARE(T, 8L * 5); // 8 collecting epochs of 5 batches
        QCOMPARE(fit.collected(0), T);
        const Eigen::Index D = fit.network().dim();
        Vector mean = Vector::Zero(D), var = Vector::Zero(D);
        for (const Vector& t : iterates)
            mean += t / static_cast<double>(T);
        for (const Vector& t : iterates)
            var += (t - mean).cwiseAbs2() / static_cast<double>(T);
        Matrix dev(D, o.rank);
        for (long t = T - o.rank; t < T; ++t) {
            Vector runningMean = Vector::Zero(D);
            for (long s = 0; s <= t; ++s)
                runningMean += iterates[static_cast<std::size_t>(s)];
            dev.col(t - (T - o.rank)) =
                iterates[static_cast<std::size_t>(t)] - runningMean / (t + 1);
        }
        Matrix sigma = 0.5 * dev * dev.transpose() / (o.rank - 1);
        sigma.diagonal() += 0.5 * var;
        const std::vector<FAModel> q = fit.posterior();
        QCOMPARE(q.size(), std::size_t(1));
        QCOMPARE(fit.status(), FitStatus::Running);
        QVERIFY(maxAbs(q[0].c - mean) < 1e-12 * maxAbs(mean));
        const double err = maxAbs(q[0].denseCovariance() - sigma) / maxAbs(sigma);
        QVERIFY2(err < 1e-9, qPrintable(QString::number(err)));
        QVERIFY(maxAbs(sigma) > 1e-6); // the iterates move: the check is not of zeros
    }

    void swaFaOnALinearModelIsThePosteriorLabsSgdFit() {
        // The posterior lab's SGD (SgdTrainer: loss sum (y - theta^T z)^2 + lambda |theta|^2,
        // steps (2/M) sum z r + (2 lambda / N) theta) and MapSgd over a network without a hidden
        // layer (steps (beta/M) sum z r + (alpha / N) theta) take the same steps when
        // lambda = alpha / beta and eta_SgdTrainer = eta beta / 2. Their shuffles draw from
        // differently used streams, so the batches are full (one batch an epoch, any order): the
        // two SGDs then follow one trajectory, and online EM / SGA configured as core/posterior
        // configures them (latent K, warm-up, start frame), fed from SgdTrainer's iterates from
        // epoch swaStart on, must give this run's Gaussian.
        const Data d = linearData(40, 5);
        const Matrix Z = withOnes(d.X); // SgdTrainer keeps references to its data
        for (const IterateMethod method : {IterateMethod::SwaFaEm, IterateMethod::SwaFaSga}) {
            IterateFitOptions o = linearOptions(method);
            o.batch = 40, o.learningRate = 0.01, o.epochs = 80, o.swaStart = 5;
            o.noisePrecision = 3.0; // not a power of 2: the scalings round
            o.sgaLearningRate = 0.05;
            SgdOptions s;
            s.batch = 40;
            s.learningRate = o.learningRate * o.noisePrecision / 2.0;
            s.lambda = o.priorPrecision / o.noisePrecision;
            SgdTrainer sgd(Z, d.y, s);
            IterateFit fit(d.X, d.y, o, {sgd.theta()}); // SgdTrainer's random start
            OnlineOptions f;
            f.latent = o.rank;
            f.warmup = o.faWarmup;
            f.learningRate = o.sgaLearningRate;
            f.initSeed = deriveSeed(deriveSeed(o.seed, SeedStream::IterateMemberBase, 0),
                                    SeedStream::IterateFitter);
            std::unique_ptr<OnlineFitter> lab;
            if (method == IterateMethod::SwaFaEm)
                lab = std::make_unique<OnlineEM>(4, f);
            else
                lab = std::make_unique<OnlineSGA>(4, f);
            for (int e = 0; e < o.epochs; ++e) {
                fit.runEpoch();
                const bool feed = sgd.epoch() >= o.swaStart; // as PosteriorTrial::runEpoch
                sgd.runEpoch([&](const Vector& theta) {
                    if (feed)
                        lab->observe(theta);
                });
            }
            QVERIFY(maxAbs(fit.weights(0) - sgd.theta()) < 1e-12);
            QCOMPARE(fit.collected(0), lab->step());
            QCOMPARE(fit.status(), FitStatus::Running);
            const FAModel q = fit.posterior().front(), ref = lab->model();
            QVERIFY(maxAbs(q.c - ref.c) < 1e-9 * maxAbs(ref.c));
            QVERIFY2(maxAbs(q.F - ref.F) < 1e-9 * maxAbs(ref.F),
                     qPrintable(QString::number(maxAbs(q.F - ref.F) / maxAbs(ref.F))));
            QVERIFY(maxAbs(q.psi - ref.psi) < 1e-9 * maxAbs(ref.psi));
            QVERIFY(maxAbs(ref.F) > 1e-6); // a fit that moved, not a frame at rest
        }
    }

    // The start at the iterates' scale (docs/maths/neural.md §8.8): s, the weights' sd over the
    // epoch before the SWA start, recomputed here in two passes. FA is equivariant under
    // x -> x / s, so the run's online EM is diag(s) times the thesis-start one fed iterates / s.
    void startAtTheIteratesScaleIsTheThesisFitRescaled_data() {
        QTest::addColumn<int>("method");
        QTest::newRow("online EM") << int(IterateMethod::SwaFaEm);
        QTest::newRow("online SGA") << int(IterateMethod::SwaFaSga);
    }

    void startAtTheIteratesScaleIsTheThesisFitRescaled() {
        QFETCH(int, method);
        const auto [X, y] = productData(6);
        IterateFitOptions o;
        o.method = IterateMethod(method);
        o.faStart = FaStart::Iterates;
        o.hidden = {3};
        o.batch = 8, o.learningRate = 0.05, o.rank = 2, o.epochs = 12, o.swaStart = 4;
        o.faWarmup = 6;
        IterateFit fit(X, y, o);
        std::vector<Vector> before, collected;
        fit.onIterate([&](int, const Vector& theta) {
            if (fit.epoch() == o.swaStart - 1)
                before.push_back(theta);
            else if (fit.epoch() >= o.swaStart)
                collected.push_back(theta);
        });
        for (int e = 0; e < o.epochs; ++e) {
            fit.runEpoch();
            if (e < o.swaStart)
                QCOMPARE(fit.status(), FitStatus::WarmUp); // no Gaussian before the start
        }
        QCOMPARE(before.size(), std::size_t(5));
        const Eigen::Index D = fit.network().dim();
        Vector mean = Vector::Zero(D), var = Vector::Zero(D);
        for (const Vector& t : before)
            mean += t / 5.0;
        for (const Vector& t : before)
            var += (t - mean).cwiseAbs2() / 5.0;
        const Vector s = var.cwiseMax(1e-12).cwiseSqrt();
        OnlineOptions f;
        f.latent = o.rank;
        f.warmup = o.faWarmup;
        f.learningRate = o.sgaLearningRate;
        f.initSeed = deriveSeed(deriveSeed(o.seed, SeedStream::IterateMemberBase, 0),
                                SeedStream::IterateFitter);
        std::unique_ptr<StreamFit> reference;
        if (o.method == IterateMethod::SwaFaSga)
            reference = std::make_unique<OnlineSGA>(D, f);
        else
            reference = std::make_unique<OnlineEM>(D, f);
        for (const Vector& t : collected)
            reference->observe(t.cwiseQuotient(s));
        const FAModel r = reference->model();
        const FAModel q = fit.posterior().front();
        QCOMPARE(fit.status(), FitStatus::Running);
        QVERIFY(maxAbs(q.c - s.cwiseProduct(r.c)) < 1e-9 * maxAbs(q.c));
        QVERIFY(maxAbs(q.F - s.asDiagonal() * r.F) < 1e-9 * maxAbs(q.F));
        QVERIFY(maxAbs(q.psi - s.cwiseAbs2().cwiseProduct(r.psi)) < 1e-9 * maxAbs(q.psi));
        // And the thesis's start is another fit: the option changes the numbers.
        o.faStart = FaStart::Thesis;
        IterateFit thesis(X, y, o);
        for (int e = 0; e < o.epochs; ++e)
            thesis.runEpoch();
        QVERIFY(maxAbs(thesis.posterior().front().psi - q.psi) > 1e-6 * maxAbs(q.psi));
        o.faStart = FaStart::Iterates;
        o.swaStart = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, IterateFit(X, y, o));
        QCOMPARE(faStartName(*parseFaStart("iterates")), std::string("iterates"));
        QVERIFY(!parseFaStart("unit"));
    }

    void mapIsTheRidgeSolution() {
        // Without a hidden layer, MAP = (beta Z^T Z + alpha I)^-1 beta Z^T y with Z = [X, 1].
        const Data d = linearData(50, 6);
        IterateFitOptions o = linearOptions(IterateMethod::Map);
        o.batch = 50, o.learningRate = 0.02, o.epochs = 4000;
        IterateFit fit(d.X, d.y, o);
        for (int e = 0; e < o.epochs; ++e)
            fit.runEpoch();
        const Matrix Z = withOnes(d.X);
        const Matrix A =
            o.noisePrecision * Z.transpose() * Z + o.priorPrecision * Matrix::Identity(4, 4);
        const Vector ridge = A.ldlt().solve(o.noisePrecision * Z.transpose() * d.y);
        const FAModel q = fit.posterior().front();
        QVERIFY(isPointMass(q));
        QVERIFY2((q.c - ridge).norm() < 1e-9 * ridge.norm(),
                 qPrintable(QString::number((q.c - ridge).norm() / ridge.norm())));
    }

    void warmUpsGivePointMasses() {
        // Before swaStart a member is its SGD iterate; during the fitter's warm-up it is SWA, a
        // point mass at the running mean of what was collected; after, the fit's Gaussian.
        const Data d = linearData(40, 7);
        IterateFitOptions o = linearOptions(IterateMethod::SwaFaEm);
        o.swaStart = 2, o.faWarmup = 12; // 5 iterates an epoch: warm until epoch 5 ends
        IterateFit fit(d.X, d.y, o);
        Vector sum = Vector::Zero(4);
        fit.onIterate([&](int, const Vector& theta) {
            if (fit.epoch() >= o.swaStart)
                sum += theta;
        });
        fit.runEpoch(), fit.runEpoch();
        QCOMPARE(fit.status(), FitStatus::WarmUp);
        QCOMPARE(fit.posterior().front().c, fit.weights(0));
        QVERIFY(isPointMass(fit.posterior().front()));
        fit.runEpoch(), fit.runEpoch();
        QCOMPARE(fit.collected(0), 10L);
        QCOMPARE(fit.status(), FitStatus::WarmUp);
        QVERIFY(isPointMass(fit.posterior().front()));
        QVERIFY(maxAbs(fit.posterior().front().c - sum / 10.0) < 1e-12);
        fit.runEpoch();
        QCOMPARE(fit.status(), FitStatus::Running);
        QVERIFY(!isPointMass(fit.posterior().front()));
    }

    void membersAreIndependentRuns() {
        // Member 0 of multi-swa-fa-em is swa-fa-em under the same seed; member 1 starts
        // elsewhere (its own initialisation and batch order) and ends elsewhere.
        Rng rng(8);
        const Matrix X = rng.normalMatrix(30, 2);
        const Vector y = X.col(0).array().sin().matrix();
        IterateFitOptions o;
        o.method = IterateMethod::MultiSwaFaEm;
        o.hidden = {4};
        o.batch = 5, o.epochs = 6, o.swaStart = 2, o.rank = 2, o.faWarmup = 5, o.members = 3;
        IterateFit multi(X, y, o);
        o.method = IterateMethod::SwaFaEm, o.members = 0;
        IterateFit one(X, y, o);
        QCOMPARE(multi.members(), 3);
        MlpShape shape;
        shape.inputs = 2, shape.hidden = {4};
        const Vector start1 = Mlp::initialWeights(
            shape, deriveSeed(deriveSeed(o.seed, SeedStream::IterateMemberBase, 1),
                              SeedStream::NeuralNetworkStart));
        QCOMPARE(multi.weights(1), start1);
        for (int e = 0; e < o.epochs; ++e)
            multi.runEpoch(), one.runEpoch();
        const std::vector<FAModel> q = multi.posterior();
        QCOMPARE(q.size(), std::size_t(3));
        QCOMPARE(q[0].c, one.posterior().front().c);
        QCOMPARE(q[0].F, one.posterior().front().F);
        QVERIFY(maxAbs(q[1].c - q[0].c) > 1e-3);
        QCOMPARE(multi.collected(2), 4L * 6);
    }

    void anAbandonedRunStops() {
        // Raised inside member 0's third step: that member takes no further step, the others
        // none, and the epoch does not count.
        const Data d = linearData(40, 9);
        IterateFitOptions o = linearOptions(IterateMethod::Ensemble);
        o.members = 3;
        IterateFit fit(d.X, d.y, o);
        std::atomic<bool> flag{false};
        fit.abandonOn(&flag);
        const Vector start1 = fit.weights(1);
        std::vector<int> steps(3, 0);
        fit.onIterate([&](int member, const Vector&) {
            if (++steps[static_cast<std::size_t>(member)] == 3)
                flag = true;
        });
        fit.runEpoch();
        QCOMPARE(steps, (std::vector<int>{3, 0, 0}));
        QCOMPARE(fit.epoch(), 0L);
        QCOMPARE(fit.weights(1), start1);
        fit.runEpoch();
        QCOMPARE(steps, (std::vector<int>{3, 0, 0}));
    }

    void anEpochDoesNotAllocatePerIterate() {
        // 400 rows in batches of 4: 100 iterates an epoch, each a step of every member's SGD and
        // an observation of its online EM; a handful of allocations per epoch at most (the
        // callbacks), none per iterate.
        const Data d = linearData(400, 10);
        IterateFitOptions o = linearOptions(IterateMethod::MultiSwaFaEm);
        o.members = 2, o.batch = 4, o.swaStart = 1, o.faWarmup = 10;
        IterateFit fit(d.X, d.y, o);
        fit.runEpoch(), fit.runEpoch(); // buffers sized, warm-up passed
        const long before = test::allocations();
        fit.runEpoch();
        const long allocations = test::allocations() - before;
        QCOMPARE(fit.collected(1), 200L);
        QVERIFY2(allocations < 10, qPrintable(QString::number(allocations)));
    }

    void badOptionsAreRefused() {
        const Data d = linearData(20, 11);
        IterateFitOptions o = linearOptions(IterateMethod::Swag);
        o.members = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, IterateFit(d.X, d.y, o));
        o = linearOptions(IterateMethod::MultiSwag);
        o.swaStart = o.epochs;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, IterateFit(d.X, d.y, o));
        o = linearOptions(IterateMethod::SwaFaEm);
        o.rank = 4; // D = 4
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, IterateFit(d.X, d.y, o));
        o = linearOptions(IterateMethod::Ensemble);
        o.members = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, IterateFit(d.X, d.y, o, {Vector::Zero(4)}));
        o.learningRate = -1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, IterateFit(d.X, d.y, o));
        o = linearOptions(IterateMethod::Map);
        o.swaStart = 1000; // not used by map
        IterateFit ok(d.X, d.y, o);
        QCOMPARE(ok.members(), 1);
    }
};

QTEST_GUILESS_MAIN(TestIterateFits)
#include "test_iterate_fits.moc"
