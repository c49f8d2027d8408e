// The neural lab's live run through the LiveRun interface, on the bundled yacht data with a
// small network: epochs as units, one curve point per recorded epoch, the test predictive sized
// to the documented split (round(f N) rows for training), test targets back on the original
// scale, the snapshot's RMSE recomputed from its own predictive mean and truth, determinism
// across separately built runs, and refusal of bad configs.
#include "core/io/RegressionCsv.h"
#include "core/lab/Methods.h"
#include "core/neural/NeuralLive.h"

#include <QtTest>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

using namespace fa;

namespace {

NeuralLiveConfig smallConfig() {
    NeuralLiveConfig c;
    c.dataset = "yacht";
    c.loader = io::datasetLoader();
    c.methods = {NeuralMethod::VifaGauss, NeuralMethod::VippcaGauss};
    c.fit.hidden = {8};
    c.fit.batch = 32;
    c.fit.samples = 2;
    c.curveSamples = 8;
    c.seed = 4;
    return c;
}

} // namespace

class TestNeuralLive : public QObject {
    Q_OBJECT
  private slots:
    void aRunEndsAtItsLength() {
        NeuralLive live(smallConfig());
        LiveRun& run = live;
        QCOMPARE(run.advance(3), 3L);
        live.setLength(4);
        QCOMPARE(run.advance(5), 1L);
        QVERIFY(run.finished());
        QCOMPARE(run.advance(1), 0L);
        QCOMPARE(run.labSnapshot()->length, 4L);
        live.setLength(2); // never below the epoch reached
        QCOMPARE(run.length(), 4L);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, live.setLength(0));
    }

    // The posteriors from SGD iterates run beside VIFA (issue 27). MAP is a point mass, so its
    // predictive is one network plus the noise: its sd is the noise's, yScale / sqrt(beta), at
    // every test point (the closed form); SWAG adds the weights' spread on top of it.
    void iterateMethodsRunBesideVifa() {
        NeuralLiveConfig c = smallConfig();
        c.iterateMethods = {IterateMethod::Map, IterateMethod::Swag};
        c.fit.epochs = 6;
        c.iterate.swaStart = 2;
        c.iterate.rank = 3;
        NeuralLive live(c);
        QCOMPARE(live.advance(10), 6L);
        const NeuralLiveSnapshot s = live.snapshot();
        QCOMPARE(s.methods.size(), std::size_t(4));
        QCOMPARE(s.methods[2].id, std::string("map"));
        QCOMPARE(s.methods[3].id, std::string("swag"));
        const RegressionProblem p =
            splitRegression(io::datasetLoader()("yacht", ""), c.trainFraction, c.seed, c.split);
        const double noiseSd = p.yScale / std::sqrt(c.hyper.noisePrecision);
        const auto& map = s.methods[2];
        const auto& swag = s.methods[3];
        QCOMPARE(map.sd.size(), p.Xtest.rows());
        for (Eigen::Index i = 0; i < map.sd.size(); ++i)
            QVERIFY2(std::abs(map.sd(i) - noiseSd) < 1e-9 * noiseSd, std::to_string(i).c_str());
        QVERIFY(swag.sd.minCoeff() >= noiseSd * (1.0 - 1e-12));
        QVERIFY(swag.sd.mean() > noiseSd * 1.001);
        QCOMPARE(swag.curve.size(), std::size_t(7)); // epochs 0..6
        QVERIFY(std::isfinite(swag.curve.back().testNmll));
        // A longer run: SGD goes on, so MAP's network (its predictive mean) moves again.
        live.setLength(8);
        QCOMPARE(live.advance(5), 2L);
        const NeuralLiveSnapshot later = live.snapshot();
        QVERIFY((later.methods[2].mean - map.mean).norm() > 1e-9 * map.mean.norm());
    }

    // The in-between set (one input): every method's predictive over a grid from a third of
    // the inputs' range below the smallest to as far above the largest (the rows' x in closed
    // form: -1.492 ... 1.492), MAP's sd there the noise's; and the trajectory view of the first
    // method that collects iterates, against the same IterateFit built here with an observer
    // of its own: every collected iterate of member 1, the kept ones (a multiple of the
    // stride), their coordinates U^T (theta - c) and U^T C U for the fit's Gaussian, densely.
    void inBetweenGridAndTrajectory() {
        NeuralLiveConfig c;
        c.dataset = "in-between";
        c.loader = io::datasetLoader();
        c.methods = {};
        c.iterateMethods = {IterateMethod::Map, IterateMethod::SwaFaEm};
        c.fit.hidden = {6};
        c.fit.epochs = 40;
        c.iterate.swaStart = 10;
        c.iterate.rank = 3;
        c.iterate.batch = 16;
        c.curveSamples = 4;
        NeuralLive live(c);
        QCOMPARE(live.advance(40), 40L);
        const NeuralLiveSnapshot s = live.snapshot();
        const double lo = -1.5 + 0.8 * 0.5 / 50, hi = 0.7 + 0.8 * 49.5 / 50;
        QCOMPARE(s.gridX.size(), Eigen::Index(201));
        QVERIFY(std::abs(s.gridX(0) - (lo - (hi - lo) / 3)) < 1e-12);
        QVERIFY(std::abs(s.gridX(200) - (hi + (hi - lo) / 3)) < 1e-12);
        QCOMPARE(s.trainX.size() + s.testX.size(), Eigen::Index(100));
        const RegressionProblem p = splitRegression(io::datasetLoader()("in-between", ""),
                                                    c.trainFraction, c.seed, c.split);
        const double noiseSd = p.yScale / std::sqrt(c.hyper.noisePrecision);
        QCOMPARE(s.methods[0].gridSd.size(), Eigen::Index(201));
        QVERIFY((s.methods[0].gridSd.array() - noiseSd).abs().maxCoeff() < 1e-9 * noiseSd);
        QVERIFY(s.methods[1].gridSd.minCoeff() >= noiseSd * (1 - 1e-12));

        QVERIFY(s.trajectory.has_value());
        QCOMPARE(s.trajectory->method, std::string("swa-fa-em"));
        IterateFit twin(p.Xtrain, p.ytrain,
                        iterateOptions(c.iterate, c.fit, IterateMethod::SwaFaEm, c.hyper,
                                       deriveSeed(c.seed, 100 + static_cast<std::uint64_t>(
                                                                    IterateMethod::SwaFaEm))));
        std::vector<Vector> collected;
        twin.onIterate([&](int member, const Vector& theta) {
            if (member == 0 && twin.epoch() >= c.iterate.swaStart)
                collected.push_back(theta);
        });
        for (int e = 0; e < 40; ++e)
            twin.runEpoch();
        const TrajectoryPlane& plane = s.trajectory->plane;
        QCOMPARE(plane.collected, static_cast<long>(collected.size()));
        QCOMPARE(collected.size(), std::size_t(30 * (90 / 16))); // after the fit's warm-up of 100
        QVERIFY(!s.trajectory->planeOfSwag);
        const FAModel q = twin.posterior().front();
        const Matrix U = leadingDirections(q);
        const Matrix C = q.F * q.F.transpose() + Matrix(q.psi.asDiagonal());
        QVERIFY((plane.fit - U.transpose() * C * U).norm() < 1e-9 * plane.fit.norm());
        const long stride =
            (static_cast<long>(collected.size()) + plane.points.rows() - 1) / plane.points.rows();
        for (Eigen::Index i = 0; i < plane.points.rows(); ++i) {
            const Vector ref =
                U.transpose() * (collected[static_cast<std::size_t>(i * stride)] - q.c);
            QVERIFY2((plane.points.row(i).transpose() - ref).norm() < 1e-9 * (1 + ref.norm()),
                     std::to_string(i).c_str());
        }
    }

    // The in-between lesson's claim (resources/presets/lesson-in-between.json, its settings
    // here): at x = 0, in the gap, MAP's predictive sd is the noise's, yScale / sqrt(beta)
    // (closed form); SWAG and SWA-FA, Gaussians around one SGD run, stay within 10 % of it;
    // the ensemble and MultiSWAG, five independent runs, are at least 40 % wider there, and
    // inside a cluster (x = -1.1) all five stay within 25 % of the noise.
    void inBetweenOnlyIndependentRunsWidenInTheGap() {
        NeuralLiveConfig c;
        c.dataset = "in-between";
        c.loader = io::datasetLoader();
        c.methods = {};
        c.iterateMethods = {IterateMethod::Map, IterateMethod::SwaFaEm, IterateMethod::Swag,
                            IterateMethod::Ensemble, IterateMethod::MultiSwag};
        c.fit.epochs = 1000;
        c.iterate.swaStart = 500;
        c.iterate.members = 5;
        c.iterate.rank = 20;
        c.hyper = {1.0, 25.0, 0.05};
        NeuralLive live(c);
        QCOMPARE(live.advance(1000), 1000L);
        const NeuralLiveSnapshot s = live.snapshot();
        const auto at = [&](double x) {
            Eigen::Index i = 0;
            (s.gridX.array() - x).abs().minCoeff(&i);
            return i;
        };
        const RegressionProblem p = splitRegression(io::datasetLoader()("in-between", ""),
                                                    c.trainFraction, c.seed, c.split);
        const double noise = p.yScale / std::sqrt(c.hyper.noisePrecision);
        QVERIFY(std::abs(s.methods[0].gridSd(at(0.0)) - noise) < 1e-9 * noise);
        for (const std::size_t m : {std::size_t(1), std::size_t(2)})
            QVERIFY2(s.methods[m].gridSd(at(0.0)) < 1.1 * noise, s.methods[m].id.c_str());
        for (const std::size_t m : {std::size_t(3), std::size_t(4)})
            QVERIFY2(s.methods[m].gridSd(at(0.0)) > 1.4 * noise, s.methods[m].id.c_str());
        for (const auto& m : s.methods)
            QVERIFY2(m.gridSd(at(-1.1)) < 1.25 * noise, m.id.c_str());
        qInfo("sd at x = 0 (noise %.3f): map %.3f, swa-fa-em %.3f, swag %.3f, ensemble %.3f, "
              "multiswag %.3f",
              noise, s.methods[0].gridSd(at(0.0)), s.methods[1].gridSd(at(0.0)),
              s.methods[2].gridSd(at(0.0)), s.methods[3].gridSd(at(0.0)),
              s.methods[4].gridSd(at(0.0)));
    }

    void advanceMovesByEpochsAndCurvesGrow() {
        NeuralLive live(smallConfig());
        LiveRun& run = live;
        QCOMPARE(run.unit(), std::string("epochs"));
        QCOMPARE(run.position(), 0L);
        QCOMPARE(run.length(), 120L); // the report's epochs
        // The starting point (epoch 0) is recorded before any training.
        auto s = std::dynamic_pointer_cast<const NeuralLiveSnapshot>(run.labSnapshot());
        QVERIFY(s);
        for (const auto& m : s->methods) {
            QCOMPARE(m.curve.size(), std::size_t(1));
            QCOMPARE(m.curve[0].epoch, 0L);
        }
        QCOMPARE(run.advance(2), 2L);
        QCOMPARE(run.advance(0), 0L);
        QCOMPARE(run.advance(1), 1L);
        QCOMPARE(run.position(), 3L);
        QVERIFY(!run.finished());
        s = std::dynamic_pointer_cast<const NeuralLiveSnapshot>(run.labSnapshot());
        QVERIFY(s);
        QCOMPARE(s->position, 3L);
        QCOMPARE(s->epoch, 3L);
        QCOMPARE(s->methods.size(), std::size_t(2));
        QCOMPARE(s->methods[0].id, std::string("vifa-gauss"));
        QCOMPARE(s->methods[1].id, std::string("vippca-gauss"));
        for (const auto& m : s->methods) {
            QVERIFY(!m.diverged);
            QCOMPARE(m.curve.size(), std::size_t(4)); // epochs 0, 1, 2, 3
            for (std::size_t k = 0; k < m.curve.size(); ++k) {
                QCOMPARE(m.curve[k].epoch, static_cast<long>(k));
                QVERIFY(std::isfinite(m.curve[k].trainNmll) && std::isfinite(m.curve[k].testNmll));
                QVERIFY(m.curve[k].trainRmse > 0.0 && m.curve[k].testRmse > 0.0);
            }
            // The status bar names each by its short label ("SWAG", "VIFA-G"), not its CLI id.
            const std::string name =
                std::string(findMethod(m.id, Lab::Neural)->shortLabel) + ": test NMLL";
            QVERIFY2(s->status.find(name) != std::string::npos, s->status.c_str());
        }
        // Six inputs, one hidden layer of 8, one output: (6 + 1) 8 + (8 + 1) 1 weights.
        QCOMPARE(s->parameters, Eigen::Index{7 * 8 + 9});
    }

    void testPredictiveMatchesTheSplit() {
        const NeuralLiveConfig c = smallConfig();
        const RegressionData raw = c.loader("yacht", "");
        const Eigen::Index n = raw.size();
        const Eigen::Index nTrain =
            static_cast<Eigen::Index>(std::llround(c.trainFraction * static_cast<double>(n)));
        NeuralLive live(c);
        live.advance(2);
        const NeuralLiveSnapshot s = live.snapshot();
        QCOMPARE(s.trainRows, nTrain);
        QCOMPARE(s.testRows, n - nTrain);
        QCOMPARE(s.testTruth.size(), n - nTrain);
        QVERIFY(std::is_sorted(s.testTruth.begin(), s.testTruth.end()));
        // Each test target is one of the data set's targets on the original scale (undoing the
        // standardisation), and no row is used twice beyond its multiplicity in the data.
        std::vector<double> pool(raw.y.begin(), raw.y.end());
        for (const double t : s.testTruth) {
            const auto it = std::find_if(pool.begin(), pool.end(), [&](double y) {
                return std::abs(y - t) < 1e-9 * std::max(1.0, std::abs(y));
            });
            QVERIFY2(it != pool.end(),
                     qPrintable(QString("test target %1 not in the data").arg(t)));
            pool.erase(it);
        }
        for (const auto& m : s.methods) {
            QCOMPARE(m.mean.size(), s.testRows);
            QCOMPARE(m.sd.size(), s.testRows);
            QVERIFY(std::isfinite(m.mean.sum()));
            QVERIFY((m.sd.array() > 0.0).all());
            // RMSE of the predictive mean, recomputed: sqrt(mean((mean - truth)^2)). The order
            // of the points does not matter, both are sorted by the truth.
            const double rmse =
                std::sqrt((m.mean - s.testTruth).squaredNorm() / static_cast<double>(s.testRows));
            QVERIFY2(std::abs(m.curve.back().testRmse - rmse) < 1e-10 * rmse,
                     qPrintable(QString("%1 vs %2").arg(m.curve.back().testRmse).arg(rmse)));
        }
    }

    void sameConfigSameRunDifferentSeedDifferentRun() {
        NeuralLiveConfig c = smallConfig();
        c.methods = {NeuralMethod::VifaGauss};
        NeuralLive a(c), b(c);
        a.advance(2);
        b.advance(1);
        b.advance(1);
        const auto sa = a.snapshot(), sb = b.snapshot();
        QCOMPARE(sa.methods[0].mean, sb.methods[0].mean);
        QCOMPARE(sa.methods[0].curve.back().testNmll, sb.methods[0].curve.back().testNmll);
        c.seed = 5;
        NeuralLive other(c);
        other.advance(2);
        QVERIFY(other.snapshot().methods[0].mean != sa.methods[0].mean);
    }

    void anAbandonedEpochStopsAtItsFirstMiniBatch() {
        // The window closing mid-epoch (LiveRun::abandon, from another thread): the run counts
        // no epoch, and a network's fit watching the flag takes no step (one not abandoned
        // moves).
        const NeuralLiveConfig c = smallConfig();
        NeuralLive dropped(c);
        dropped.abandon();
        QCOMPARE(dropped.advance(1), 0L);
        QCOMPARE(dropped.position(), 0L);
        const RegressionData data = c.loader("yacht", "");
        NeuralFit fit(data.X.topRows(100), data.y.head(100), NeuralMethod::VifaGauss, c.hyper,
                      c.fit, 1);
        const FAModel before = fit.model();
        std::atomic<bool> flag{true};
        fit.abandonOn(&flag);
        fit.runEpoch();
        QCOMPARE(fit.model().c, before.c);
        flag = false;
        fit.runEpoch();
        QVERIFY(fit.model().c != before.c);
    }

    void aRunBuiltAbandonedScoresNothing() {
        // The window closing while the run is being built: the worker's flag, handed to the
        // constructor, cuts its first scoring (seconds for a large network), so the run shows
        // no curve point; built with the flag down, each method has its epoch-0 point.
        const NeuralLiveConfig c = smallConfig();
        const auto flag = std::make_shared<std::atomic<bool>>(true);
        const NeuralLive cut(c, flag);
        for (const auto& m : cut.snapshot().methods)
            QVERIFY(m.curve.empty());
        flag->store(false);
        const NeuralLive kept(c, flag);
        QCOMPARE(kept.snapshot().methods.size(), c.methods.size());
        for (const auto& m : kept.snapshot().methods)
            QCOMPARE(m.curve.size(), std::size_t(1));
    }

    void badConfigsAreRefused() {
        NeuralLiveConfig c = smallConfig();
        c.methods.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NeuralLive{c});
        c = smallConfig();
        c.trainFraction = 1.0; // nothing left to test on
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NeuralLive{c});
        c = smallConfig();
        c.trainFraction = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NeuralLive{c});
        c = smallConfig();
        c.loader = {};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NeuralLive{c});
        c = smallConfig();
        c.dataset = "no-such-file.csv";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, NeuralLive{c});
    }
};

QTEST_APPLESS_MAIN(TestNeuralLive)
#include "test_neural_live.moc"
