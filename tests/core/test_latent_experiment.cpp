// The latent lab's experiment runner (runLatent, what `faexplorer-cli latent` writes): its
// progress reported after every iteration, not only at the log-spaced checkpoints, and a run
// that reports giving the same rows as one that does not.
#include "core/latent/LatentExperiment.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <map>
#include <utility>

using namespace fa;

namespace {

/// PPCA on a small generated set: the closed form (one row) and EM for 300 iterations, whose
/// checkpoints 1, 2, 3, 5, ..., 100, 200, 300 leave gaps of 100 iterations.
LatentConfig smallRun() {
    LatentConfig c;
    c.data.model = LatentModel::Ppca;
    c.data.synthetic.dim = 5;
    c.data.synthetic.samples = 200;
    c.methods = {LatentMethod::ClosedForm, LatentMethod::Em};
    c.iterations = 300;
    c.trials = 2;
    c.seed = 4;
    return c;
}

bool same(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

} // namespace

class TestLatentExperiment : public QObject {
    Q_OBJECT
  private slots:
    // The line sat on one checkpoint for thousands of iterations (from 5000 to 10000 when
    // --iterations is 10000): now every iteration is reported, the closed form once.
    void progressComesAfterEveryIteration() {
        const LatentConfig c = smallRun();
        std::map<std::pair<int, std::string>, std::vector<long>> seen; // (trial, method)
        const auto rows = runLatent(c, [&](const LatentProgress& p) {
            QCOMPARE(p.trials, 2);
            QCOMPARE(p.iterations, 300L);
            seen[{p.trial, p.method}].push_back(p.iteration);
        });
        QCOMPARE(rows.size(), std::size_t{2 * (1 + latentCheckpoints(300).size())});
        QCOMPARE(seen.size(), std::size_t{4});
        std::vector<long> every(300);
        for (long t = 0; t < 300; ++t)
            every[static_cast<std::size_t>(t)] = t + 1;
        for (int trial = 0; trial < 2; ++trial) {
            const std::pair<int, std::string> closedForm{trial, "closed-form"}, em{trial, "em"};
            QCOMPARE(seen[closedForm], std::vector<long>{0});
            QCOMPARE(seen[em], every); // 1, 2, ..., 300: no gap between checkpoints
        }
    }

    // The reports change no number: the same rows (the seconds aside) with and without them.
    void reportingChangesNoRow() {
        const LatentConfig c = smallRun();
        const std::atomic<bool> never{false};
        long reports = 0;
        const auto plain = runLatent(c);
        const auto reported = runLatent(
            c, [&](const LatentProgress&) { ++reports; }, &never);
        QCOMPARE(reports, 2L * (1 + 300));
        QCOMPARE(reported.size(), plain.size());
        for (std::size_t i = 0; i < plain.size(); ++i) {
            const LatentRow &a = plain[i], &b = reported[i];
            QCOMPARE(b.method, a.method);
            QCOMPARE(b.trial, a.trial);
            QCOMPARE(b.iteration, a.iteration);
            QVERIFY(same(a.loglik, b.loglik) && same(a.heldout, b.heldout));
            QVERIFY(same(a.elbo, b.elbo) && same(a.relCovDist, b.relCovDist));
            QCOMPARE(b.status, a.status);
        }
    }
};

QTEST_APPLESS_MAIN(TestLatentExperiment)
#include "test_latent_experiment.moc"
