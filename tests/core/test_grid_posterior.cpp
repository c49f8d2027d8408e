// The grid posterior (docs/maths/posterior.md §5) against independent references: the 2-D Bayesian
// linear regression posterior in closed form (mean, covariance, log evidence, HPD levels of a
// Gaussian), KL(q || p) by quadrature against the dense Gaussian KL, the closed-form ELBO below
// the log evidence by exactly the KL, the Laplace-prior posterior's moments against a 1-D
// integral of its closed-form conditional, and the bimodal target's symmetry.
#include "core/data/RegressionData.h"
#include "core/math/Rng.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/GridPosterior.h"
#include "core/vi/Targets.h"

#include <QtTest>

#include <numbers>

using namespace fa;

namespace {

// The report's synthetic problem (N = 1000, correlated inputs, alpha = 0.01, beta = 0.1).
RegressionData reportProblem() {
    return syntheticRegression(SyntheticRecipe{}, 3);
}

// KL(N(m1, S1) || N(m2, S2)) from dense matrices.
double denseKl(const Eigen::Vector2d& m1, const Eigen::Matrix2d& S1, const Eigen::Vector2d& m2,
               const Eigen::Matrix2d& S2) {
    const Eigen::Matrix2d P2 = S2.inverse();
    return 0.5 * ((P2 * S1).trace() + (m2 - m1).dot(P2 * (m2 - m1)) - 2.0 +
                  std::log(S2.determinant() / S1.determinant()));
}

} // namespace

class TestGridPosterior : public QObject {
    Q_OBJECT
  private slots:
    void linearGaussianMatchesClosedForm() {
        const RegressionData d = reportProblem();
        const Hyperparameters h{0.01, 0.1};
        const GaussianPosterior exact = exactPosterior(d.X, d.y, h);
        const Eigen::Vector2d mu = exact.mean;
        const Eigen::Matrix2d S = exact.cov;
        const LogDensity2 f =
            logJoint2(TargetKind::Linear, d.X, d.y, h.beta, PriorKind::Gaussian, h.alpha);
        for (const double shift : {0.0, 0.37}) {
            const Eigen::Vector2d centre = mu + shift * S.diagonal().cwiseSqrt();
            const GridPosterior g = gridPosterior(f, boxAround(centre, S, 8.0, 200));
            QVERIFY((g.mean - mu).norm() < 1e-10 * mu.norm());
            QVERIFY2((g.cov - S).norm() < 1e-9 * S.norm(),
                     qPrintable(QString::number((g.cov - S).norm() / S.norm())));
            QVERIFY2(std::abs(g.logZ - logEvidence(d.X, d.y, h)) < 1e-9,
                     qPrintable(QString::number(g.logZ - logEvidence(d.X, d.y, h))));
            // A Gaussian's HPD region of mass 1 - exp(-r^2/2) is the Mahalanobis-r ellipse, of
            // density exp(-r^2/2) / (2 pi sqrt|S|); the grid's threshold is first-order in h.
            for (int r = 1; r <= 3; ++r) {
                const double level =
                    std::exp(-0.5 * r * r) / (2.0 * std::numbers::pi * std::sqrt(S.determinant()));
                QVERIFY2(std::abs(g.hpdDensity[std::size_t(r - 1)] / level - 1.0) < 0.02,
                         qPrintable(QString::number(g.hpdDensity[std::size_t(r - 1)] / level)));
            }
            QVERIFY(g.ringMass < 1e-10);
        }
    }

    // KL(q || p) by quadrature = the dense Gaussian KL; the closed-form ELBO is the log evidence
    // minus that KL, so never above it.
    void klAndElboAgainstTheEvidence() {
        const RegressionData d = reportProblem();
        const Hyperparameters h{0.01, 0.1};
        const GaussianPosterior exact = exactPosterior(d.X, d.y, h);
        const GridPosterior g = gridPosterior(
            logJoint2(TargetKind::Linear, d.X, d.y, h.beta, PriorKind::Gaussian, h.alpha),
            boxAround(exact.mean, exact.cov, 12.0, 400)); // q reaches 8 of its sd inside
        const double evidence = logEvidence(d.X, d.y, h);
        Rng rng(5);
        for (int t = 0; t < 20; ++t) {
            Eigen::Vector2d e, m;
            rng.fillNormal(e);
            m = exact.mean + 0.5 * exact.cov.diagonal().cwiseSqrt().cwiseProduct(e);
            Eigen::Matrix2d A;
            A << 0.5 + rng.uniform(), 0.0, rng.uniform(-0.5, 0.5), 0.5 + rng.uniform();
            const Eigen::Matrix2d S = A * exact.cov * A.transpose(); // within the box
            const double kl = denseKl(m, S, exact.mean, exact.cov);
            double mass = 0.0;
            QVERIFY2(std::abs(klByQuadrature(g, m, S, &mass) - kl) < 1e-8 * std::max(1.0, kl),
                     qPrintable(QString::number(klByQuadrature(g, m, S) - kl)));
            QVERIFY(std::abs(mass - 1.0) < 1e-8);
            const double elbo = gaussianElbo(d.X, d.y, h, m, S);
            QVERIFY(elbo < evidence);
            QVERIFY2(std::abs(evidence - elbo - kl) < 1e-9 * std::abs(evidence),
                     qPrintable(QString::number(evidence - elbo - kl)));
        }
        // At the posterior itself the bound is tight.
        QVERIFY(std::abs(gaussianElbo(d.X, d.y, h, exact.mean, exact.cov) - evidence) < 1e-9);
    }

    // Laplace prior: the conditional of w2 given w1 under a Gaussian likelihood is
    // exp(-a/2 w2^2 + b w2 - rate |w2|), whose integral is closed form (two erfc terms); the
    // marginal moments of w1 then need one 1-D integral, split at the kink. The grid (0 on a
    // cell edge) agrees to its second-order accuracy.
    void laplacePriorAgainstOneDimensionalIntegral() {
        SyntheticRecipe r;
        r.samples = 30;
        r.alpha = 1.0;
        r.beta = 1.0;
        const RegressionData d = syntheticRegression(r, 8);
        const double alpha = 4.0, beta = 1.0, rate = laplaceRateForPrecision(alpha);
        const Eigen::Matrix2d XtX = d.X.transpose() * d.X;
        const Eigen::Vector2d Xty = d.X.transpose() * d.y;
        // log of the integral over w2 of exp(-a/2 w2^2 + b w2 - rate |w2|) (dropping a constant).
        const auto logInner = [&](double w1) {
            const double a = beta * XtX(1, 1), b = beta * (Xty(1) - XtX(0, 1) * w1);
            const auto side = [&](double c) { // integral over w2 > 0 of exp(-a/2 w2^2 + c w2)
                return 0.5 * c * c / a + std::log(std::sqrt(std::numbers::pi / (2.0 * a)) *
                                                  std::erfc(-c / std::sqrt(2.0 * a)));
            };
            const double p = side(b - rate), q = side(-b - rate), top = std::max(p, q);
            return top + std::log(std::exp(p - top) + std::exp(q - top));
        };
        const auto logMarginal = [&](double w1) {
            return -0.5 * beta * (XtX(0, 0) * w1 * w1 - 2.0 * Xty(0) * w1) - rate * std::abs(w1) +
                   logInner(w1);
        };
        double m0 = 0.0, m1 = 0.0, m2 = 0.0, top = -INFINITY;
        const int n = 200000;
        const double lo = -6.0, hi = 6.0;
        for (int i = 0; i <= n; ++i)
            top = std::max(top, logMarginal(lo + (hi - lo) * i / n));
        for (const auto& [a, b] : {std::pair{lo, 0.0}, std::pair{0.0, hi}}) { // Simpson per side
            const double h = (b - a) / n;
            for (int i = 0; i <= n; ++i) {
                const double w = a + i * h, wt = (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0));
                const double p = std::exp(logMarginal(w) - top) * wt * h / 3.0;
                m0 += p, m1 += p * w, m2 += p * w * w;
            }
        }
        const double mean = m1 / m0, var = m2 / m0 - mean * mean;
        const GaussianPosterior guess = exactPosterior(d.X, d.y, {alpha, beta});
        const GridPosterior g = adaptiveGridPosterior(
            logJoint2(TargetKind::Linear, d.X, d.y, beta, PriorKind::Laplace, alpha),
            boxAround(guess.mean, guess.cov, 8.0, 400)); // the Gaussian prior's posterior

        QVERIFY2(std::abs(g.mean(0) - mean) < 2e-3 * std::sqrt(var),
                 qPrintable(QString("%1 vs %2").arg(g.mean(0)).arg(mean)));
        QVERIFY2(std::abs(g.cov(0, 0) / var - 1.0) < 2e-3,
                 qPrintable(QString::number(g.cov(0, 0) / var)));
    }

    // y = w1 w2 x + noise: the posterior is symmetric under w -> -w, so its mean is 0 and a
    // Gaussian on one mode is far closer in KL(q || p) than the moment-matched Gaussian.
    void bimodalTargetIsSymmetric() {
        Rng rng(2);
        Vector x(20), y(20);
        rng.fillNormal(x);
        rng.fillNormal(y);
        y = x + 0.5 * y; // u = 1, beta = 4
        const LogDensity2 f = logJoint2(TargetKind::Bilinear, x, y, 4.0, PriorKind::Gaussian, 1.0);
        const GridPosterior g = gridPosterior(f, {{-7.0, -7.0}, {7.0, 7.0}, 400});
        QVERIFY(g.mean.norm() < 1e-12);
        QVERIFY(g.cov(0, 1) > 0.5 * std::sqrt(g.cov(0, 0) * g.cov(1, 1))); // along w1 w2 = u > 0
        const double momentMatched = klByQuadrature(g, g.mean, g.cov);
        const Eigen::Vector2d mode(1.0, 1.0);
        Eigen::Matrix2d onMode;
        onMode << 0.1, -0.05, -0.05, 0.1;
        const double oneMode = klByQuadrature(g, mode, onMode);
        QVERIFY2(oneMode < 3.0 && momentMatched > 10.0 * oneMode,
                 qPrintable(QString("%1 %2").arg(oneMode).arg(momentMatched)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gridPosterior(f, {{0, 0}, {0, 1}, 100}));
    }

    // Marching squares on a Gaussian posterior: at the density of the Mahalanobis-r ellipse the
    // contour is one closed loop whose points lie at Mahalanobis distance r (to the error of
    // linear interpolation between cell centres); the bimodal posterior's inner contour is two
    // loops, mirror images of each other.
    void contoursOfTheGrid() {
        const RegressionData d = reportProblem();
        const Hyperparameters h{0.01, 0.1};
        const GaussianPosterior exact = exactPosterior(d.X, d.y, h);
        const Eigen::Matrix2d S = exact.cov, P = S.inverse();
        const GridPosterior g = gridPosterior(
            logJoint2(TargetKind::Linear, d.X, d.y, h.beta, PriorKind::Gaussian, h.alpha),
            boxAround(exact.mean, S, 8.0, 200));
        for (int r = 1; r <= 3; ++r) {
            const double level =
                std::exp(-0.5 * r * r) / (2.0 * std::numbers::pi * std::sqrt(S.determinant()));
            const auto lines = contourLines(g, level);
            QCOMPARE(lines.size(), std::size_t(1));
            QVERIFY((lines[0].front() - lines[0].back()).norm() < 1e-12); // closed
            QVERIFY(lines[0].size() > 50);
            for (const Eigen::Vector2d& w : lines[0]) {
                const Eigen::Vector2d u = w - exact.mean;
                QVERIFY2(std::abs(std::sqrt(u.dot(P * u)) - r) < 5e-3,
                         qPrintable(QString::number(std::sqrt(u.dot(P * u)))));
            }
        }
        Rng rng(2);
        Vector x(20), y(20);
        rng.fillNormal(x);
        rng.fillNormal(y);
        y = x + 0.5 * y;
        const GridPosterior b =
            gridPosterior(logJoint2(TargetKind::Bilinear, x, y, 4.0, PriorKind::Gaussian, 1.0),
                          {{-7.0, -7.0}, {7.0, 7.0}, 400});
        const auto inner = contourLines(b, b.hpdDensity[0]);
        QCOMPARE(inner.size(), std::size_t(2));
        Eigen::Vector2d c0 = Eigen::Vector2d::Zero(), c1 = Eigen::Vector2d::Zero();
        for (const auto& w : inner[0])
            c0 += w / double(inner[0].size());
        for (const auto& w : inner[1])
            c1 += w / double(inner[1].size());
        QVERIFY((c0 + c1).norm() < 0.05 * c0.norm()); // w -> -w
    }

    // Logistic likelihood: its gradient against central differences of its value.
    void logisticGradientMatchesFiniteDifferences() {
        Rng rng(4);
        Matrix X(25, 3);
        rng.fillNormal(X.reshaped());
        Vector y(25);
        for (Eigen::Index i = 0; i < 25; ++i)
            y(i) = rng.uniform() < 0.5 ? 0.0 : 1.0;
        const LogisticLikelihood lik(X, y);
        std::vector<Eigen::Index> batch = {0, 3, 4, 7, 24};
        Vector w(3), g(3), tmp(3);
        w << 0.3, -1.2, 2.0;
        lik.meanNegLogLik(w, batch, g);
        for (int i = 0; i < 3; ++i) {
            Vector a = w, b = w;
            a(i) += 1e-6, b(i) -= 1e-6;
            const double fd =
                (lik.meanNegLogLik(a, batch, tmp) - lik.meanNegLogLik(b, batch, tmp)) / 2e-6;
            QVERIFY(std::abs(fd - g(i)) < 1e-8);
        }
        QCOMPARE(logSigmoid(-800.0), -800.0);
        QVERIFY(std::abs(logSigmoid(1.0) + std::log1p(std::exp(-1.0))) < 1e-15);
    }
};

QTEST_APPLESS_MAIN(TestGridPosterior)
#include "test_grid_posterior.moc"
