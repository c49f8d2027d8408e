// The nonlinear-FA lab's fitters and scores against independent references: the
// importance-weighted estimate approaching the exact log-likelihood; the optimal diagonal q and
// the approximation gap's closed form; the linear VAE reaching PPCA's closed-form maximum; the
// two gaps non-negative within Monte Carlo error; the generated manifolds' geometry; a cancel
// stopping a trial's scoring within one pass, and a scoring poll that changes no number; an
// abandoned live run stopping at its first mini-batch.
#include "core/latent/FaBatchEm.h"
#include "core/math/Rng.h"
#include "core/math/SymmetricEigen.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeData.h"
#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeLive.h"
#include "core/vae/VaeMetrics.h"
#include "tests/support/NonlinearFaSupport.h"

#include <QtTest>

#include <atomic>
#include <cmath>

using namespace fa;
using namespace fa::test;

class TestVaeFits : public QObject {
    Q_OBJECT
  private slots:
    void importanceWeightedEstimateApproachesExactLogLik() {
        const Matrix rows = ppcaRows(6, 2, 200, 71);
        const NlfaModel model = decoderOf(ppcaClosedForm(rows, 2));
        const Matrix X = rows.transpose();
        const double exact = linearLogLik(model, X).mean();
        Matrix M, L;
        linearOptimalQ(model, X, M, L);
        ElboPass pass(model.shape);
        Rng rng(72);
        // PPCA's W has orthogonal columns: q* is the exact posterior, every weight is p(x).
        QVERIFY(std::abs(iwLoglik(pass, model, X, M, L, 1, rng).logp.mean() - exact) < 1e-9);
        // Equal weights: the effective sample size is every draw.
        const IwEstimate equal = iwLoglik(pass, model, X, M, L, 50, rng);
        QVERIFY((equal.ess.array() - 50.0).abs().maxCoeff() < 1e-6);
        // A worse proposal (mean + 0.5, variances × 3): biased low, the bias shrinking with S.
        const Matrix Mw = M.array() + 0.5, Lw = L.array() + std::log(3.0);
        double previous = -1e300;
        for (const int s : {1, 10, 100, 1000, 5000}) {
            const double bias = iwLoglik(pass, model, X, Mw, Lw, s, rng).logp.mean() - exact;
            QVERIFY2(bias < 0.02 && bias > previous - 0.01,
                     qPrintable(QString("S = %1: bias %2").arg(s).arg(bias)));
            previous = bias;
        }
        QVERIFY2(std::abs(previous) < 0.03, qPrintable(QString::number(previous)));
    }

    void optimalDiagonalQAndTheApproximationGap() {
        const Matrix rows = ppcaRows(6, 2, 200, 81);
        NlfaModel model = decoderOf(ppcaClosedForm(rows, 2));
        const Matrix X = rows.topRows(20).transpose();
        // PPCA's optimum: Wᵀ W diagonal, no approximation gap.
        QVERIFY(std::abs(linearApproximationGap(model)) < 1e-10);
        // Rotate W by 0.6 rad: the same marginal, a positive gap log p − ELBO(q*).
        Matrix W = model.W();
        const double c = std::cos(0.6), s = std::sin(0.6);
        Matrix R(2, 2);
        R << c, -s, s, c;
        W = W * R;
        model.theta.head(W.size()) = flat(W);
        Matrix M, L;
        linearOptimalQ(model, X, M, L);
        const Eigen::RowVectorXd best = linearElbo(model, X, M, L);
        const Eigen::RowVectorXd ll = linearLogLik(model, X);
        const double gap = linearApproximationGap(model);
        QVERIFY(gap > 1e-3);
        QVERIFY(((ll - best).array() - gap).abs().maxCoeff() < 1e-10);
        // q* is the maximum: any perturbation lowers every row's ELBO.
        Rng rng(82);
        for (int trial = 0; trial < 20; ++trial) {
            const Matrix Mp = M + 0.05 * rng.normalMatrix(2, 20),
                         Lp = L + 0.05 * rng.normalMatrix(2, 20);
            QVERIFY((linearElbo(model, X, Mp, Lp) - best).maxCoeff() < 0.0);
        }
        // The stochastic per-point optimiser (used for nonlinear decoders) finds the same q*.
        ElboPass pass(model.shape);
        Matrix Mo = Matrix::Zero(2, 20), Lo = Matrix::Zero(2, 20);
        optimiseQ(pass, model, X, Mo, Lo, 2000, 0.05, rng);
        QVERIFY2((Mo - M).cwiseAbs().maxCoeff() < 0.1,
                 qPrintable(QString::number((Mo - M).cwiseAbs().maxCoeff())));
        QVERIFY((Lo - L).cwiseAbs().maxCoeff() < 0.2);
        QVERIFY(best.mean() - linearElbo(model, X, Mo, Lo).mean() < 0.01);
    }

    void linearVaeReachesPpcaMaximum() {
        const Matrix rows = ppcaRows(6, 2, 2000, 91);
        const PpcaModel p = ppcaClosedForm(rows, 2);
        VaeOptions o;
        o.latent = 2;
        o.batch = 2000; // the whole set: exact gradients
        o.lr = 0.01;
        o.seed = 92;
        auto fit = makeVaeFit(VaeMethod::LinearVae, rows, o);
        for (int e = 0; e < 3000; ++e)
            fit->epoch();
        VaeEvalOptions eval;
        const VaeScores s = scoreVaeFit(*fit, Matrix(0, 6), eval, 93);
        const double ppca = ppcaLoglikPerRow(p, rows);
        QVERIFY2(
            std::abs(s.trainElbo - ppca) < 1e-4,
            qPrintable(
                QString("ELBO %1, PPCA %2").arg(s.trainElbo, 0, 'g', 12).arg(ppca, 0, 'g', 12)));
        QVERIFY(std::abs(std::exp(fit->model().gamma(0)) / p.sigma2 - 1.0) < 1e-2);
        // The bound is tight there: no approximation gap (Wᵀ W diagonal).
        QVERIFY(linearApproximationGap(fit->model()) < 1e-3);
    }

    // Beyond Lucas et al. (docs/maths/nonlinear.md §7): with a diagonal Ψ the linear VAE's maximum
    // ELBO is FA's maximum log-likelihood (batch EM run to convergence here).
    void linearVaeWithDiagonalNoiseReachesFaMaximum() {
        FAModel truth = test::makeModel(6, 2, 111);
        const Matrix rows = test::drawRows(truth, 2000, 112);
        FaBatchEm em(rows, FaEmOptions{2});
        for (int i = 0; i < 5000; ++i)
            (void)em.iterate();
        VaeOptions o;
        o.latent = 2;
        o.batch = 2000;
        o.lr = 0.01;
        o.linearNoise = NoiseKind::Diagonal;
        o.seed = 113;
        auto fit = makeVaeFit(VaeMethod::LinearVae, rows, o);
        for (int e = 0; e < 4000; ++e)
            fit->epoch();
        const double elbo = scoreVaeFit(*fit, Matrix(0, 6), VaeEvalOptions{}, 114).trainElbo;
        QVERIFY2(std::abs(elbo - em.loglikPerRow()) < 2e-4,
                 qPrintable(QString("ELBO %1, FA EM %2")
                                .arg(elbo, 0, 'g', 12)
                                .arg(em.loglikPerRow(), 0, 'g', 12)));
    }

    void gapsAreNonNegativeWithinMonteCarloError() {
        VaeDataSpec spec;
        spec.dataset = "two-moons";
        spec.dim = 5;
        spec.samples = 600;
        spec.testFraction = 0.25;
        const VaeData data = makeVaeData(spec, {});
        VaeOptions o;
        o.latent = 1;
        o.hidden = {20};
        o.seed = 101;
        VaeEvalOptions eval;
        eval.elboSamples = 200;
        eval.iwSamples = 2000;
        for (const VaeMethod method : {VaeMethod::Vae, VaeMethod::Vem}) {
            auto fit = makeVaeFit(method, data.rows.train, o);
            for (int e = 0; e < 30; ++e)
                fit->epoch();
            const VaeScores s = scoreVaeFit(*fit, data.rows.test, eval, 102);
            const QString what = QString("%1: amortisation %2, approximation %3, ESS %4")
                                     .arg(QString::fromStdString(vaeMethodName(method)))
                                     .arg(s.amortisationGap)
                                     .arg(s.approximationGap)
                                     .arg(s.minEss);
            QVERIFY2(s.approximationGap > -0.02, qPrintable(what));
            if (method == VaeMethod::Vae)
                QVERIFY2(s.amortisationGap > -0.02, qPrintable(what));
            else
                QVERIFY(std::isnan(s.amortisationGap));
            QVERIFY(std::isfinite(s.iwLoglik) && s.minEss > 10.0); // of 2000
            QVERIFY(s.iwLoglik >= s.testElbo - 0.02);              // a bound on log p(x)
        }
    }

    // Issue 25: `vae` ignored Ctrl-C while it scored a trial's held-out rows (41 s and more) and
    // its progress line stayed at the last epoch. Scoring here would outlast any test (10⁵ Adam
    // steps for q* per row or 10⁶ IW draws, the most the configuration takes
    // (core/vae/VaeParams.h), or 10⁸ draws of an ELBO); the cancel is raised at the 100th report,
    // well inside that loop (before it: one report to start, one for the training ELBO, one per
    // held-out row for vEM's nearest training row).
    void aCancelStopsTheScoringAndDropsTheTrial_data() {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("qSteps");
        QTest::addColumn<int>("elboSamples");
        QTest::addColumn<int>("iwSamples");
        QTest::newRow("vem q* steps") << int(VaeMethod::Vem) << 100'000 << 1 << 1;
        QTest::newRow("vem IW draws") << int(VaeMethod::Vem) << 1 << 1 << 1'000'000;
        QTest::newRow("vae ELBO draws") << int(VaeMethod::Vae) << 1 << 100'000'000 << 1;
    }
    void aCancelStopsTheScoringAndDropsTheTrial() {
        QFETCH(int, method);
        QFETCH(int, qSteps);
        QFETCH(int, elboSamples);
        QFETCH(int, iwSamples);
        VaeConfig c;
        c.data.dim = 4;
        c.data.samples = 100; // 20 held out
        c.methods = {VaeMethod(method)};
        c.fit.latent = 1;
        c.fit.hidden = {4};
        c.eval.qSteps = qSteps;
        c.eval.elboSamples = elboSamples;
        c.eval.iwSamples = iwSamples;
        c.epochs = 1;
        std::atomic<bool> cancel{false};
        long epochReports = 0, scoringReports = 0;
        bool named = true; // every scoring report names its method and epoch
        const auto rows = runVae(
            c,
            [&](const VaeProgress& p) {
                if (!p.scoring) {
                    ++epochReports;
                    return;
                }
                named = named && p.method == vaeMethodName(VaeMethod(method)) && p.epoch == 1 &&
                        p.epochs == 1;
                if (++scoringReports == 100)
                    cancel = true;
            },
            &cancel);
        QVERIFY(rows.empty()); // the unfinished trial is dropped
        QCOMPARE(epochReports, 1L);
        QVERIFY(named);
        QVERIFY2(scoringReports >= 100 && scoringReports < 110, // stopped within a pass
                 qPrintable(QString::number(scoringReports)));
    }

    // The poll changes no number: the same draws whether or not it ticks.
    void aPollThatNeverStopsChangesNoScore() {
        VaeDataSpec spec;
        spec.dataset = "two-moons";
        spec.dim = 4;
        spec.samples = 200;
        const VaeData data = makeVaeData(spec, {});
        VaeOptions o;
        o.latent = 1;
        o.hidden = {6};
        o.seed = 121;
        VaeEvalOptions eval{5, 20, 10, 0.05};
        const std::atomic<bool> never{false};
        for (const VaeMethod method : {VaeMethod::Vem, VaeMethod::Vae}) {
            auto fit = makeVaeFit(method, data.rows.train, o);
            for (int e = 0; e < 3; ++e)
                fit->epoch();
            long ticks = 0;
            const VaeScores plain = scoreVaeFit(*fit, data.rows.test, eval, 122);
            const VaeScores polled =
                scoreVaeFit(*fit, data.rows.test, eval, 122, nullptr, {&never, [&] { ++ticks; }});
            QVERIFY(ticks > eval.qSteps + eval.iwSamples);
            for (const auto& [a, b] : {std::pair{plain.trainElbo, polled.trainElbo},
                                       {plain.testElbo, polled.testElbo},
                                       {plain.iwLoglik, polled.iwLoglik},
                                       {plain.amortisationGap, polled.amortisationGap},
                                       {plain.approximationGap, polled.approximationGap},
                                       {plain.minEss, polled.minEss}})
                QVERIFY((a == b) || (std::isnan(a) && std::isnan(b)));
        }
    }

    void anAbandonedEpochStopsAtItsFirstMiniBatch() {
        // LiveRun::abandon (the window closing mid-epoch): the VAE stops at its next
        // mini-batch and the epoch is not counted; a run not abandoned moves its encoder.
        VaeLiveConfig c;
        c.methods = {VaeMethod::Vae};
        VaeLive kept(c), dropped(c);
        const auto before = dropped.snapshot();
        dropped.abandon();
        QCOMPARE(dropped.advance(1), 0L);
        QCOMPARE(kept.advance(1), 1L);
        QVERIFY(!before.latentMeans.empty());
        QCOMPARE(dropped.snapshot().latentMeans, before.latentMeans); // no step taken
        QVERIFY(kept.snapshot().latentMeans != before.latentMeans);
    }

    void manifoldsHaveTheirGeometry() {
        VaeDataSpec spec;
        spec.dim = 8;
        spec.samples = 1000;
        spec.noise = 0.01;
        spec.testFraction = 0.2;
        for (const char* name : {"two-moons", "pinwheel", "swiss-roll"}) {
            spec.dataset = name;
            const VaeData d = makeVaeData(spec, {});
            QCOMPARE(d.rows.train.rows(), Eigen::Index{800});
            QCOMPARE(d.rows.test.rows(), Eigen::Index{200});
            QCOMPARE(d.trainPosition.size(), Eigen::Index{800});
            // Lifted by an orthonormal frame: 2 (swiss roll: 3) variances above the noise.
            Matrix all(1000, 8);
            all << d.rows.train, d.rows.test;
            const Matrix centred = all.rowwise() - all.colwise().mean();
            const Vector ev =
                fa::symmetricEigen(centred.transpose() * centred / 1000.0, false).values.reverse();
            const int planes = std::string(name) == "swiss-roll" ? 3 : 2;
            QVERIFY(ev(planes - 1) > 0.01);
            QVERIFY(ev(planes) < 2.0 * 0.01 * 0.01);
        }
        spec.dataset = "pinwheel";
        const VaeData p = makeVaeData(spec, {});
        QCOMPARE(p.trainPosition.minCoeff(), 0.0);
        QCOMPARE(p.trainPosition.maxCoeff(), 4.0);
        spec.dataset = "two-moons";
        const VaeData m = makeVaeData(spec, {});
        QVERIFY(m.trainPosition.minCoeff() >= 0.0 && m.trainPosition.maxCoeff() <= 2.0);
        spec.dataset = "swiss-roll";
        spec.dim = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeVaeData(spec, {}));
    }
};

QTEST_APPLESS_MAIN(TestVaeFits)
#include "test_vae_fits.moc"
