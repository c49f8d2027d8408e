// Online EM and SGA with each observation's pass split over its rows on N threads
// (core/fa/PassThreads.h, docs/threads.md): held to the dense transcriptions of thesis
// Algorithms 1 and 2 (tests/support/OnlineReference.h) at 1e-9, bitwise to the same fitter on
// one thread (the pass summed in the same blocks) and at 1e-12 to the pass summed as one block,
// with the psi clamps of every part counted; no split below the threshold; no allocation per
// observation once split.
#include "core/fa/ModelGenerator.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "tests/support/CountAllocations.h" // replaces operator new in this program
#include "tests/support/OnlineReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>

using namespace fa;

namespace {
/// max |a - b| / max |b| over the entries.
double relMax(const Matrix& a, const Matrix& b) {
    return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

/// The fitter's F, psi and mean against another's: the largest relative difference.
double agreement(const FAModel& a, const FAModel& b) {
    return std::max({relMax(a.F, b.F), relMax(a.psi, b.psi), relMax(a.c, b.c)});
}

OnlineOptions options(int K, double floor, std::uint64_t seed) {
    OnlineOptions o;
    o.latent = K;
    o.warmup = 25;
    o.learningRate = 0.01;
    o.psiFloor = floor;
    o.initSeed = seed;
    return o;
}

/// The algorithm's fitter with its pass on n threads from any D, in blocks of 64 rows.
template <class Fitter> std::unique_ptr<Fitter> splitFitter(int D, const OnlineOptions& o, int n) {
    auto f = std::make_unique<Fitter>(D, o);
    f->setPassThreads(n, 0, 64);
    return f;
}

template <class Fitter>
std::unique_ptr<OnlineFitter> makeFitter(int D, const OnlineOptions& o, int n, bool blocked) {
    if (blocked)
        return splitFitter<Fitter>(D, o, n);
    return std::make_unique<Fitter>(D, o);
}

bool same(const FAModel& a, const FAModel& b) {
    return a.F == b.F && a.psi == b.psi && a.c == b.c;
}
} // namespace

class TestOnlineSplit : public QObject {
    Q_OBJECT
  private slots:
    // Blocks of 64 rows, whole blocks per thread: D = 203 is 4 blocks on 3 threads (64, 64,
    // 75 rows), D = 300 has SGA's 256-row blocks cut, K fixed and not (17), a floor that clamps.
    void splitPassMatchesDenseTranscriptions_data() {
        QTest::addColumn<bool>("em");
        QTest::addColumn<int>("D");
        QTest::addColumn<int>("K");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("peekEvery");
        QTest::addColumn<double>("floor");
        for (const bool em : {true, false}) {
            const char* a = em ? "em" : "sga";
            QTest::addRow("%s D300 K10 N2", a) << em << 300 << 10 << 2 << 0 << 1e-8;
            QTest::addRow("%s D203 K3 N3 peeked", a) << em << 203 << 3 << 3 << 7 << 1e-8;
            QTest::addRow("%s D260 K17 N4", a) << em << 260 << 17 << 4 << 0 << 1e-8;
            QTest::addRow("%s D200 K2 N2 floor", a) << em << 200 << 2 << 2 << 5 << (em ? 0.5 : 2.0);
        }
    }
    void splitPassMatchesDenseTranscriptions() {
        QFETCH(bool, em);
        QFETCH(int, D);
        QFETCH(int, K);
        QFETCH(int, threads);
        QFETCH(int, peekEvery);
        QFETCH(double, floor);
        const FAModel truth = test::makeModel(D, std::min(K, D - 1), 50 + D);
        const OnlineOptions o = options(K, floor, 11);
        // The split pass, the same blocks on one thread, and the pass as one block.
        auto make = [&](int n, bool blocked) {
            return em ? makeFitter<OnlineEM>(D, o, n, blocked)
                      : makeFitter<OnlineSGA>(D, o, n, blocked);
        };
        const auto split = make(threads, true), one = make(1, true), whole = make(1, false);
        QCOMPARE(split->passParts(), threads);
        QCOMPARE(one->passParts(), 1);
        Rng init(11);
        const Matrix F0 = randomOrthonormalFrame(D, K, init);
        test::ReferenceEM refEm(F0, 25);
        test::ReferenceSGA refSga(F0, 0.01, 25);
        refEm.floor = refSga.floor = floor;
        const Matrix X = test::drawSamples(truth, 120, 12);
        for (int j = 0; j < X.cols(); ++j) {
            split->observe(X.col(j)), one->observe(X.col(j)), whole->observe(X.col(j));
            em ? refEm.observe(X.col(j)) : refSga.observe(X.col(j));
            if (peekEvery > 0 && (j + 1) % peekEvery == 0)
                QVERIFY(split->psi().allFinite());
        }
        const FitSnapshot s = split->snapshot();
        const Matrix refF = em ? refEm.F : refSga.F;
        const Vector refPsi = em ? refEm.psi : Vector(refSga.beta.array().exp());
        const long refClamps = em ? refEm.clamps : refSga.clamps;
        QCOMPARE(s.status, FitStatus::Running);
        QVERIFY2((s.model.F - refF).norm() < 1e-9 * refF.norm(),
                 qPrintable(QString::number((s.model.F - refF).norm() / refF.norm())));
        QVERIFY((s.model.psi - refPsi).norm() < 1e-9 * refPsi.norm());
        QCOMPARE(s.psiClamps, refClamps);
        QVERIFY(floor < 0.1 || refClamps > 0); // the floor rows do clamp, in more than one part
        QVERIFY(same(s.model, one->model()));
        QCOMPARE(s.psiClamps, one->snapshot().psiClamps);
        const double rel = agreement(s.model, whole->model());
        QVERIFY2(rel < 1e-12, qPrintable(QString::number(rel)));
    }
    void sameNumbersForAnyN() {
        const FAModel truth = test::makeModel(500, 4, 3);
        const Matrix X = test::drawSamples(truth, 80, 4);
        std::vector<std::unique_ptr<OnlineFitter>> fits;
        for (const int n : {1, 2, 3, 4, 5}) {
            fits.push_back(splitFitter<OnlineEM>(500, options(4, 1e-8, 5), n));
            fits.push_back(splitFitter<OnlineSGA>(500, options(4, 1e-8, 5), n));
        }
        for (int j = 0; j < X.cols(); ++j)
            for (auto& f : fits)
                f->observe(X.col(j));
        for (std::size_t i = 2; i < fits.size(); ++i)
            QVERIFY(same(fits[i]->model(), fits[i % 2]->model()));
    }
    // At the default threshold: D = kSplitMinRows splits in two and is the one-thread fit
    // exactly, and within 1e-12 of the pass summed as one block; one row fewer does not split.
    // The warm-up is fa-sweep's (100): with one of about K observations the first M steps'
    // H = Sigma + B is so nearly singular that any change in the order of the sums moves F by
    // ~2e-11 (docs/threads.md).
    void theDefaultThresholdDecides() {
        const int D = static_cast<int>(stream::kSplitMinRows);
        const FAModel truth = test::makeModel(D, 10, 6, 10.0, GeneratorKind::Haar);
        const Matrix X = test::drawSamples(truth, 140, 7);
        for (const int dim : {D, D - 1}) {
            OnlineOptions o = options(10, 1e-8, 8);
            o.warmup = 100;
            OnlineEM em1(dim, o), em2(dim, o), emWhole(dim, o);
            OnlineSGA sga1(dim, o), sga2(dim, o), sgaWhole(dim, o);
            em2.setPassThreads(2);
            sga2.setPassThreads(2);
            emWhole.setPassThreads(1, D + 1);
            sgaWhole.setPassThreads(1, D + 1);
            QCOMPARE(em2.passParts(), dim == D ? 2 : 1);
            for (int j = 0; j < X.cols(); ++j) {
                const auto x = X.col(j).head(dim);
                em1.observe(x), em2.observe(x), emWhole.observe(x);
                sga1.observe(x), sga2.observe(x), sgaWhole.observe(x);
            }
            QVERIFY(same(em2.model(), em1.model()) && same(sga2.model(), sga1.model()));
            const double relEm = agreement(em2.model(), emWhole.model());
            const double relSga = agreement(sga2.model(), sgaWhole.model());
            qInfo("D = %d: blocks against one block, largest relative difference EM %.2e, SGA "
                  "%.2e",
                  dim, relEm, relSga);
            QVERIFY(relEm < 1e-12 && relSga < 1e-12);
            if (dim < D)
                QVERIFY(relEm == 0.0 && relSga == 0.0);
        }
    }
    void aSplitPassAllocatesNothing() {
        const FAModel truth = test::makeModel(400, 5, 9);
        const Matrix X = test::drawSamples(truth, 60, 10);
        auto em = splitFitter<OnlineEM>(400, options(5, 1e-8, 1), 3);
        auto sga = splitFitter<OnlineSGA>(400, options(5, 1e-8, 1), 3);
        for (int j = 0; j < 30; ++j) // past warm-up: the helpers and their buffers exist
            em->observe(X.col(j)), sga->observe(X.col(j));
        const long before = test::allocations();
        for (int j = 30; j < 60; ++j)
            em->observe(X.col(j)), sga->observe(X.col(j));
        QCOMPARE(test::allocations() - before, 0L);
    }
    void refusesNoThreads() {
        OnlineEM em(100, options(2, 1e-8, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, em.setPassThreads(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, em.setPassThreads(2, 0, 100));
        em.setPassThreads(4, 0);
        QCOMPARE(em.passParts(), 1); // 100 rows are one block of 8192
        em.setPassThreads(4, 0, 64);
        QCOMPARE(em.passParts(), 2);
        em.setPassThreads(4, 200, 64);
        QCOMPARE(em.passParts(), 1);
    }
};

QTEST_APPLESS_MAIN(TestOnlineSplit)
#include "test_online_split.moc"
