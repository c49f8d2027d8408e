// The fa-sweep runner: determinism, row layout, batch limits, divergence isolation, a cancel
// mid-run that keeps a finished prefix, refusal of bad configs, and its online results against
// a hand-run of the same seeds.
#include "core/explorer/FaSweep.h"
#include "core/fa/BatchFA.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/PassThreads.h"
#include "core/metrics/DenseMetrics.h"

#include <QtTest>
#include <atomic>
#include <cmath>

using namespace fa;

namespace {
FaSweepConfig smallConfig() {
    FaSweepConfig c;
    c.generator.dim = 12;
    c.generator.latent = 2;
    c.checkpoints = {50, 200, 600};
    c.trials = 2;
    c.seed = 5;
    return c;
}
} // namespace

class TestSweep : public QObject {
    Q_OBJECT
  private slots:
    void sameConfigSameRows() {
        const auto a = runFaSweep(smallConfig()), b = runFaSweep(smallConfig());
        QCOMPARE(a.size(), std::size_t(2 * 3 * 3));
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].algorithm, b[i].algorithm);
            QCOMPARE(a[i].relCovDist, b[i].relCovDist);
            QCOMPARE(a[i].w2, b[i].w2);
            QCOMPARE(a[i].status, std::string("ok"));
        }
        FaSweepConfig other = smallConfig();
        other.seed = 6;
        QVERIFY(runFaSweep(other)[0].relCovDist != a[0].relCovDist);
    }
    void rowsFollowTrialCheckpointAlgorithmOrder() {
        const auto rows = runFaSweep(smallConfig());
        QCOMPARE(rows[0].trial, 0);
        QCOMPARE(rows[0].samples, 50L);
        QCOMPARE(rows[0].algorithm, std::string("batch"));
        QCOMPARE(rows[1].algorithm, std::string("em"));
        QCOMPARE(rows[2].algorithm, std::string("sga"));
        QCOMPARE(rows[3].samples, 200L);
        QCOMPARE(rows[9].trial, 1);
        for (const auto& r : rows)
            QVERIFY(std::abs(r.w2OverDim * 12 - r.w2) < 1e-12 * r.w2);
    }
    void onlineRowsMatchAHandRun() {
        // Reproduce trial 0's EM row at T = 600 with the documented seeds, scored densely.
        const FaSweepConfig c = smallConfig();
        const auto rows = runFaSweep(c);
        const TrialSeeds seeds = trialSeeds(c.seed, 0);
        const FAModel truth = generateModel(c.generator, seeds.model);
        OnlineOptions o;
        o.latent = 2;
        o.initSeed = seeds.init;
        OnlineEM em(12, o);
        FASampler sampler(truth);
        Rng r(seeds.samples);
        Vector x(12);
        for (int i = 0; i < 600; ++i) {
            sampler.draw(r, x);
            em.observe(x);
        }
        const double expected = relativeCovarianceDistance(em.snapshot().model.denseCovariance(),
                                                           truth.denseCovariance());
        QCOMPARE(rows[7].algorithm, std::string("em"));
        QCOMPARE(rows[7].samples, 600L);
        QVERIFY(std::abs(rows[7].relCovDist - expected) < 1e-12);
    }
    void batchSkippedAboveItsLimit() {
        FaSweepConfig c;
        c.generator.dim = kBatchMaxDim + 1;
        c.generator.latent = 2;
        c.generator.kind = GeneratorKind::Haar;
        c.checkpoints = {150};
        c.trials = 1;
        const auto rows = runFaSweep(c);
        QCOMPARE(rows.size(), std::size_t(3));
        QCOMPARE(rows[0].status, std::string("skipped"));
        QVERIFY(std::isnan(rows[0].relCovDist));
        QCOMPARE(rows[1].status, std::string("ok")); // structured metrics above D = 1000
        QVERIFY(rows[1].relCovDist > 0.0 && rows[1].relCovDist < 10.0);
    }
    void spareThreadsSplitThePassesAndChangeNoRow() {
        // Threads beyond the trials run side by side go to each online fitter's pass.
        FaSweepConfig c;
        c.generator.dim = static_cast<int>(stream::kSplitMinRows);
        c.generator.latent = 3;
        c.generator.kind = GeneratorKind::Haar;
        c.checkpoints = {130};
        c.runBatch = false;
        c.trials = 10, c.threads = 2;
        QCOMPARE(sweepPassThreads(c), 1);
        c.trials = 3, c.threads = 4;
        QCOMPARE(sweepPassThreads(c), 1);
        c.trials = 10, c.shard = {4, 10}; // one trial in this slice
        QCOMPARE(sweepPassThreads(c), 4);
        c.trials = 1, c.shard = {}, c.threads = 2;
        QCOMPARE(sweepPassThreads(c), 2);
        const auto split = runFaSweep(c);
        c.threads = 1;
        QCOMPARE(sweepPassThreads(c), 1);
        const auto one = runFaSweep(c);
        QCOMPARE(split.size(), std::size_t(2));
        for (std::size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(split[i].status, std::string("ok"));
            QCOMPARE(split[i].relCovDist, one[i].relCovDist);
            QCOMPARE(split[i].w2, one[i].w2);
            QCOMPARE(split[i].relMeanDist, one[i].relMeanDist);
        }
    }
    void divergedSgaLeavesOthersRunning() {
        FaSweepConfig c = smallConfig();
        c.generator.spectrumHi = 1e4;
        c.learningRate = 10.0;
        c.checkpoints = {2000};
        c.trials = 1;
        const auto rows = runFaSweep(c);
        QCOMPARE(rows[2].algorithm, std::string("sga"));
        QCOMPARE(rows[2].status, std::string("diverged"));
        QVERIFY(std::isnan(rows[2].relCovDist));
        QCOMPARE(rows[1].status, std::string("ok"));
        QCOMPARE(rows[0].status, std::string("ok"));
    }
    void cancelStopsARunningSweep() {
        // Cancel from inside the run, at the first progress report of trial 1 past its second
        // checkpoint (T = 200 of 50, 200, 600): trial 0's nine rows and trial 1's first six are
        // finished then, its last checkpoint is not. The kept rows must be exactly the first
        // rows of an uncancelled run (a separate call), and no sample may be drawn (no progress
        // reported) after the cancel.
        const FaSweepConfig c = smallConfig();
        std::atomic<bool> cancel{false};
        int reportsAfterCancel = 0;
        const auto kept = runFaSweep(
            c,
            [&](const FaSweepProgress& p) {
                if (cancel.load())
                    ++reportsAfterCancel;
                else if (p.trial == 1 && p.samples > 200)
                    cancel.store(true);
            },
            &cancel);
        QVERIFY(cancel.load());
        QCOMPARE(reportsAfterCancel, 0);
        const auto full = runFaSweep(c);
        QCOMPARE(full.size(), std::size_t(2 * 3 * 3));
        QVERIFY2(kept.size() >= 15 && kept.size() < full.size(),
                 qPrintable(QString("%1 rows kept").arg(kept.size())));
        for (std::size_t i = 0; i < kept.size(); ++i) {
            const FaSweepRow &k = kept[i], &f = full[i];
            QVERIFY2(!k.status.empty(), qPrintable(QString("row %1 has no status").arg(i)));
            QCOMPARE(k.status, f.status);
            QCOMPARE(k.dim, f.dim);
            QCOMPARE(k.latent, f.latent);
            QCOMPARE(k.spectrumLo, f.spectrumLo);
            QCOMPARE(k.spectrumHi, f.spectrumHi);
            QCOMPARE(k.generator, f.generator);
            QCOMPARE(k.samples, f.samples);
            QCOMPARE(k.trial, f.trial);
            QCOMPARE(k.algorithm, f.algorithm);
            QCOMPARE(k.relCovDist, f.relCovDist);
            QCOMPARE(k.w2, f.w2);
            QCOMPARE(k.w2OverDim, f.w2OverDim);
            QCOMPARE(k.relMeanDist, f.relMeanDist);
            QVERIFY(std::isfinite(k.relCovDist) && std::isfinite(k.w2)); // all ok in this config
        }
        QCOMPARE(kept[14].trial, 1);
        QCOMPARE(kept[14].samples, 200L);
    }
    void refusesBadConfigs() {
        FaSweepConfig c = smallConfig();
        c.checkpoints = {100, 50};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runFaSweep(c));
        c = smallConfig();
        c.learningRate = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runFaSweep(c));
        c = smallConfig();
        c.runBatch = c.runEm = c.runSga = false;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runFaSweep(c));
    }
};

QTEST_APPLESS_MAIN(TestSweep)
#include "test_sweep.moc"
