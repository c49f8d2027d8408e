// The live explorer's engine against independent references: its curves equal a hand-run of
// the same seeds scored with dense formulas, the step trace equals the dense E-step, the 2D
// and block views equal entries of the dense covariance, the mass ellipses hold their mass,
// learning-rate changes replay exactly, and trial bands equal hand-computed means and SEs.
#include "core/explorer/LiveExplorer.h"
#include "core/explorer/TrialBands.h"
#include "core/fa/BatchFA.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/Checkpoints.h"
#include "core/metrics/DenseMetrics.h"
#include "core/metrics/MarginalViews.h"
#include "tests/support/TestModels.h"

#include <QtTest>
#include <cmath>

using namespace fa;

namespace {
ExplorerConfig smallConfig() {
    ExplorerConfig c;
    c.generator.dim = 16;
    c.generator.latent = 3;
    c.fitLatent = 3;
    c.seed = 9;
    c.totalSamples = 3000;
    return c;
}
OnlineOptions optionsFor(const ExplorerConfig& c) {
    OnlineOptions o;
    o.latent = c.fitLatent;
    o.warmup = c.warmup;
    o.learningRate = c.learningRate;
    o.initSeed = trialSeeds(c.seed, 0).init;
    return o;
}
const AlgorithmTrace& trace(const ExplorerSnapshot& s, const std::string& name) {
    for (const auto& t : s.traces)
        if (t.name == name)
            return t;
    throw std::runtime_error("no trace " + name);
}
} // namespace

class TestLiveExplorer : public QObject {
    Q_OBJECT
  private slots:
    void checkpointsAreLogSpaced() {
        QCOMPARE(logSpacedCheckpoints(1000, 1), (std::vector<long>{1, 10, 100, 1000}));
        QCOMPARE(logSpacedCheckpoints(50, 1), (std::vector<long>{1, 10, 50}));
        const auto pts = logSpacedCheckpoints(100000, 20);
        QCOMPARE(pts.back(), 100000L);
        QVERIFY(pts.size() < 20 * 5 + 2); // drawing cost bounded: about 20 points per decade
        QCOMPARE(trialCheckpoints(1000), (std::vector<long>{10, 20, 50, 100, 200, 500, 1000}));
        QCOMPARE(trialCheckpoints(7), (std::vector<long>{7}));
    }

    void curvesEqualAHandRunScoredDensely() {
        const ExplorerConfig c = smallConfig();
        LiveExplorer live(c);
        QCOMPARE(live.advance(1000), 1000L);
        live.waitForBatch();
        const ExplorerSnapshot snap = live.snapshot();

        const TrialSeeds seeds = trialSeeds(c.seed, 0);
        const FAModel truth = generateModel(c.generator, seeds.model);
        OnlineEM em(16, optionsFor(c));
        OnlineSGA sga(16, optionsFor(c));
        FASampler sampler(truth);
        Rng r(seeds.samples);
        Matrix X(16, 1000);
        for (int i = 0; i < 1000; ++i) {
            sampler.draw(r, X.col(i));
            em.observe(X.col(i));
            sga.observe(X.col(i));
        }
        const Matrix S = truth.denseCovariance();
        const CurvePoint& e = trace(snap, "em").points.back();
        const CurvePoint& g = trace(snap, "sga").points.back();
        QCOMPARE(e.samples, 1000L);
        const FAModel emModel = em.snapshot().model, sgaModel = sga.snapshot().model;
        QVERIFY(std::abs(e.relCovDist - relativeCovarianceDistance(emModel.denseCovariance(), S)) <
                1e-9);
        QVERIFY(std::abs(g.relCovDist - relativeCovarianceDistance(sgaModel.denseCovariance(), S)) <
                1e-9);
        QVERIFY(std::abs(e.w2OverDim -
                         denseW2(emModel.c, emModel.denseCovariance(), truth.c, S) / 16) < 1e-8);
        QVERIFY(std::abs(e.relMeanDist - relativeMeanDistance(emModel.c, truth.c)) < 1e-12);
        // Batch refits at 100 and 1000, each on exactly the first T samples with its seed.
        const auto& batch = trace(snap, "batch").points;
        QCOMPARE(batch.size(), std::size_t(2));
        BatchFAOptions bo;
        bo.latent = 3;
        bo.seed = deriveSeed(seeds.batch, 1000);
        const FAModel refit = fitBatchFA(X, bo).model;
        QVERIFY(std::abs(batch[1].relCovDist -
                         relativeCovarianceDistance(refit.denseCovariance(), S)) < 1e-9);
    }

    void chunkingDoesNotChangeTheRun() {
        LiveExplorer a(smallConfig()), b(smallConfig());
        a.advance(2000);
        for (int i = 0; i < 2000 / 7 + 1; ++i)
            b.advance(7);
        const auto sa = a.snapshot(), sb = b.snapshot();
        QCOMPARE(trace(sa, "sga").points.back().relCovDist,
                 trace(sb, "sga").points.back().relCovDist);
        QCOMPARE(trace(sa, "em").points.size(), trace(sb, "em").points.size());
    }

    void stepTraceIsTheDenseEStep() {
        const ExplorerConfig c = smallConfig();
        LiveExplorer live(c);
        live.advance(299);
        QCOMPARE(live.stepTraced(), 1L);
        const ExplorerSnapshot snap = live.snapshot();
        QVERIFY(snap.lastStep);
        QCOMPARE(snap.lastStep->t, 300L);

        const TrialSeeds seeds = trialSeeds(c.seed, 0);
        const FAModel truth = generateModel(c.generator, seeds.model);
        OnlineEM em(16, optionsFor(c));
        FASampler sampler(truth);
        Rng r(seeds.samples);
        Vector x(16);
        for (int i = 0; i < 299; ++i) {
            sampler.draw(r, x);
            em.observe(x);
        }
        const FAModel before = em.snapshot().model;
        sampler.draw(r, x);
        em.observe(x);
        const FAModel after = em.snapshot().model;
        // Dense E-step: Sigma = (I + F^T Psi^-1 F)^-1, m = Sigma F^T Psi^-1 (x - mean_t).
        const Matrix FtPinv = before.F.transpose() * before.psi.cwiseInverse().asDiagonal();
        const Matrix sigma = (Matrix::Identity(3, 3) + FtPinv * before.F).inverse();
        const Vector m = sigma * FtPinv * (x - after.c);

        const StepTrace::Fit& fit = snap.lastStep->fits[0];
        QCOMPARE(fit.name, std::string("em"));
        QVERIFY(!fit.warmUp);
        QVERIFY((fit.sigma - sigma).norm() < 1e-12);
        QVERIFY((fit.m - m).norm() < 1e-12 * (1 + m.norm()));
        QVERIFY(std::abs(fit.relFChange - (after.F - before.F).norm() / before.F.norm()) < 1e-12);
        QVERIFY(std::abs(fit.psiChange - (after.psi - before.psi).norm()) < 1e-12);
        QVERIFY((snap.lastStep->xHead - x.head(8)).norm() == 0.0);
        // An untraced advance clears the explanation.
        live.advance(1);
        QVERIFY(!live.snapshot().lastStep);
    }

    void viewsAreEntriesOfTheDenseCovariance() {
        const FAModel m = test::makeModel(12, 3, 4);
        const Matrix S = m.denseCovariance();
        const Marginal2 g = marginal2(m.c, m.F, m.psi, 7, 2);
        QVERIFY(std::abs(g.cov(0, 0) - S(7, 7)) < 1e-12);
        QVERIFY(std::abs(g.cov(0, 1) - S(7, 2)) < 1e-12);
        QVERIFY(std::abs(g.cov(1, 1) - S(2, 2)) < 1e-12);
        QCOMPARE(g.mean, Eigen::Vector2d(m.c[7], m.c[2]));
        QVERIFY((covarianceBlock(m.F, m.psi, 5) - S.topLeftCorner(5, 5)).norm() < 1e-12);
        QCOMPARE(covarianceBlock(m.F, m.psi, 40).rows(), Eigen::Index(12)); // clipped to D
    }

    void massEllipsesHoldTheirMass() {
        QVERIFY(std::abs(massRadius(1 - std::exp(-2.0)) - 2.0) < 1e-12);
        const auto levels = standardMassLevels();
        QVERIFY(std::abs(levels[0] - 0.3935) < 1e-4 && std::abs(levels[2] - 0.9889) < 1e-4);
        Marginal2 g;
        g.mean << 1.0, -2.0;
        g.cov << 4.0, 1.5, 1.5, 1.0;
        const auto pts = massEllipse(g, 0.5);
        QCOMPARE(pts.front(), pts.back());
        const Eigen::Matrix2d P = g.cov.inverse();
        for (const auto& p : pts) // on the ellipse of squared radius -2 log(1 - 0.5)
            QVERIFY(std::abs((p - g.mean).dot(P * (p - g.mean)) - 2 * std::log(2.0)) < 1e-10);
        // Monte Carlo: the 86.5 % ellipse holds 86.5 % of draws (4 SE tolerance).
        Rng r(11);
        const double r2 = std::pow(massRadius(levels[1]), 2);
        int inside = 0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
            const Eigen::Vector2d z(r.normal(), r.normal());
            inside += z.squaredNorm() <= r2; // x = mean + L z has Mahalanobis radius |z|
        }
        const double p = levels[1], se = std::sqrt(p * (1 - p) / n);
        QVERIFY2(std::abs(inside / double(n) - p) < 4 * se,
                 qPrintable(QString::number(inside / double(n))));
        g.cov << 1.0, 2.0, 2.0, 1.0; // not positive definite: nothing to draw
        QVERIFY(massEllipse(g, 0.5).empty());
    }

    void recentCloudHoldsTheLastObservations() {
        ExplorerConfig c = smallConfig();
        LiveExplorer live(c);
        ViewOptions v;
        v.coordI = 5;
        v.coordJ = 11;
        v.recent = 50;
        live.setView(v);
        live.advance(400);
        const auto snap = live.snapshot();
        QCOMPARE(snap.recent.size(), std::size_t(50));
        const TrialSeeds seeds = trialSeeds(c.seed, 0);
        const FAModel truth = generateModel(c.generator, seeds.model);
        FASampler sampler(truth);
        Rng r(seeds.samples);
        Vector x(16);
        for (int i = 0; i < 400; ++i) {
            sampler.draw(r, x);
            if (i >= 350)
                QCOMPARE(snap.recent[static_cast<std::size_t>(i - 350)],
                         Eigen::Vector2d(x[5], x[11]));
        }
        v.coordJ = 5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setView(v));
        v.coordJ = 16;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setView(v));
    }

    void learningRateChangesReplayExactly() {
        ExplorerConfig c = smallConfig();
        c.runBatch = false;
        LiveExplorer live(c);
        live.advance(500);
        live.setLearningRate(0.004);
        live.advance(1500);
        const ExplorerSnapshot a = live.snapshot();
        QCOMPARE(a.config.learningRateChanges.size(), std::size_t(1));
        QCOMPARE(a.config.learningRateChanges[0].first, 500L);

        LiveExplorer replay(a.config);
        for (int i = 0; i < 20; ++i)
            replay.advance(100);
        const ExplorerSnapshot b = replay.snapshot();
        QCOMPARE(trace(b, "sga").points.back().relCovDist,
                 trace(a, "sga").points.back().relCovDist);

        LiveExplorer unchanged(c); // the change did matter, so the test can fail
        unchanged.advance(2000);
        QVERIFY(trace(unchanged.snapshot(), "sga").points.back().relCovDist !=
                trace(a, "sga").points.back().relCovDist);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setLearningRate(-1.0));
    }

    void sweepRowsFollowTheCliLayout() {
        LiveExplorer live(smallConfig());
        live.advance(1000);
        live.waitForBatch();
        const ExplorerSnapshot snap = live.snapshot();
        const auto rows = sweepRows(snap, smallConfig());
        std::size_t points = 0;
        for (const auto& t : snap.traces)
            points += t.points.size();
        QCOMPARE(rows.size(), points);
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY(rows[i - 1].samples <= rows[i].samples);
        for (const auto& r : rows) {
            QVERIFY(std::abs(r.w2 - 16 * r.w2OverDim) <= 1e-12 * r.w2);
            QCOMPARE(r.dim, 16);
            QCOMPARE(r.status, std::string("ok"));
        }
        const auto at100 = std::find_if(rows.begin(), rows.end(),
                                        [](const FaSweepRow& r) { return r.samples == 100; });
        QCOMPARE(at100->algorithm, std::string("batch"));
    }

    void bandsAreMeanAndStandardError() {
        std::vector<FaSweepRow> rows;
        auto add = [&](const char* alg, long T, int trial, double cov, const char* status = "ok") {
            FaSweepRow r;
            r.algorithm = alg;
            r.samples = T;
            r.trial = trial;
            r.relCovDist = cov;
            r.w2OverDim = cov / 10;
            r.status = status;
            rows.push_back(r);
        };
        add("em", 10, 0, 0.5);
        add("em", 100, 0, 0.2);
        add("em", 10, 1, 0.7);
        add("em", 100, 1, 0.4);
        add("em", 10, 2, 0.9);
        add("em", 100, 2, NAN, "diverged");
        add("sga", 10, 0, 1.0);
        const auto bands = trialBands(rows);
        QCOMPARE(bands.size(), std::size_t(2));
        QCOMPARE(bands[0].algorithm, std::string("em"));
        QCOMPARE(bands[0].points[0].samples, 10L);
        // mean 0.7, sd 0.2, SE 0.2 / sqrt 3
        QVERIFY(std::abs(bands[0].points[0].relCovDist.mean - 0.7) < 1e-12);
        QVERIFY(std::abs(bands[0].points[0].relCovDist.stdErr - 0.2 / std::sqrt(3.0)) < 1e-12);
        QCOMPARE(bands[0].points[1].relCovDist.count, 2); // the diverged trial is left out
        QVERIFY(std::abs(bands[0].points[1].w2OverDim.mean - 0.03) < 1e-12);
        QCOMPARE(bands[1].points[0].relCovDist.stdErr, 0.0);
    }

    void refusesBadConfigs() {
        ExplorerConfig c = smallConfig();
        c.fitLatent = 16;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LiveExplorer{c});
        c = smallConfig();
        c.generator.dim = 2000;
        c.totalSamples = 1000000; // 16 GB of stored samples for batch refits
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(c));
        c.runBatch = false;
        validate(c); // fine without batch
        c = smallConfig();
        c.learningRateChanges = {{100, 0.01}, {50, 0.01}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(c));
    }
};

QTEST_APPLESS_MAIN(TestLiveExplorer)
#include "test_live_explorer.moc"
