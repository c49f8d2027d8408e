// PPCA's MAP EM (docs/maths/latent.md §3.5) against independent references: the log posterior
// (the dense log-likelihood plus the prior, written out here) never falls, with and without
// missing values; at the converged MAP its central finite-difference gradient in every entry of
// W, μ and in σ² is ~0 (and at the maximum-likelihood fit it is not); and the MAP equals the
// closed form derived from the eigenvalues of S (each kept direction's c_j = w_j² + σ² solves
// α c² + N c - N λ_j = 0, σ² the smaller root of a quadratic), so the loadings shrink toward 0
// by the amount that form predicts.
#include "core/math/Rng.h"
#include "core/math/SymmetricEigen.h"
#include "core/models/Ppca.h"
#include "tests/support/DenseReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>

#include <limits>

using namespace fa;

namespace {

/// Σ over rows of the dense log N(x_O; μ_O, C_OO), C = W Wᵀ + σ² I (not averaged).
double denseLoglikSum(const PpcaModel& m, const Matrix& rows) {
    Matrix C = m.W * m.W.transpose();
    C.diagonal().array() += m.sigma2;
    return test::denseObservedLoglikSum(m.mu, C, rows);
}

/// v̄: the mean over columns of each column's variance (ddof 0) over its observed entries.
double meanObservedVariance(const Matrix& rows) {
    double sum = 0.0;
    for (Eigen::Index d = 0; d < rows.cols(); ++d) {
        std::vector<double> v;
        for (Eigen::Index n = 0; n < rows.rows(); ++n)
            if (!std::isnan(rows(n, d)))
                v.push_back(rows(n, d));
        double mean = 0.0, sq = 0.0;
        for (double x : v)
            mean += x / double(v.size());
        for (double x : v)
            sq += (x - mean) * (x - mean) / double(v.size());
        sum += sq;
    }
    return sum / double(rows.cols());
}

/// The log posterior (up to a constant): the dense log-likelihood of every row plus
/// -(α/2)‖W‖² - (a₀ + 1) log σ² - b₀ v̄ / σ².
double logPosterior(const PpcaModel& m, const Matrix& rows, const PpcaPrior& p, double vbar) {
    return denseLoglikSum(m, rows) - 0.5 * p.alpha * m.W.squaredNorm() -
           (p.shape + 1.0) * std::log(m.sigma2) - p.scale * vbar / m.sigma2;
}

/// The largest |central difference| of the log posterior over every entry of W and μ and over
/// σ², each scaled by the entry's size (a relative step).
double largestGradient(const PpcaModel& at, const Matrix& rows, const PpcaPrior& p, double vbar) {
    double worst = 0.0;
    auto probe = [&](double& value, PpcaModel& m) {
        const double keep = value, h = 1e-5 * std::max(1.0, std::abs(keep));
        value = keep + h;
        const double up = logPosterior(m, rows, p, vbar);
        value = keep - h;
        const double down = logPosterior(m, rows, p, vbar);
        value = keep;
        worst = std::max(worst, std::abs(up - down) / (2.0 * h));
    };
    PpcaModel m = at;
    for (Eigen::Index i = 0; i < m.W.size(); ++i)
        probe(m.W.data()[i], m);
    for (Eigen::Index i = 0; i < m.mu.size(); ++i)
        probe(m.mu(i), m);
    probe(m.sigma2, m);
    return worst;
}

Matrix withHoles(Matrix X, double share, std::uint64_t seed) {
    Rng rng(seed);
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        for (Eigen::Index d = 0; d < X.cols(); ++d)
            if (rng.uniform() < share)
                X(i, d) = kNaN;
    return X;
}

PpcaEm fitted(const Matrix& X, int latent, std::optional<PpcaPrior> prior, int iterations) {
    PpcaOptions o;
    o.latent = latent;
    o.seed = 3;
    o.missingValues = X.hasNaN();
    o.prior = prior;
    PpcaEm em(X, o);
    for (int t = 0; t < iterations; ++t)
        em.iterate();
    return em;
}

/// Rows of a PPCA with loadings well above its noise (D = 6, K columns N(0, 4), σ² = 0.5).
Matrix strongRows(int K, std::uint64_t seed) {
    Rng rng(seed);
    const FAModel truth{Vector::Zero(6), 2.0 * rng.normalMatrix(6, K), Vector::Constant(6, 0.5)};
    return test::drawRows(truth, 400, 42);
}

/// The MAP of §3.5 in closed form from the eigen-decomposition of S (ddof 0): each kept
/// direction j has c_j = w_j² + σ² = (-N + √(N² + 4 α N λ_j)) / (2α), σ² is the smaller root of
/// K α s² - [N (D - K) + 2 a₀ + 2] s + N Σ_{j>K} λ_j + 2 b₀ v̄ = 0, and W = U_K diag(c_j - σ²)^½.
/// kept is false when some c_j <= σ² (no such mode) or the quadratic has no root.
struct ClosedForm {
    PpcaModel map;
    Vector lambda; ///< S's eigenvalues, descending
    Matrix S;
    bool kept = true;
};
ClosedForm closedFormMap(const Matrix& X, int K, const PpcaPrior& p) {
    ClosedForm f;
    const double N = double(X.rows()), D = double(X.cols()), a = p.alpha;
    const Matrix centred = X.rowwise() - X.colwise().mean();
    f.S = centred.transpose() * centred / N;
    const fa::SymmetricEigen eig = fa::symmetricEigen(f.S);
    f.lambda = eig.values.reverse();
    const double vbar = f.S.trace() / D;
    const double B = N * (D - K) + 2.0 * p.shape + 2.0;
    const double C0 = N * f.lambda.tail(X.cols() - K).sum() + 2.0 * p.scale * vbar;
    const double discriminant = B * B - 4.0 * K * a * C0;
    f.kept = discriminant > 0.0;
    f.map.mu = X.colwise().mean().transpose();
    f.map.sigma2 = 2.0 * C0 / (B + std::sqrt(std::max(discriminant, 0.0)));
    f.map.W = Matrix::Zero(X.cols(), K);
    for (int j = 0; j < K; ++j) {
        const double c = (-N + std::sqrt(N * N + 4.0 * a * N * f.lambda(j))) / (2.0 * a);
        f.kept = f.kept && c > f.map.sigma2;
        f.map.W.col(j) =
            std::sqrt(std::max(c - f.map.sigma2, 0.0)) * eig.vectors.col(X.cols() - 1 - j);
    }
    return f;
}
} // namespace

class TestPpcaMap : public QObject {
    Q_OBJECT
  private slots:
    // The objective EM reports before each iteration is the dense log posterior per row, and it
    // never falls: complete rows and 15 % missing (one row with nothing observed).
    void theLogPosteriorNeverFalls() {
        const PpcaPrior prior{5.0, 1.0, 0.1};
        const Matrix complete = test::drawRows(test::makeModel(6, 2, 21), 300, 22);
        Matrix holes = withHoles(complete, 0.15, 23);
        holes.row(9).setConstant(kNaN);
        for (const Matrix* X : {&complete, static_cast<const Matrix*>(&holes)}) {
            PpcaOptions o;
            o.latent = 2;
            o.missingValues = X->hasNaN();
            o.prior = prior;
            PpcaEm em(*X, o);
            const double vbar = meanObservedVariance(*X);
            QVERIFY(test::relDiff(em.meanVariance(), vbar) < 1e-12);
            const double rows = X == &holes ? 299.0 : 300.0;
            double last = -std::numeric_limits<double>::infinity();
            for (int t = 0; t < 300; ++t) {
                const PpcaModel before = em.ppca();
                const double objective = em.iterate();
                if (t % 50 == 0) // up to the constant the code leaves out as well
                    QVERIFY(test::relDiff(objective, logPosterior(before, *X, prior, vbar) / rows) <
                            1e-11);
                QVERIFY2(objective >= last - 1e-12, qPrintable(QString::number(objective - last)));
                last = objective;
            }
            QCOMPARE(em.status(), FitStatus::Running);
        }
    }

    // At the converged MAP every partial derivative of the log posterior is ~0 (central
    // differences of the dense density, not the code's formulas); at the maximum-likelihood fit
    // the prior's pull makes them large. Complete rows and 10 % missing.
    void theMapIsAStationaryPointOfTheLogPosterior() {
        const PpcaPrior prior{20.0, 1.0, 0.1};
        const Matrix complete = test::drawRows(test::makeModel(5, 2, 31), 200, 32);
        const Matrix holes = withHoles(complete, 0.1, 33);
        for (const Matrix* X : {&complete, static_cast<const Matrix*>(&holes)}) {
            const double vbar = meanObservedVariance(*X);
            const PpcaEm map = fitted(*X, 2, prior, 4000);
            const PpcaEm ml = fitted(*X, 2, std::nullopt, 4000);
            const double atMap = largestGradient(map.ppca(), *X, prior, vbar);
            const double atMl = largestGradient(ml.ppca(), *X, prior, vbar);
            qInfo("largest |∂ log posterior|: %.3g at the MAP, %.3g at the ML fit", atMap, atMl);
            QVERIFY2(atMap < 1e-4, qPrintable(QString::number(atMap)));
            QVERIFY(atMl > 1.0);
        }
    }

    // The closed form (docs/maths/latent.md §3.5, closedFormMap above). A strong α (α / N =
    // 0.1) shrinks ‖W‖² to Σ_j (c_j - σ²), far below maximum likelihood's Σ_j (λ_j - σ²_ML).
    void theMapIsTheClosedFormAndShrinksTheLoadings() {
        for (const int K : {1, 2}) {
            const Matrix X = strongRows(K, 41 + K);
            const PpcaPrior prior{40.0, 1.0, 0.1};
            const ClosedForm f = closedFormMap(X, K, prior);
            QVERIFY(f.kept); // every direction keeps a loading
            const double sigma2Ml = f.lambda.tail(6 - K).mean();
            const double mlNorm = f.lambda.head(K).sum() - K * sigma2Ml;
            const double shrunk = f.map.W.squaredNorm();
            const PpcaEm map = fitted(X, K, prior, 3000);
            const PpcaEm ml = fitted(X, K, std::nullopt, 3000);
            qInfo("K = %d: ‖W‖² ML %.4f (closed form %.4f), MAP %.4f (closed form %.4f); σ² MAP "
                  "%.5f (closed form %.5f)",
                  K, ml.ppca().W.squaredNorm(), mlNorm, map.ppca().W.squaredNorm(), shrunk,
                  map.ppca().sigma2, f.map.sigma2);
            QVERIFY(test::relDiff(map.ppca().sigma2, f.map.sigma2) < 1e-8);
            QVERIFY(test::relDiff(ml.ppca().W.squaredNorm(), mlNorm) < 1e-7);
            QVERIFY(shrunk < 0.8 * mlNorm); // the prior's pull is large here
            // W only up to a rotation: compare W Wᵀ = U_K diag(c_j - σ²) U_Kᵀ.
            const Matrix expected = f.map.W * f.map.W.transpose();
            const Matrix WWt = map.ppca().W * map.ppca().W.transpose();
            QVERIFY((WWt - expected).norm() < 1e-7 * expected.norm());
            QVERIFY((map.ppca().mu - f.map.mu).norm() < 1e-10);
        }
    }

    // W = 0 is stationary for every α; with σ₀² = (N tr S + 2 b₀ v̄) / (N D + 2 a₀ + 2) (σ²'s
    // mode there) it is a local maximum once α > N (λ₁ - σ₀²) / σ₀⁴, even while the closed form's
    // mode with loadings exists: the posterior then has two modes and EM from a small random
    // start can end in the one without loadings, the lower one here (§3.5).
    void aStrongPriorCanLeaveASecondModeAtZero() {
        const Matrix X = strongRows(2, 43);
        const double N = 400.0, D = 6.0;
        const PpcaPrior prior{0.25 * N, 1.0, 0.1};
        const ClosedForm f = closedFormMap(X, 2, prior);
        QVERIFY(f.kept);
        const double vbar = f.S.trace() / D;
        const double s0 =
            (N * f.S.trace() + 2.0 * prior.scale * vbar) / (N * D + 2.0 * prior.shape + 2.0);
        const double threshold = N * (f.lambda(0) - s0) / (s0 * s0);
        const PpcaEm map = fitted(X, 2, prior, 3000);
        QVERIFY(largestGradient(f.map, X, prior, vbar) < 1e-4); // the other stationary point
        const double atZero = logPosterior(map.ppca(), X, prior, vbar),
                     atKept = logPosterior(f.map, X, prior, vbar);
        qInfo("α = %.0f, threshold N (λ₁ - σ₀²) / σ₀⁴ = %.1f; EM: ‖W‖² = %.3g, σ² = %.5f (σ₀² "
              "%.5f); log posterior there %.3f, at the mode with loadings %.3f",
              prior.alpha, threshold, map.ppca().W.squaredNorm(), map.ppca().sigma2, s0, atZero,
              atKept);
        QVERIFY(prior.alpha > threshold);
        QVERIFY(atKept > atZero); // EM ended in the lower of the two modes
        QVERIFY(map.ppca().W.squaredNorm() < 1e-12);
        QVERIFY(test::relDiff(map.ppca().sigma2, s0) < 1e-10);
    }

    void refusesABadPrior() {
        const Matrix X = test::drawRows(test::makeModel(4, 1, 51), 50, 52);
        PpcaOptions o;
        o.latent = 1;
        for (const PpcaPrior p : {PpcaPrior{-1.0, 1.0, 0.1}, PpcaPrior{1.0, 0.0, 0.1},
                                  PpcaPrior{1.0, 1.0, 0.0}, PpcaPrior{kNaN, 1.0, 0.1}}) {
            o.prior = p;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PpcaEm(X, o));
        }
    }
};

QTEST_APPLESS_MAIN(TestPpcaMap)
#include "test_ppca_map.moc"
