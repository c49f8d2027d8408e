// Online SGA and EM: gradients against finite differences, both algorithms against plain
// dense transcriptions of thesis Algorithms 1 and 2, convergence, warm-up and divergence.
#include "core/fa/ModelGenerator.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/math/SmallSpd.h"
#include "core/metrics/DenseMetrics.h"
#include "tests/support/DenseReference.h"
#include "tests/support/OnlineReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>

using namespace fa;
using fa::test::feed;
using fa::test::ReferenceEM;
using fa::test::ReferenceSGA;

namespace {
/// Runs fitter and reference on the same stream; the fitter is looked at (snapshot, psi,
/// loadings) every `peekEvery` steps, which finishes its pending M step early.
template <class Fitter, class Ref>
void feedPeeking(const FAModel& truth, int n, std::uint64_t seed, Fitter& fitter, Ref& ref,
                 int peekEvery) {
    const Matrix X = test::drawSamples(truth, n, seed);
    for (int j = 0; j < n; ++j) {
        fitter.observe(X.col(j));
        ref.observe(X.col(j));
        if (peekEvery > 0 && (j + 1) % peekEvery == 0)
            QVERIFY(fitter.snapshot().model.psi.allFinite());
    }
}
} // namespace

class TestOnline : public QObject {
    Q_OBJECT
  private slots:
    void sgaGradientsMatchFiniteDifferences() {
        const FAModel m = test::makeModel(7, 2, 4);
        Rng r(8);
        const Vector mean = m.c;
        const Vector x = m.c + r.normalMatrix(7, 1).col(0) * 3.0;
        const Vector d = x - mean;
        Matrix gF;
        Vector gBeta;
        OnlineSGA::gradients(m.F, m.psi, d, gF, gBeta);
        auto logp = [&](const Matrix& F, const Vector& beta) {
            return test::denseLogDensity(x, FAModel{mean, F, beta.array().exp()});
        };
        const Vector beta = m.psi.array().log();
        const double h = 1e-6;
        for (Eigen::Index i = 0; i < m.F.rows(); ++i)
            for (Eigen::Index k = 0; k < m.F.cols(); ++k) {
                Matrix Fp = m.F, Fm = m.F;
                Fp(i, k) += h;
                Fm(i, k) -= h;
                const double fd = (logp(Fp, beta) - logp(Fm, beta)) / (2 * h);
                QVERIFY2(
                    std::abs(fd - gF(i, k)) < 1e-6 * std::max(1.0, std::abs(fd)),
                    qPrintable(
                        QString("dF(%1,%2): fd %3 vs %4").arg(i).arg(k).arg(fd).arg(gF(i, k))));
            }
        for (Eigen::Index i = 0; i < beta.size(); ++i) {
            Vector bp = beta, bm = beta;
            bp[i] += h;
            bm[i] -= h;
            const double fd = (logp(m.F, bp) - logp(m.F, bm)) / (2 * h);
            QVERIFY2(std::abs(fd - gBeta[i]) < 1e-6 * std::max(1.0, std::abs(fd)),
                     qPrintable(QString("dbeta(%1): fd %2 vs %3").arg(i).arg(fd).arg(gBeta[i])));
        }
    }
    void emMatchesDenseTranscription() {
        const FAModel truth = test::makeModel(8, 2, 21);
        OnlineOptions o;
        o.latent = 2;
        o.warmup = 20;
        o.initSeed = 77;
        OnlineEM em(8, o);
        Rng init(77);
        ReferenceEM ref(randomOrthonormalFrame(8, 2, init), 20);
        feed(truth, 300, 3, em, ref);
        const FitSnapshot s = em.snapshot();
        QCOMPARE(s.step, 300);
        QVERIFY((s.model.F - ref.F).norm() < 1e-9 * ref.F.norm());
        QVERIFY((s.model.psi - ref.psi).norm() < 1e-9 * ref.psi.norm());
        QVERIFY((s.model.c - ref.mean).norm() < 1e-12 * ref.mean.norm());
    }
    void sgaMatchesDenseTranscription() {
        const FAModel truth = test::makeModel(8, 2, 22);
        OnlineOptions o;
        o.latent = 2;
        o.warmup = 20;
        o.learningRate = 0.01;
        o.initSeed = 78;
        OnlineSGA sga(8, o);
        Rng init(78);
        ReferenceSGA ref(randomOrthonormalFrame(8, 2, init), 0.01, 20);
        feed(truth, 300, 4, sga, ref);
        const FitSnapshot s = sga.snapshot();
        QVERIFY((s.model.F - ref.F).norm() < 1e-9 * ref.F.norm());
        QVERIFY((s.model.psi - Vector(ref.beta.array().exp())).norm() < 1e-9 * s.model.psi.norm());
    }
    // The fused pass (StreamPass.h) against the dense transcription: lane remainders (D = 13,
    // 37, 203), K fixed (1, 3, 10) and not (17), peeked at or not; SGA across its 256-row blocks
    // (D = 260, 300). Release runs the widest lanes, the portable sanitizer build SSE2's.
    void emFusedPassMatchesDenseTranscription_data() {
        QTest::addColumn<int>("D");
        QTest::addColumn<int>("K");
        QTest::addColumn<int>("peekEvery");
        QTest::addColumn<int>("steps"); // the dense references cost D³ per step: fewer at D > 200
        QTest::newRow("D13 K1") << 13 << 1 << 0 << 400;
        QTest::newRow("D37 K3 peeked") << 37 << 3 << 7 << 400;
        QTest::newRow("D203 K10") << 203 << 10 << 0 << 120;
        QTest::newRow("D203 K10 peeked") << 203 << 10 << 1 << 120;
        QTest::newRow("D45 K17") << 45 << 17 << 11 << 400;
    }
    void emFusedPassMatchesDenseTranscription() {
        QFETCH(int, D);
        QFETCH(int, K);
        QFETCH(int, peekEvery);
        QFETCH(int, steps);
        const FAModel truth = test::makeModel(D, std::min(K, D - 1), 30 + D);
        OnlineOptions o;
        o.latent = K;
        o.warmup = 25;
        o.initSeed = 5;
        OnlineEM em(D, o);
        Rng init(5);
        ReferenceEM ref(randomOrthonormalFrame(D, K, init), 25);
        feedPeeking(truth, steps, 6, em, ref, peekEvery);
        const FitSnapshot s = em.snapshot();
        QCOMPARE(s.step, steps);
        QVERIFY2((s.model.F - ref.F).norm() < 1e-9 * ref.F.norm(),
                 qPrintable(QString::number((s.model.F - ref.F).norm() / ref.F.norm())));
        QVERIFY((s.model.psi - ref.psi).norm() < 1e-9 * ref.psi.norm());
        QVERIFY((s.model.c - ref.mean).norm() < 1e-12 * ref.mean.norm());
        // loadingRows forms the same rows as the whole F
        const std::vector<Eigen::Index> rows{D - 1, 0, D / 2};
        QVERIFY((em.loadingRows(rows) - s.model.F(rows, Eigen::all)).norm() <
                1e-12 * s.model.F.norm());
    }
    void sgaFusedPassMatchesDenseTranscription_data() {
        emFusedPassMatchesDenseTranscription_data();
        QTest::newRow("D300 K10 two blocks") << 300 << 10 << 0 << 120;
        QTest::newRow("D260 K3 two blocks peeked") << 260 << 3 << 5 << 120;
    }
    void sgaFusedPassMatchesDenseTranscription() {
        QFETCH(int, D);
        QFETCH(int, K);
        QFETCH(int, peekEvery);
        QFETCH(int, steps);
        const FAModel truth = test::makeModel(D, std::min(K, D - 1), 40 + D);
        OnlineOptions o;
        o.latent = K;
        o.warmup = 25;
        o.learningRate = 0.01;
        o.initSeed = 9;
        OnlineSGA sga(D, o);
        Rng init(9);
        ReferenceSGA ref(randomOrthonormalFrame(D, K, init), 0.01, 25);
        feedPeeking(truth, steps / 2, 7, sga, ref, peekEvery);
        // A live change of the learning rate applies from the next observation on.
        sga.setLearningRate(0.003);
        ref.eta = 0.003;
        feedPeeking(truth, steps / 2, 8, sga, ref, peekEvery);
        const FitSnapshot s = sga.snapshot();
        QCOMPARE(s.step, steps);
        QVERIFY2((s.model.F - ref.F).norm() < 1e-9 * ref.F.norm(),
                 qPrintable(QString::number((s.model.F - ref.F).norm() / ref.F.norm())));
        QVERIFY((s.model.psi - Vector(ref.beta.array().exp())).norm() < 1e-9 * s.model.psi.norm());
    }
    void lookingAtTheStateDoesNotChangeTheRun() {
        // Finishing the pending M step early (any accessor) must give the same trajectory.
        const FAModel truth = test::makeModel(29, 3, 12);
        OnlineOptions o;
        o.latent = 3;
        o.warmup = 10;
        OnlineEM quiet(29, o), watched(29, o);
        OnlineSGA quietSga(29, o), watchedSga(29, o);
        const Matrix X = test::drawSamples(truth, 300, 13);
        for (int j = 0; j < 300; ++j) {
            quiet.observe(X.col(j));
            watched.observe(X.col(j));
            quietSga.observe(X.col(j));
            watchedSga.observe(X.col(j));
            if (j % 3 == 0) {
                QVERIFY(watched.loadings().allFinite());
                QVERIFY(watchedSga.psi().allFinite());
            }
        }
        const FAModel a = quiet.model(), b = watched.model();
        QVERIFY((a.F - b.F).norm() <= 1e-13 * a.F.norm());
        QVERIFY((a.psi - b.psi).norm() <= 1e-13 * a.psi.norm());
        const FAModel c = quietSga.model(), e = watchedSga.model();
        QVERIFY((c.F - e.F).norm() <= 1e-13 * c.F.norm());
    }
    void psiFloorClampsAreCountedAsTheDenseReferenceCountsThem() {
        // A floor above some of the fitted noise variances: EM clamps them every step.
        const FAModel truth = test::makeModel(21, 2, 14);
        OnlineOptions o;
        o.latent = 2;
        o.warmup = 10;
        o.psiFloor = 0.5;
        OnlineEM em(21, o);
        Rng init(0);
        ReferenceEM ref(randomOrthonormalFrame(21, 2, init), 10);
        ref.floor = 0.5;
        feed(truth, 200, 15, em, ref);
        const FitSnapshot s = em.snapshot();
        QVERIFY(ref.clamps > 0);
        QCOMPARE(s.psiClamps, ref.clamps);
        QVERIFY((s.model.F - ref.F).norm() < 1e-9 * ref.F.norm());
        QVERIFY(s.model.psi.minCoeff() >= 0.5);

        o.psiFloor = 2.0; // psi = exp(beta) starts at 1, below the floor: the first step clamps
        o.learningRate = 0.05;
        OnlineSGA sga(21, o);
        ReferenceSGA sref(randomOrthonormalFrame(21, 2, init = Rng(0)), 0.05, 10);
        sref.floor = 2.0;
        feed(truth, 200, 15, sga, sref);
        const FitSnapshot g = sga.snapshot();
        QVERIFY(sref.clamps > 0);
        QCOMPARE(g.psiClamps, sref.clamps);
        QVERIFY((g.model.F - sref.F).norm() < 1e-9 * sref.F.norm());
        QVERIFY((g.model.psi - Vector(sref.beta.array().exp())).norm() < 1e-9 * g.model.psi.norm());
    }
    void emConvergesOnSmallModel() {
        const FAModel truth = test::makeModel(20, 2, 5);
        OnlineOptions o;
        o.latent = 2;
        o.initSeed = 6;
        OnlineEM em(20, o);
        feed(truth, 20000, 7, em);
        const double dist = relativeCovarianceDistance(em.snapshot().model.denseCovariance(),
                                                       truth.denseCovariance());
        QVERIFY2(dist < 0.1, qPrintable(QString("relative covariance distance %1").arg(dist)));
        QCOMPARE(em.status(), FitStatus::Running);
    }
    void warmupKeepsFAndPsiFixed() {
        OnlineOptions o;
        o.latent = 2;
        o.warmup = 100;
        OnlineEM em(10, o);
        OnlineSGA sga(10, o);
        const FitSnapshot em0 = em.snapshot(), sga0 = sga.snapshot();
        const FAModel truth = test::makeModel(10, 2, 9);
        FASampler sampler(truth);
        Rng r(1);
        Vector x(10);
        for (int t = 1; t <= 101; ++t) {
            sampler.draw(r, x);
            em.observe(x);
            sga.observe(x);
            const bool warm = t <= 100;
            QCOMPARE(em.status(), warm ? FitStatus::WarmUp : FitStatus::Running);
            QCOMPARE(em.snapshot().model.F == em0.model.F, warm);
            QCOMPARE(sga.snapshot().model.psi == sga0.model.psi, warm);
        }
    }
    void nonFiniteObservationMarksDivergenceWithoutThrowing() {
        OnlineOptions o;
        o.latent = 2;
        o.warmup = 0;
        OnlineEM em(5, o);
        OnlineSGA sga(5, o);
        Vector x = Vector::Ones(5);
        em.observe(x);
        sga.observe(x);
        x[2] = std::numeric_limits<double>::infinity();
        em.observe(x);
        sga.observe(x);
        QCOMPARE(em.status(), FitStatus::Diverged);
        QCOMPARE(em.snapshot().divergedAt, 2);
        QCOMPARE(sga.status(), FitStatus::Diverged);
        QCOMPARE(sga.snapshot().divergedAt, 2);
        em.observe(Vector::Ones(5)); // stays diverged, no exception
        QCOMPARE(em.step(), 2);
    }
    void sgaWithHugeStepReportsDivergence() {
        // spectrum [1, 1e4] with a large learning rate overflows exp(beta): status must say so.
        const FAModel truth = test::makeModel(30, 3, 10, 1e4);
        OnlineOptions o;
        o.latent = 3;
        o.learningRate = 10.0;
        OnlineSGA sga(30, o);
        feed(truth, 2000, 2, sga);
        const FitSnapshot s = sga.snapshot();
        QCOMPARE(s.status, FitStatus::Diverged);
        QVERIFY(s.divergedAt > 100); // never during warm-up, where F and psi do not move
    }
    void smallSpdInverse() {
        Rng r(1);
        for (int n : {1, 2, 10, 16, 17, 23}) { // fixed-size (<= 16) and run-time paths
            const Matrix B = r.normalMatrix(n, n);
            const Matrix A = B * B.transpose() + Matrix::Identity(n, n);
            Matrix inv;
            QVERIFY(invertSpd(A, inv));
            QVERIFY((inv * A - Matrix::Identity(n, n)).norm() < 1e-10);
        }
        Matrix notPd = Matrix::Identity(3, 3);
        notPd(1, 1) = -1.0;
        Matrix inv;
        QVERIFY(!invertSpd(notPd, inv));
        // Positive diagonal, indefinite (eigenvalues 3 and -1): the second pivot refuses it.
        Matrix indefinite(2, 2);
        indefinite << 1.0, 2.0, 2.0, 1.0;
        QVERIFY(!invertSpd(indefinite, inv));
        Matrix withNaN = Matrix::Identity(10, 10);
        withNaN(4, 4) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(!invertSpd(withNaN, inv));
    }
    void refusesBadOptions() {
        OnlineOptions o;
        o.latent = 5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OnlineEM(5, o));
        o.latent = 2;
        o.learningRate = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, OnlineSGA(5, o));
    }
};

QTEST_APPLESS_MAIN(TestOnline)
#include "test_online.moc"
