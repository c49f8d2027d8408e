// The posterior lab's live run through the LiveRun interface: epochs as units, snapshots that
// say where the run stands, refusal of bad configs, the exact posterior and the VIFA mean
// against a dense closed form of Bayesian linear regression, recorded live changes that replay
// exactly, and CSV rows with the status words (warm-up for the SGD-fed methods first).
#include "core/posterior/PosteriorLive.h"

#include <QtTest>
#include <cmath>
#include <map>
#include <memory>
#include <set>

using namespace fa;

namespace {

PosteriorLiveConfig smallConfig() {
    PosteriorLiveConfig c;
    c.setup.synthetic.samples = 400; // two correlated inputs, no bias: D = 2, K = 1
    c.methods = {PosteriorMethod::VifaGauss, PosteriorMethod::SgdEm, PosteriorMethod::Swag};
    c.run.vifa.batch = 20;
    c.run.vifa.samples = 1;
    c.run.vifa.optimiser = OptimiserKind::Adam;
    c.run.warmupEpochs = 4;
    c.run.sgd.batch = 32;
    c.run.faWarmup = 100;
    c.seed = 3;
    return c;
}

/// Bayesian linear regression with prior N(0, alpha^-1 I) and noise precision beta, densely:
/// S = (alpha I + beta X^T X)^-1 by an LU inverse, m = beta S X^T y.
struct DensePosterior {
    Matrix cov;
    Vector mean;
};
DensePosterior densePosterior(const Matrix& X, const Vector& y, double alpha, double beta) {
    const Eigen::Index d = X.cols();
    Matrix A = alpha * Matrix::Identity(d, d);
    for (Eigen::Index n = 0; n < X.rows(); ++n)
        A.noalias() += beta * X.row(n).transpose() * X.row(n);
    DensePosterior p;
    p.cov = A.fullPivLu().inverse();
    p.mean = beta * p.cov * (X.transpose() * y);
    return p;
}

const PosteriorLiveSnapshot::Approximation& approximation(const PosteriorLiveSnapshot& s,
                                                          PosteriorMethod method) {
    for (const auto& a : s.approximations)
        if (a.method == method)
            return a;
    throw std::runtime_error("no approximation " + methodName(method));
}

} // namespace

class TestPosteriorLive : public QObject {
    Q_OBJECT
  private slots:
    void aRunEndsAtItsLength() {
        PosteriorLive live(smallConfig());
        LiveRun& run = live;
        QCOMPARE(run.advance(5), 5L);
        live.setLength(7);
        QCOMPARE(run.advance(10), 2L);
        QCOMPARE(run.position(), 7L);
        QVERIFY(run.finished());
        QCOMPARE(run.advance(1), 0L);
        QCOMPARE(run.labSnapshot()->length, 7L);
        live.setLength(3); // never below the epoch reached
        QCOMPARE(run.length(), 7L);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setLength(0));
    }

    void anAbandonedEpochStopsAtItsFirstMiniBatch() {
        // LiveRun::abandon (the window closing mid-epoch): VIFA and the SGD iterates stop at
        // their next mini-batch and advance counts no epoch; a run not abandoned moves.
        PosteriorLive kept(smallConfig()), dropped(smallConfig());
        const auto before = dropped.snapshot(0, 1);
        dropped.abandon();
        QCOMPARE(dropped.advance(1), 0L);
        QCOMPARE(kept.advance(1), 1L);
        const auto cut = dropped.snapshot(0, 1), moved = kept.snapshot(0, 1);
        QCOMPARE(cut.approximations[0].mean, before.approximations[0].mean); // VIFA: no step
        QVERIFY(moved.approximations[0].mean != before.approximations[0].mean);
        QCOMPARE(cut.iterates.size(), before.iterates.size()); // SGD: no step either
        QVERIFY(moved.iterates.size() > before.iterates.size());
    }

    void advanceMovesByEpochs() {
        PosteriorLive live(smallConfig());
        LiveRun& run = live;
        QCOMPARE(run.unit(), std::string("epochs"));
        QCOMPARE(run.position(), 0L);
        QCOMPARE(run.length(), 5000L); // the CLI's default --epochs
        QCOMPARE(run.advance(3), 3L);
        QCOMPARE(run.position(), 3L);
        QCOMPARE(run.advance(0), 0L);
        QCOMPARE(run.position(), 3L);
        QCOMPARE(run.advance(2), 2L);
        QCOMPARE(run.position(), 5L);
        QVERIFY(!run.finished());

        const auto lab = run.labSnapshot();
        QCOMPARE(lab->position, 5L);
        QCOMPARE(lab->length, 5000L);
        const auto snap = std::dynamic_pointer_cast<const PosteriorLiveSnapshot>(lab);
        QVERIFY(snap);
        QCOMPARE(snap->epoch, 5L);
        QCOMPARE(snap->trainRows, Eigen::Index{400});
        QCOMPARE(snap->approximations.size(), std::size_t(3));
        // One curve point per epoch and method, at epochs 1..5.
        QCOMPARE(snap->curves.size(), std::size_t(3));
        for (const auto& [method, curve] : snap->curves) {
            QCOMPARE(curve.size(), std::size_t(5));
            for (std::size_t k = 0; k < curve.size(); ++k)
                QCOMPARE(curve[k].epoch, static_cast<long>(k + 1));
        }
        // Warm-up is 4 epochs: at epoch 5 SWAG has seen one epoch of iterates, online EM is
        // still within its first 100 updates (F and psi fixed), which the status line names.
        QVERIFY2(lab->status.find("sgd-em: warm-up") != std::string::npos, lab->status.c_str());
        QVERIFY2(lab->status.find("swag") == std::string::npos, lab->status.c_str());
    }

    void badConfigsAreRefused() {
        PosteriorLiveConfig c = smallConfig();
        c.run.latent = 2; // K = D
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PosteriorLive{c});
        c.run.latent = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PosteriorLive{c});
        c = smallConfig();
        c.methods.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PosteriorLive{c});
        c = smallConfig();
        c.changes.push_back({-1, 0.01, 1.0});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PosteriorLive{c});
        c = smallConfig();
        c.setup.dataset = "yacht"; // no loader given
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PosteriorLive{c});

        PosteriorLive live(smallConfig());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setCoordinates(0, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setCoordinates(0, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setSgdLearningRate(0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setLambda(-1.0));
        QVERIFY(live.config().changes.empty()); // refused changes are not recorded
    }

    void exactPosteriorMatchesTheDenseClosedForm() {
        PosteriorLive live(smallConfig());
        const PosteriorProblem& p = live.problem();
        QCOMPARE(p.dim(), Eigen::Index{2});
        QCOMPARE(p.hyper.alpha, 0.01); // the synthetic recipe's prior and noise precisions
        QCOMPARE(p.hyper.beta, 0.1);
        const DensePosterior ref =
            densePosterior(p.data.Xtrain, p.data.ytrain, p.hyper.alpha, p.hyper.beta);
        QVERIFY((p.exact.mean - ref.mean).norm() < 1e-10 * ref.mean.norm());
        QVERIFY((p.exact.cov - ref.cov).norm() < 1e-10 * ref.cov.norm());

        const auto s = live.snapshot(1, 0);
        QVERIFY((s.exactMean - ref.mean).norm() < 1e-10 * ref.mean.norm());
        QVERIFY(std::abs(s.exactVariances(0) - ref.cov(0, 0)) < 1e-10 * ref.cov(0, 0));
        QVERIFY(std::abs(s.exactVariances(1) - ref.cov(1, 1)) < 1e-10 * ref.cov(1, 1));
        QCOMPARE(s.exactCovariances.size(), Eigen::Index{1});
        QVERIFY(std::abs(s.exactCovariances(0) - ref.cov(0, 1)) < 1e-10 * ref.cov.norm());
        // The 2D marginal at (coordI, coordJ) = (1, 0) swaps the parameters.
        QVERIFY(std::abs(s.exactMarginal.mean(0) - ref.mean(1)) < 1e-10 * ref.mean.norm());
        QVERIFY(std::abs(s.exactMarginal.cov(0, 0) - ref.cov(1, 1)) < 1e-10 * ref.cov(1, 1));
        QVERIFY(std::abs(s.exactMarginal.cov(0, 1) - ref.cov(1, 0)) < 1e-10 * ref.cov.norm());
    }

    // For a Gaussian likelihood the ELBO's mean term is -(c - m)^T A (c - m) / 2 whatever the
    // covariance, so VIFA's mean tends to the exact posterior mean m (up to gradient noise).
    void vifaMeanConvergesToTheExactMean() {
        PosteriorLiveConfig c = smallConfig();
        c.methods = {PosteriorMethod::VifaGauss};
        PosteriorLive live(c);
        const PosteriorProblem& p = live.problem();
        const DensePosterior ref =
            densePosterior(p.data.Xtrain, p.data.ytrain, p.hyper.alpha, p.hyper.beta);
        constexpr long kEpochs = 200;
        constexpr double kTol = 0.02;
        live.advance(1);
        const Vector early = approximation(live.snapshot(0, 1), PosteriorMethod::VifaGauss).mean;
        live.advance(kEpochs - 1);
        const auto s = live.snapshot(0, 1);
        const auto& a = approximation(s, PosteriorMethod::VifaGauss);
        const double earlyDist = (early - ref.mean).norm() / ref.mean.norm();
        const double dist = (a.mean - ref.mean).norm() / ref.mean.norm();
        QVERIFY2(dist < kTol && dist < 0.5 * earlyDist,
                 qPrintable(
                     QString("relative mean distance %1 (epoch 1: %2)").arg(dist).arg(earlyDist)));
        QVERIFY(a.status == FitStatus::Running);
        QVERIFY(a.valid);
        // The snapshot's score is that distance, and so is its last curve point.
        QVERIFY(std::abs(a.score.relMeanDist - dist) < 1e-12);
        const auto& curve = s.curves.at(PosteriorMethod::VifaGauss);
        QCOMPARE(curve.back().epoch, kEpochs);
        QVERIFY(std::abs(curve.back().score.relMeanDist - dist) < 1e-12);
        QVERIFY(std::abs(curve.back().score.w2OverDim - curve.back().score.w2 / 2.0) < 1e-15);
    }

    void rowsCarryOneStatusPerRecordedEpochAndMethod() {
        const PosteriorLiveConfig c = smallConfig();
        PosteriorLive live(c);
        constexpr long kEpochs = 15;
        live.advance(kEpochs);
        const auto rows = live.rows();
        QCOMPARE(rows.size(), std::size_t(3 * kEpochs));
        const std::set<std::string> words{"ok", "warmup", "diverged"};
        // SGD takes 400 / 32 = 12 steps an epoch; iterates reach the fitters after 4 warm-up
        // epochs; online EM leaves its warm-up after 100 updates, so with 101 updates, in fed
        // epoch ceil(101 / 12) = 9, i.e. at epoch 13. SWAG runs after one fed epoch (epoch 5).
        const std::map<PosteriorMethod, long> firstOk{{PosteriorMethod::VifaGauss, 1},
                                                      {PosteriorMethod::SgdEm, 13},
                                                      {PosteriorMethod::Swag, 5}};
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const PosteriorRow& r = rows[k];
            const PosteriorMethod method = c.methods[k / kEpochs];
            QCOMPARE(r.method, methodName(method));
            QCOMPARE(r.epoch, static_cast<long>(k % kEpochs + 1));
            QCOMPARE(r.dataset, std::string("synthetic"));
            QCOMPARE(r.latent, 1);
            QCOMPARE(r.trial, 0);
            QVERIFY2(words.count(r.status) == 1, r.status.c_str());
            const std::string expected = r.epoch < firstOk.at(method) ? "warmup" : "ok";
            QVERIFY2(r.status == expected, qPrintable(QString("%1 at epoch %2: %3")
                                                          .arg(r.method.c_str())
                                                          .arg(r.epoch)
                                                          .arg(r.status.c_str())));
            QVERIFY(r.score.relMeanDist >= 0.0 && std::isfinite(r.score.relMeanDist));
        }
    }

    void liveChangesAreRecordedAndReplay() {
        PosteriorLiveConfig c = smallConfig();
        c.methods = {PosteriorMethod::SgdEm, PosteriorMethod::Swag};
        PosteriorLive live(c);
        live.advance(5);
        live.setSgdLearningRate(0.002);
        live.advance(5);
        live.setLambda(2.5);
        live.advance(5);
        const auto& changes = live.config().changes;
        QCOMPARE(changes.size(), std::size_t(2));
        QCOMPARE(changes[0].epoch, 5L);
        QCOMPARE(changes[0].sgdLearningRate, 0.002);
        QCOMPARE(changes[0].lambda, 0.01 / 0.1); // lambda so far: alpha / beta
        QCOMPARE(changes[1].epoch, 10L);
        QCOMPARE(changes[1].sgdLearningRate, 0.002);
        QCOMPARE(changes[1].lambda, 2.5);
        const auto s = live.snapshot(0, 1);
        QCOMPARE(s.sgdLearningRate, 0.002);
        QCOMPARE(s.lambda, 2.5);

        // A fresh run built from the recorded config (a separate object) applies the changes
        // at the same epochs and so reproduces the SGD-fed estimates exactly; without them the
        // estimates differ, so the changes did act.
        PosteriorLive replay(live.config());
        replay.advance(15);
        PosteriorLive unchanged(c);
        unchanged.advance(15);
        const auto r = replay.snapshot(0, 1), u = unchanged.snapshot(0, 1);
        for (const auto method : c.methods) {
            QCOMPARE(approximation(r, method).mean, approximation(s, method).mean);
            QCOMPARE(approximation(r, method).variances, approximation(s, method).variances);
            QVERIFY(approximation(u, method).mean != approximation(s, method).mean);
        }
    }
};

QTEST_APPLESS_MAIN(TestPosteriorLive)
#include "test_posterior_live.moc"
