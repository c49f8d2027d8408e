// The exact posterior against independent computations (a 1-D case by hand, the normal
// equations by QR of the augmented least-squares system, the covariance by SVD), the thesis and
// evidence rules for alpha and beta, SGD's fixed point, SWAG against hand moments, and the
// lab's runner (checkpoints, statuses, determinism, shared SGD trajectory).
#include "core/data/RegressionData.h"
#include "core/io/RegressionCsv.h"
#include "core/posterior/PosteriorLab.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/SgdTrainer.h"

#include <QtTest>
#include <limits>

using namespace fa;
using namespace fa::io;

namespace {

// log N(y; 0, beta^-1 I + alpha^-1 X X^T), densely: the evidence the fixed point maximises.
double logEvidence(const Matrix& X, const Vector& y, double alpha, double beta) {
    Matrix C = X * X.transpose() / alpha;
    C.diagonal().array() += 1.0 / beta;
    const Eigen::LLT<Matrix> llt(C);
    const Matrix L = llt.matrixL();
    return -L.diagonal().array().log().sum() - 0.5 * y.dot(llt.solve(y));
}

RegressionData smallData(int n, int p, std::uint64_t seed) {
    SyntheticRecipe r;
    r.samples = n;
    r.inputs = p;
    r.correlation = 0.3;
    return syntheticRegression(r, seed);
}

} // namespace

class TestPosterior : public QObject {
    Q_OBJECT
  private slots:
    void oneDimensionalPosteriorByHand() {
        Matrix X(3, 1);
        X << 1, 2, 3;
        const Vector y = Eigen::Vector3d(2, 3, 5);
        // A = 0.5 + 2 * 14 = 28.5, b = 2 * (2 + 6 + 15) = 46.
        const GaussianPosterior p = exactPosterior(X, y, {0.5, 2.0});
        // A 1 x 1 solve (κ = 1) takes a few roundings: 16 ε |value|, not a fixed 1e-17 (1.4 ulps).
        const double eps = std::numeric_limits<double>::epsilon();
        QVERIFY(std::abs(p.mean(0) - 46.0 / 28.5) < 16 * eps * (46.0 / 28.5));
        QVERIFY(std::abs(p.cov(0, 0) - 1.0 / 28.5) < 16 * eps * (1.0 / 28.5));
    }
    void posteriorMatchesAnIndependentRoute() {
        const RegressionData d = smallData(50, 6, 7);
        const double alpha = 0.7, beta = 1.9;
        const GaussianPosterior p = exactPosterior(d.X, d.y, {alpha, beta});
        // Mean: least squares of [sqrt(beta) X; sqrt(alpha) I] theta = [sqrt(beta) y; 0] by QR.
        Matrix aug(56, 6);
        aug << std::sqrt(beta) * d.X, std::sqrt(alpha) * Matrix::Identity(6, 6);
        Vector rhs = Vector::Zero(56);
        rhs.head(50) = std::sqrt(beta) * d.y;
        const Vector mean = aug.householderQr().solve(rhs);
        QVERIFY((p.mean - mean).norm() < 1e-10 * mean.norm());
        // Covariance: A built from outer products, inverted by SVD.
        Matrix A = alpha * Matrix::Identity(6, 6);
        for (Eigen::Index n = 0; n < 50; ++n)
            A += beta * d.X.row(n).transpose() * d.X.row(n);
        const Matrix S =
            A.jacobiSvd(Eigen::ComputeFullU | Eigen::ComputeFullV).solve(Matrix::Identity(6, 6));
        QVERIFY((p.cov - S).norm() < 1e-12 * S.norm());
    }
    void thesisRuleByHand() {
        Matrix X(4, 2);
        X << 1, 0, 2, 1, 3, 0, 4, 1;
        const Vector y = Eigen::Vector4d(1, 2, 3, 6);
        const Hyperparameters h = thesisHyperparameters(X, y);
        // var(y) = mean((y - 3)^2) = (4 + 1 + 0 + 9) / 4 = 3.5; diag(X^T X) = (30, 2).
        QVERIFY(std::abs(h.beta - 1.0 / 3.5) < 1e-15);
        QVERIFY(std::abs(h.alpha - 0.01 * (1.0 / 3.5) * 16.0) < 1e-15);
    }
    void evidenceMaximisationFindsALocalMaximum() {
        const RegressionData d = smallData(120, 5, 3);
        const EvidenceResult r = evidenceHyperparameters(d.X, d.y);
        QVERIFY(r.converged);
        const double a = r.hyper.alpha, b = r.hyper.beta, best = logEvidence(d.X, d.y, a, b);
        for (const double f : {1.05, 1 / 1.05}) {
            QVERIFY(logEvidence(d.X, d.y, a * f, b) < best);
            QVERIFY(logEvidence(d.X, d.y, a, b * f) < best);
        }
        // The synthetic recipe's truth: noise precision 0.1.
        QVERIFY(std::abs(b - 0.1) < 0.03);
    }
    void evidenceMatchesScikitLearn() {
        // scikit-learn 1.2.1 (Debian python3-sklearn), BayesianRidge(fit_intercept=False) on each
        // whole UCI set, standardised (population sd) with a bias column: lambda_ and alpha_.
        struct Expect {
            const char* name;
            double alpha, beta;
        };
        for (const Expect& e : {Expect{"boston", 23.5674758276, 3.74738575141},
                                Expect{"concrete", 7.93720035898, 2.57758957338},
                                Expect{"energy", 6.27628029839, 11.8065843719},
                                Expect{"yacht", 9.82864316732, 2.85914675503}}) {
            const RegressionProblem p =
                prepareRegression(loadBuiltinDataset(e.name, defaultDataDirectory()), {});
            const Hyperparameters h = evidenceHyperparameters(p.Xtrain, p.ytrain).hyper;
            QVERIFY2(std::abs(h.alpha / e.alpha - 1) < 1e-8, e.name);
            QVERIFY2(std::abs(h.beta / e.beta - 1) < 1e-8, e.name);
        }
    }
    void badHyperparametersAreRefused() {
        const RegressionData d = smallData(10, 2, 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exactPosterior(d.X, d.y, {0.0, 1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, exactPosterior(d.X, d.y, {1.0, -1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 thesisHyperparameters(d.X, Vector::Ones(10)));
    }
    void sgdSettlesAtTheRidgeSolution() {
        const RegressionData d = smallData(200, 3, 9);
        const double lambda = 5.0;
        SgdOptions o;
        o.learningRate = 0.002;
        o.batch = 20;
        o.lambda = lambda;
        SgdTrainer sgd(d.X, d.y, o);
        for (int e = 0; e < 300; ++e)
            sgd.runEpoch({});
        Vector avg = Vector::Zero(3);
        long count = 0;
        for (int e = 0; e < 200; ++e)
            sgd.runEpoch([&](const Vector& t) { avg += t, ++count; });
        avg /= double(count);
        Matrix A = d.X.transpose() * d.X;
        A.diagonal().array() += lambda;
        const Vector ridge = A.ldlt().solve(d.X.transpose() * d.y);
        QVERIFY2((avg - ridge).norm() < 2e-3 * ridge.norm(),
                 qPrintable(QString::number((avg - ridge).norm() / ridge.norm())));
        QCOMPARE(count, 200L * 10);
    }
    void swagMatchesHandMoments() {
        SwagEstimator swag(2, 2);
        const std::vector<Eigen::Vector2d> thetas = {{1, 2}, {3, 0}, {2, 5}};
        for (const auto& t : thetas)
            swag.observe(t);
        // Mean (2, 7/3); second moments (14/3, 29/3); var = (2/3, 29/3 - 49/9).
        // Running updates cancel: the mean's rounding scales with max |θ| (κ = max |θ| / |mean|),
        // the variance's with the second moments (κ = E θ² / var), so 16 ε κ |value|.
        const double eps = std::numeric_limits<double>::epsilon();
        QVERIFY((swag.mean() - Eigen::Vector2d(2, 7.0 / 3)).norm() <
                16 * eps * Eigen::Vector2d(2, 5).norm());
        const Eigen::Vector2d var(2.0 / 3, 29.0 / 3 - 49.0 / 9);
        QVERIFY((swag.psi() - 0.5 * var).norm() <
                16 * eps * Eigen::Vector2d(14.0 / 3, 29.0 / 3).norm());
        // The last two deviations from the running mean: (3,0) - (2,1) and (2,5) - (2,7/3);
        // with K = 2 the low-rank part is D D^T / (2 (K - 1)).
        Matrix Dhat(2, 2);
        Dhat << 0, 1, 8.0 / 3, -1; // ring buffer order: column 0 holds the 3rd deviation
        const Matrix expected = Dhat * Dhat.transpose() / 2.0;
        const Matrix F = swag.loadings();
        QVERIFY((F * F.transpose() - expected).norm() < 1e-14);
    }
    void runnerWritesCheckpointsAndIsDeterministic() {
        PosteriorConfig c;
        c.setup.synthetic.samples = 200;
        c.methods = {PosteriorMethod::VifaGauss, PosteriorMethod::SgdEm};
        c.epochs = 30;
        c.every = 10;
        c.trials = 2;
        c.seed = 4;
        const auto a = runPosterior(c), b = runPosterior(c);
        QCOMPARE(a.size(), std::size_t(2 * 2 * 3));
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].method, b[i].method);
            QCOMPARE(a[i].epoch, b[i].epoch);
            QCOMPARE(a[i].score.relCovDist, b[i].score.relCovDist);
            QCOMPARE(a[i].score.w2, b[i].score.w2);
            QCOMPARE(a[i].status, b[i].status);
        }
        QCOMPARE(a[0].method, std::string("vifa-gauss"));
        QCOMPARE(a[0].epoch, 10L);
        QCOMPARE(a[3].method, std::string("sgd-em"));
        // 10 warm-up epochs (6 steps each) feed nothing; by epoch 10 the fitter has seen no
        // iterate.
        QCOMPARE(a[3].status, std::string("warmup"));
        QCOMPARE(a[5].epoch, 30L);
        QVERIFY(std::abs(a[5].score.w2OverDim - a[5].score.w2 / 2.0) < 1e-15);
    }
    // Rows written by hand: a distance beyond 1e6 is diverged, and so is every later checkpoint
    // of that trial and method, also back under; other trials, methods and warm-up rows keep
    // their words, and a row core already marked diverged (SGD) starts the run of diverged rows.
    void divergedRowsStayDiverged() {
        const auto row = [](int trial, const char* method, double dist, const char* status) {
            PosteriorRow r;
            r.trial = trial;
            r.method = method;
            r.score.relMeanDist = dist;
            r.score.relCovDist = 0.5;
            r.status = status;
            return r;
        };
        std::vector<PosteriorRow> rows{
            row(0, "a", 0.5, "ok"),     row(0, "a", 1.25e6, "ok"), row(0, "a", 3.2e5, "ok"),
            row(0, "b", 0.5, "ok"),     row(1, "a", 0.5, "ok"),    row(1, "a", 0.7, "ok"),
            row(0, "c", 1e7, "warmup"), row(0, "c", 0.5, "ok"),    row(0, "d", 0.1, "diverged"),
            row(0, "d", 0.1, "ok"),     row(0, "b", 1e6, "ok")};
        rows[3].score.relCovDist = 2e6; // the covariance's distance counts too
        markDivergedRows(rows, 1e6);
        const std::vector<std::string> expected{"ok",       "diverged", "diverged", "diverged",
                                                "ok",       "ok",       "warmup",   "ok",
                                                "diverged", "diverged", "diverged"};
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY2(rows[i].status == expected[i], qPrintable(QString::number(i)));
    }
    void sgdMethodsShareOneTrajectory() {
        // The EM fit's mean is the running mean of the SGD iterates after the warm-up epochs;
        // collect those iterates by hand with the same problem and seed.
        PosteriorSetup setup;
        setup.synthetic.samples = 320;
        const PosteriorProblem p = preparePosteriorProblem(setup, 8);
        PosteriorRunOptions o;
        o.warmupEpochs = 3;
        PosteriorTrial both(p, o, {PosteriorMethod::SgdEm, PosteriorMethod::Swag}, 21);
        PosteriorTrial alone(p, o, {PosteriorMethod::SgdEm}, 21);
        for (int e = 0; e < 12; ++e) {
            both.runEpoch();
            alone.runEpoch();
        }
        const auto eb = both.estimates(), ea = alone.estimates();
        QCOMPARE(eb[0].model.c, ea[0].model.c);
        QVERIFY((eb[1].model.c - ea[0].model.c).norm() <
                1e-12 * ea[0].model.c.norm()); // SWAG: same running mean
        SgdOptions s = o.sgd;
        s.lambda = p.hyper.alpha / p.hyper.beta;
        s.seed = deriveSeed(21, SeedStream::PosteriorSgd);
        SgdTrainer sgd(p.data.Xtrain, p.data.ytrain, s);
        Vector sum = Vector::Zero(2);
        long count = 0;
        for (int e = 0; e < 12; ++e)
            sgd.runEpoch([&](const Vector& t) {
                if (e >= 3)
                    sum += t, ++count;
            });
        QCOMPARE(count, 9L * 10);
        QVERIFY((ea[0].model.c - sum / double(count)).norm() < 1e-12 * sum.norm() / double(count));
        QCOMPARE(both.recentIterates().back(), sgd.theta());
    }
    void liveSgdChangesActFromTheNextStep() {
        PosteriorSetup setup;
        setup.synthetic.samples = 100;
        const PosteriorProblem p = preparePosteriorProblem(setup, 1);
        PosteriorTrial t(p, {}, {PosteriorMethod::Swag}, 2);
        t.setSgdLearningRate(0.05);
        t.setLambda(3.0);
        QCOMPARE(t.sgdLearningRate(), 0.05);
        QCOMPARE(t.lambda(), 3.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.setSgdLearningRate(-1.0));
    }
    void realDataGetsBiasSplitAndEvidence() {
        PosteriorSetup setup;
        setup.dataset = "yacht";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 preparePosteriorProblem(setup, 0)); // no loader
        setup.loader = io::datasetLoader();
        const PosteriorProblem p = preparePosteriorProblem(setup, 0);
        QCOMPARE(p.dim(), Eigen::Index{7}); // 6 inputs + bias
        QCOMPARE(p.data.Xtrain.rows(), Eigen::Index{154});
        QCOMPARE(p.hyperMode, HyperMode::Evidence);
        const EvidenceResult e = evidenceHyperparameters(p.data.Xtrain, p.data.ytrain);
        QCOMPARE(p.hyper.alpha, e.hyper.alpha);
        setup.dataset = "no-such-file.csv";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, preparePosteriorProblem(setup, 0));
    }
};

QTEST_APPLESS_MAIN(TestPosterior)
#include "test_posterior.moc"
