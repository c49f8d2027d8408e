// Observations drawn beside a split pass (core/fa/SampledFeed.h, core/fa/PassBeside.h,
// docs/threads.md): the fit and the rng's state after a feed are bitwise those of the plain loop
// of FASampler::draw and observe on one thread (the pass summed in the same blocks), for EM and
// SGA, two and three threads, feeds of any length; the draw does run beside the pass, on
// another thread, and its thread's share of the blocks stays within the pass.
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/fa/SampledFeed.h"
#include "tests/support/TestModels.h"

#include <QtTest>

#include <thread>

using namespace fa;

namespace {
OnlineOptions options(int K) {
    OnlineOptions o;
    o.latent = K;
    o.warmup = 20;
    o.learningRate = 0.01;
    o.initSeed = 7;
    return o;
}

/// The algorithm's fitter on n threads from any D, in blocks of 64 rows.
std::unique_ptr<OnlineFitter> fitter(bool em, int D, int K, int n) {
    std::unique_ptr<OnlineFitter> f;
    if (em)
        f = std::make_unique<OnlineEM>(D, options(K));
    else
        f = std::make_unique<OnlineSGA>(D, options(K));
    f->setPassThreads(n, 0, 64);
    return f;
}

bool same(const FitSnapshot& a, const FitSnapshot& b) {
    return a.model.F == b.model.F && a.model.psi == b.model.psi && a.model.c == b.model.c &&
           a.step == b.step && a.psiClamps == b.psiClamps && a.status == b.status;
}
} // namespace

class TestSampledFeed : public QObject {
    Q_OBJECT
  private slots:
    // D = 1000 is 16 blocks of 64 rows (the last of 40); feeds of 1, 9 and 50 observations.
    void sameFitAndDrawsAsTheLoop_data() {
        QTest::addColumn<bool>("em");
        QTest::addColumn<int>("threads");
        for (const bool em : {true, false})
            for (const int n : {2, 3})
                QTest::addRow("%s N%d", em ? "em" : "sga", n) << em << n;
    }
    void sameFitAndDrawsAsTheLoop() {
        QFETCH(bool, em);
        QFETCH(int, threads);
        const int D = 1000, K = 4;
        const FAModel truth = test::makeModel(D, K, 21);
        const auto loop = fitter(em, D, K, 1), fed = fitter(em, D, K, threads);
        QCOMPARE(fed->passParts(), threads);
        FASampler sampler(truth);
        Rng loopRng(5), fedRng(5);
        Vector x(D);
        SampledFeed feed(truth);
        QCOMPARE(feed.besideBlocks(), -1L);
        for (const long n : {1L, 9L, 50L}) {
            for (long i = 0; i < n; ++i) {
                sampler.draw(loopRng, x);
                loop->observe(x);
            }
            feed.feed(*fed, fedRng, n);
            QVERIFY(same(fed->snapshot(), loop->snapshot()));
            QCOMPARE(fedRng.normal(), loopRng.normal()); // the same draws, no more
        }
        QCOMPARE(fed->status(), FitStatus::Running);
        // The draws ran beside split passes, and the balance they found is a share of the pass.
        QVERIFY(feed.besideBlocks() >= 0 && feed.besideBlocks() <= 16);
        QVERIFY(feed.besideSeconds() > 0.0);
    }
    // A fitter whose pass is not split draws in the loop, with the same numbers.
    void unsplitFitterIsTheLoop() {
        const int D = 300, K = 3;
        const FAModel truth = test::makeModel(D, K, 22);
        OnlineEM loop(D, options(K)), fed(D, options(K));
        fed.setPassThreads(2); // below stream::kSplitMinRows: not split
        QCOMPARE(fed.passParts(), 1);
        FASampler sampler(truth);
        Rng loopRng(6), fedRng(6);
        Vector x(D);
        for (int i = 0; i < 30; ++i) {
            sampler.draw(loopRng, x);
            loop.observe(x);
        }
        SampledFeed feed(truth);
        feed.feed(fed, fedRng, 30);
        QVERIFY(same(fed.snapshot(), loop.snapshot()));
        QCOMPARE(fedRng.normal(), loopRng.normal());
        QCOMPARE(feed.besideBlocks(), -1L);
    }
    // The scope hands its job to the first split pass only, which runs it on another thread; a
    // pass that is not split leaves it to the caller.
    void theScopeRunsItsJobOnceOnAHelper() {
        const int D = 640;
        const Matrix X = test::drawSamples(test::makeModel(D, 3, 23), 3, 8);
        std::thread::id ranOn;
        int runs = 0;
        stream::Beside beside;
        beside.job = [&] { ranOn = std::this_thread::get_id(), ++runs; };
        const auto one = fitter(true, D, 3, 1), two = fitter(true, D, 3, 2);
        {
            const stream::BesideScope scope(beside);
            one->observe(X.col(0));
        }
        QVERIFY(!beside.ran);
        QCOMPARE(runs, 0);
        {
            const stream::BesideScope scope(beside);
            two->observe(X.col(0));
            two->observe(X.col(1));
        }
        QVERIFY(beside.ran);
        QCOMPARE(runs, 1);
        QVERIFY(ranOn != std::this_thread::get_id());
        QVERIFY(beside.lastBlocks >= 0 && beside.lastBlocks <= 10);
        QVERIFY(stream::takeBeside() == nullptr);
    }
};

QTEST_APPLESS_MAIN(TestSampledFeed)
#include "test_sampled_feed.moc"
