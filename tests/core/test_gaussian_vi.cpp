// Full-covariance and mean-field Gaussian VI (docs/maths/posterior.md §4) against closed forms: the
// exact (entropy + prior) gradient against central differences of dense formulas; each of the
// three gradient estimators unbiased for the gradient of the closed-form -ELBO of Bayesian
// linear regression (the mean of many estimates within Monte Carlo error of the finite-difference
// gradient); mean-field VI converging to m = mu, sigma_i^2 = 1 / Lambda_ii and full-covariance VI
// to the exact posterior.
#include "core/data/RegressionData.h"
#include "core/metrics/DenseMetrics.h"
#include "core/vi/BoundHyper.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/GaussianVi.h"
#include "core/vi/Likelihood.h"
#include "core/vi/VifaTerms.h"

#include <QtTest>

#include <functional>
#include <numeric>

using namespace fa;

namespace {

// The parameters as one flat vector (m, then the scale block as the header lays it out: the
// strictly lower L row by row, then log L_ii; mean-field: s = log sigma), turned into (m, Sigma)
// here without the class.
struct Layout {
    Eigen::Index D;
    bool full;
    Eigen::Index size() const { return D + (full ? D * (D - 1) / 2 : 0) + D; }
    Vector m(const Vector& v) const { return v.head(D); }
    Matrix L(const Vector& v) const {
        Matrix L = Matrix::Zero(D, D);
        Eigen::Index k = D;
        if (full)
            for (Eigen::Index i = 1; i < D; ++i)
                for (Eigen::Index j = 0; j < i; ++j)
                    L(i, j) = v(k++);
        L.diagonal() = v.tail(D).array().exp();
        return L;
    }
    Matrix cov(const Vector& v) const { return L(v) * L(v).transpose(); }
};

Vector centralDifferences(const std::function<double(const Vector&)>& f, const Vector& x) {
    Vector g(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double h = 1e-5 * std::max(1.0, std::abs(x(i)));
        Vector a = x, b = x;
        a(i) += h;
        b(i) -= h;
        g(i) = (f(a) - f(b)) / (2.0 * h);
    }
    return g;
}

Vector randomState(const Layout& L, std::uint64_t seed) {
    Rng rng(seed);
    Vector v(L.size());
    rng.fillNormal(v);
    v *= 0.4;
    v.tail(L.D).array() -= 0.7; // sigma around 0.5
    return v;
}

// E_q[-log p(w)] up to a constant, from dense moments: Gaussian alpha/2 (|m|^2 + tr S);
// Laplace rate sum E|w_d| (E|X| checked against integration in test_vifa).
double densePriorTerm(const Vector& m, const Matrix& S, PriorKind prior, double alpha) {
    if (prior == PriorKind::Gaussian)
        return 0.5 * alpha * (m.squaredNorm() + S.trace());
    double t = 0.0;
    for (Eigen::Index d = 0; d < m.size(); ++d)
        t += expectedAbs(m(d), S(d, d));
    return laplaceRateForPrecision(alpha) * t;
}

double denseNegEntropy(const Matrix& S) {
    return -Eigen::LLT<Matrix>(S).matrixL().toDenseMatrix().diagonal().array().log().sum();
}

Vector pack(const ViGradient& g) {
    Vector v(g.mean.size() + g.scale.size());
    v << g.mean, g.scale;
    return v;
}

struct Problem {
    RegressionData data;
    LinearGaussianLikelihood lik;
    std::vector<Eigen::Index> all;
    explicit Problem(int n, int inputs, double beta, std::uint64_t seed)
        : data(make(n, inputs, seed)), lik(data.X, data.y, beta), all(std::size_t(n)) {
        std::iota(all.begin(), all.end(), Eigen::Index{0});
    }
    static RegressionData make(int n, int inputs, std::uint64_t seed) {
        SyntheticRecipe r;
        r.samples = n;
        r.inputs = inputs;
        r.alpha = 1.0;
        return syntheticRegression(r, seed);
    }
};

} // namespace

class TestGaussianVi : public QObject {
    Q_OBJECT

    static GaussianVi make(const Problem& p, bool full, PriorKind prior, double alpha,
                           GradientEstimator e = GradientEstimator::Reparam) {
        GaussianViOptions o;
        o.family = full ? ViFamily::Full : ViFamily::MeanField;
        o.prior = prior;
        o.precision = alpha;
        o.estimator = e;
        return GaussianVi(p.lik, o);
    }
    static void put(GaussianVi& vi, const Layout& L, const Vector& x) {
        vi.setState(L.m(x), L.L(x));
    }

  private slots:
    void exactPartMatchesFiniteDifferences() {
        const Problem p(30, 4, 1.0, 3);
        for (const bool full : {true, false})
            for (const PriorKind prior : {PriorKind::Gaussian, PriorKind::Laplace}) {
                const Layout L{4, full};
                const Vector x = randomState(L, 7);
                GaussianVi vi = make(p, full, prior, 0.6);
                put(vi, L, x);
                const Vector fd = centralDifferences(
                    [&](const Vector& v) {
                        return denseNegEntropy(L.cov(v)) +
                               densePriorTerm(L.m(v), L.cov(v), prior, 0.6);
                    },
                    x);
                const Vector g = pack(vi.exactGradient());
                QVERIFY2((g - fd).norm() < 1e-7 * fd.norm(),
                         qPrintable(QString::number((g - fd).norm() / fd.norm())));
            }
    }

    // The mean of T independent estimates against the finite-difference gradient of the
    // closed-form -ELBO, N E_q[mean -log p(y|w)] + E_q[-log p(w)] - H: every component's
    // z-score within 4.5 (about 40 components, so a false alarm has odds near 3e-4).
    void estimatorsAreUnbiased_data() {
        QTest::addColumn<bool>("full");
        QTest::addColumn<int>("estimator");
        QTest::addColumn<int>("prior");
        for (const bool full : {true, false})
            for (const GradientEstimator e : {GradientEstimator::Reparam, GradientEstimator::Score,
                                              GradientEstimator::ScoreBaseline}) {
                const std::string name =
                    std::string(full ? "full " : "mean-field ") + estimatorName(e);
                QTest::newRow(name.c_str()) << full << int(e) << int(PriorKind::Gaussian);
            }
        QTest::newRow("full score-baseline laplace")
            << true << int(GradientEstimator::ScoreBaseline) << int(PriorKind::Laplace);
    }
    void estimatorsAreUnbiased() {
        QFETCH(bool, full);
        QFETCH(int, estimator);
        QFETCH(int, prior);
        const Problem p(40, 3, 2.0, 5);
        const Layout L{3, full};
        const Vector x = randomState(L, 9);
        const auto pk = PriorKind(prior);
        GaussianVi vi = make(p, full, pk, 0.5);
        put(vi, L, x);
        const double N = 40.0;
        const Vector exact = centralDifferences(
            [&](const Vector& v) {
                const Matrix S = L.cov(v);
                return N * p.lik.expectedMeanNegLogLik(L.m(v), S, p.all) + denseNegEntropy(S) +
                       densePriorTerm(L.m(v), S, pk, 0.5);
            },
            x);
        const int T = 4000;
        Rng rng(17);
        Vector sum = Vector::Zero(x.size()), sq = Vector::Zero(x.size());
        for (int t = 0; t < T; ++t) {
            const Vector g = pack(vi.estimate(GradientEstimator(estimator), 10, p.all, rng));
            sum += g;
            sq += g.cwiseAbs2();
        }
        const Vector mean = sum / T;
        const Vector sd = ((sq / T - mean.cwiseAbs2()) * (T / (T - 1.0))).cwiseSqrt();
        const Vector z = (mean - exact).array() / (sd.array() / std::sqrt(double(T)));
        QVERIFY2(
            z.cwiseAbs().maxCoeff() < 4.5,
            qPrintable(
                QString("max |z| %1 at sd %2").arg(z.cwiseAbs().maxCoeff()).arg(sd.maxCoeff())));
        // The mean block of the score function without a baseline is far noisier than the
        // reparameterised one (docs/maths/posterior.md §4.5 records 634 measured at the start of a
        // 2-D problem): the study the window shows has something to show.
        if (GradientEstimator(estimator) == GradientEstimator::Score) {
            Rng r2(18);
            double reparamVar = 0.0, scoreVar = 0.0;
            for (int t = 0; t < 400; ++t) {
                reparamVar +=
                    (vi.estimate(GradientEstimator::Reparam, 10, p.all, r2).mean - exact.head(3))
                        .squaredNorm();
                scoreVar +=
                    (vi.estimate(GradientEstimator::Score, 10, p.all, r2).mean - exact.head(3))
                        .squaredNorm();
            }
            QVERIFY2(scoreVar > 10.0 * reparamVar,
                     qPrintable(QString("%1 vs %2").arg(scoreVar).arg(reparamVar)));
        }
    }

    // Gaussian target N(mu, Lambda^-1), Lambda = alpha I + beta X^T X: mean-field VI goes to
    // m = mu and sigma_i^2 = 1 / Lambda_ii (not the marginal variances, 16-25 % larger here);
    // full-covariance VI to the exact posterior. Plain SGD without clipping (clipping a noisy
    // gradient biases its mean), whole-data batches (one per epoch, an update every L = 10),
    // the step decayed in five stages of 4000 updates.
    void convergesToTheClosedFormOptima() {
        const Problem p(200, 3, 1.0, 21);
        const double alpha = 1.0;
        const GaussianPosterior post = exactPosterior(p.data.X, p.data.y, {alpha, 1.0});
        const Matrix Lambda = alpha * Matrix::Identity(3, 3) + p.data.X.transpose() * p.data.X;
        for (const bool full : {true, false}) {
            GaussianViOptions o;
            o.family = full ? ViFamily::Full : ViFamily::MeanField;
            o.precision = alpha;
            o.batch = 200;
            o.samples = 10;
            o.maxGradNorm = 0.0;
            o.seed = 4;
            GaussianVi vi(p.lik, o);
            for (const double lr : {5e-4, 1.67e-4, 5e-5, 1.67e-5, 5e-6}) {
                vi.setLearningRates(lr, lr, lr);
                for (int e = 0; e < 40000; ++e)
                    vi.runEpoch();
            }
            QCOMPARE(vi.status(), FitStatus::Running);
            const Vector sd = post.cov.diagonal().cwiseSqrt();
            QVERIFY2(((vi.mean() - post.mean).array() / sd.array()).abs().maxCoeff() < 0.05,
                     qPrintable(QString("%1 %2 sd %3")
                                    .arg(full)
                                    .arg((vi.mean() - post.mean).norm())
                                    .arg(sd.minCoeff())));
            const Matrix S = vi.covariance();
            if (full) {
                QVERIFY2(relativeCovarianceDistance(S, post.cov) < 0.01,
                         qPrintable(QString::number(relativeCovarianceDistance(S, post.cov))));
            } else {
                const Vector ratio = S.diagonal().cwiseProduct(Lambda.diagonal());
                QVERIFY2((ratio.array() - 1.0).abs().maxCoeff() < 0.01,
                         qPrintable(QString::number((ratio.array() - 1.0).abs().maxCoeff())));
                QCOMPARE(S(0, 1), 0.0);
            }
            // The FA form of q has the same covariance.
            QVERIFY((vi.model().denseCovariance() - S).norm() < 1e-12 * S.norm());
        }
    }

    // Hyperparameters through the bound: the bound rises monotonically and stays below the log
    // evidence; full covariance ends where the evidence is stationary in (log alpha, log beta)
    // (central differences of the closed-form evidence) with the bound tight; mean field ends
    // KL_min = 1/2 (sum log Lambda_ii - log|Lambda|) below it, at another (alpha, beta) of lower
    // evidence.
    void hyperparametersThroughTheBound() {
        SyntheticRecipe r; // the report's 2-D problem: N = 1000, alpha = 0.01, beta = 0.1
        const RegressionData d = syntheticRegression(r, 12);
        const auto evidenceGradient = [&](const Hyperparameters& h) {
            const double e = 1e-5;
            const auto at = [&](double da, double db) {
                return logEvidence(d.X, d.y, {h.alpha * std::exp(da), h.beta * std::exp(db)});
            };
            return Eigen::Vector2d((at(e, 0) - at(-e, 0)) / (2 * e),
                                   (at(0, e) - at(0, -e)) / (2 * e));
        };
        Hyperparameters fullEnd;
        for (const ViFamily family : {ViFamily::Full, ViFamily::MeanField}) {
            const auto steps = fitHyperByBound(d.X, d.y, family, {1.0, 1.0}, 3000);
            for (std::size_t k = 0; k < steps.size(); ++k) {
                QVERIFY(steps[k].elbo <=
                        steps[k].logEvidence + 1e-9 * std::abs(steps[k].logEvidence));
                if (k > 0)
                    QVERIFY(steps[k].elbo >= steps[k - 1].elbo - 1e-9 * std::abs(steps[k].elbo));
            }
            const BoundStep& last = steps.back();
            const Eigen::Vector2d g = evidenceGradient(last.hyper);
            if (family == ViFamily::Full) {
                QVERIFY2(g.norm() < 1e-4, qPrintable(QString::number(g.norm())));
                QVERIFY(std::abs(last.logEvidence - last.elbo) < 1e-9 * std::abs(last.elbo));
                fullEnd = last.hyper;
            } else {
                Matrix lambda = last.hyper.beta * d.X.transpose() * d.X;
                lambda.diagonal().array() += last.hyper.alpha;
                const double klMin =
                    0.5 * (lambda.diagonal().array().log().sum() - std::log(lambda.determinant()));
                QVERIFY2(std::abs(last.logEvidence - last.elbo - klMin) < 1e-8,
                         qPrintable(QString::number(last.logEvidence - last.elbo - klMin)));
                QVERIFY(klMin > 0.1);
                // biased: another (alpha, beta) than the evidence maximum, of lower evidence
                QVERIFY2(std::abs(last.hyper.alpha / fullEnd.alpha - 1.0) > 1e-3 &&
                             logEvidence(d.X, d.y, fullEnd) > last.logEvidence,
                         qPrintable(QString("%1 %2 %3 %4")
                                        .arg(last.hyper.alpha)
                                        .arg(fullEnd.alpha)
                                        .arg(last.hyper.beta)
                                        .arg(fullEnd.beta)));
            }
        }
    }

    void refusesBadOptions() {
        GaussianViOptions o;
        o.estimator = GradientEstimator::ScoreBaseline;
        o.samples = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(o));
        o.samples = 2;
        validate(o);
        o.precision = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(o));
        QCOMPARE(parseEstimator("score-baseline"), GradientEstimator::ScoreBaseline);
        QVERIFY(!parseEstimator("reinforce"));
    }
};

QTEST_APPLESS_MAIN(TestGaussianVi)
#include "test_gaussian_vi.moc"
