// Batch EM for FA against independent references: the log-likelihood against a dense Gaussian
// density, the PPCA start against a dense eigendecomposition of S, the EM staircase (ELBO equal
// to the log-likelihood after every E step, between consecutive log-likelihoods after every M
// step), the fixed point against finite differences of the dense log-likelihood, and a Heywood
// case (a column copied exactly) kept finite at the floor and named.
#include "core/latent/FaBatchEm.h"
#include "core/math/Rng.h"
#include "core/math/SymmetricEigen.h"
#include "tests/support/DenseReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>

using namespace fa;

namespace {

/// Average dense log N(x_n; mean, F Fᵀ + Ψ) over the rows.
double denseLoglik(const Matrix& rows, const Vector& mean, const Matrix& F, const Vector& psi) {
    Matrix C = F * F.transpose();
    C += psi.asDiagonal();
    double total = 0.0;
    for (Eigen::Index i = 0; i < rows.rows(); ++i)
        total += test::denseLogDensity(rows.row(i).transpose(), mean, C);
    return total / static_cast<double>(rows.rows());
}
} // namespace

class TestFaBatchEm : public QObject {
    Q_OBJECT
  private slots:
    void loglikIsTheDenseGaussianDensity() {
        const Matrix X = test::drawRows(test::makeModel(10, 3, 1), 500, 2);
        FaEmOptions o;
        o.latent = 3;
        FaBatchEm em(X, o);
        for (int t = 0; t <= 20; ++t) {
            const FAModel m = em.model();
            QVERIFY(test::relDiff(em.loglikPerRow(), denseLoglik(X, m.c, m.F, m.psi)) < 1e-12);
            em.iterate();
        }
        const Matrix heldOut = test::drawRows(test::makeModel(10, 3, 1), 200, 3);
        const FAModel m = em.model();
        QVERIFY(test::relDiff(em.loglikPerRow(heldOut), denseLoglik(heldOut, m.c, m.F, m.psi)) <
                1e-12);
    }

    void startsFromThePpcaClosedForm() {
        // W Wᵀ + σ² I with W = U_K (Λ_K - σ² I)^½, σ² the mean of the discarded eigenvalues of
        // S: compared through the covariance, which does not depend on W's rotation or signs.
        const Matrix X = test::drawRows(test::makeModel(8, 2, 4), 400, 5);
        FaEmOptions o;
        o.latent = 2;
        const FaBatchEm em(X, o);
        const Matrix centred = X.rowwise() - X.colwise().mean();
        const Matrix S = centred.transpose() * centred / static_cast<double>(X.rows());
        const fa::SymmetricEigen eig = fa::symmetricEigen(S); // ascending
        const double sigma2 = eig.values.head(6).mean();
        const Matrix U = eig.vectors.rightCols(2);
        const Vector lambda = eig.values.tail(2);
        Matrix expected = U * (lambda.array() - sigma2).matrix().asDiagonal() * U.transpose();
        expected.diagonal().array() += sigma2;
        const FAModel m = em.model();
        QVERIFY((m.denseCovariance() - expected).norm() < 1e-10 * expected.norm());
        QVERIFY(((m.psi.array() - sigma2).abs() < 1e-12 * sigma2).all());
        QVERIFY((m.c - X.colwise().mean().transpose()).norm() < 1e-14);
    }

    void theEmStaircaseHolds() {
        // After every E step the bound touches (ELBO(q_t, Θ_t) = ℓ(Θ_t)); after every M step
        // ℓ(Θ_t) <= ELBO(q_t, Θ_{t+1}) <= ℓ(Θ_{t+1}); so ℓ never falls. 300 iterations, K = 3.
        const Matrix X = test::drawRows(test::makeModel(12, 3, 6, 20.0), 1000, 7);
        FaEmOptions o;
        o.latent = 3;
        FaBatchEm em(X, o);
        FaEmStep previous = em.iterate();
        for (int t = 1; t < 300; ++t) {
            const FaEmStep step = em.iterate();
            QVERIFY2(std::abs(step.elboAfterE - step.loglik) < 1e-10,
                     qPrintable(QString::number(step.elboAfterE - step.loglik)));
            QVERIFY(previous.loglik <= previous.elboAfterM + 1e-12);
            QVERIFY(previous.elboAfterM <= step.loglik + 1e-12);
            previous = step;
        }
        QVERIFY(em.heywood().empty());
        QCOMPARE(em.status(), FitStatus::Running);
    }

    void theFixedPointIsStationary() {
        // At convergence the dense log-likelihood's derivatives in every ψ_d and in F vanish
        // (central differences, step 1e-6 relative): the M step finds the maximum, not merely a
        // rise. Scale: the derivatives at the start are of order 1e-2.
        const Matrix X = test::drawRows(test::makeModel(6, 2, 8), 2000, 9);
        FaEmOptions o;
        o.latent = 2;
        o.tolerance = 1e-15;
        FaBatchEm em(X, o);
        for (int t = 0; t < 5000 && !em.converged(); ++t)
            em.iterate();
        const FAModel m = em.model();
        for (Eigen::Index d = 0; d < 6; ++d) {
            const double h = 1e-6 * m.psi(d);
            Vector up = m.psi, down = m.psi;
            up(d) += h;
            down(d) -= h;
            const double g =
                (denseLoglik(X, m.c, m.F, up) - denseLoglik(X, m.c, m.F, down)) / (2 * h);
            QVERIFY2(std::abs(g) * m.psi(d) < 1e-6, qPrintable(QString::number(g)));
        }
        for (Eigen::Index d = 0; d < 6; ++d)
            for (Eigen::Index k = 0; k < 2; ++k) {
                const double h = 1e-6;
                Matrix up = m.F, down = m.F;
                up(d, k) += h;
                down(d, k) -= h;
                const double g =
                    (denseLoglik(X, m.c, up, m.psi) - denseLoglik(X, m.c, down, m.psi)) / (2 * h);
                QVERIFY2(std::abs(g) < 1e-6, qPrintable(QString::number(g)));
            }
    }

    // MAP EM with either prior of the slides: the log posterior per row never falls, and at
    // convergence its derivatives (dense log-likelihood plus the prior, written out here from
    // docs/maths/latent.md §1.7) vanish in every ψ_d and F entry.
    void mapEmFindsTheStationaryPointOfTheLogPosterior() {
        const Matrix X = test::drawRows(test::makeModel(6, 2, 14), 300, 15);
        const Vector v = (X.rowwise() - X.colwise().mean()).colwise().squaredNorm().transpose() /
                         double(X.rows());
        for (const FaPrior prior : {FaPrior::Jeffreys, FaPrior::Conjugate}) {
            FaEmOptions o;
            o.latent = 2;
            o.prior = prior;
            o.tolerance = 1e-15;
            o.nu0 = 2.0, o.tau0 = 0.3, o.lambda0 = 5.0; // strong enough to matter at N = 300
            FaBatchEm em(X, o);
            double last = -INFINITY;
            for (int t = 0; t < 20000 && !em.converged(); ++t) {
                const FaEmStep step = em.iterate();
                QVERIFY(step.logPosterior >= last - 1e-13);
                last = step.logPosterior;
            }
            const FAModel m = em.model();
            auto logPost = [&](const Matrix& F, const Vector& psi) {
                double prior = 0.0;
                for (Eigen::Index d = 0; d < 6; ++d)
                    prior +=
                        o.prior == FaPrior::Jeffreys
                            ? -std::log(psi(d))
                            : -(o.nu0 / 2 + 1 + 1.0) * std::log(psi(d)) -
                                  (o.nu0 * o.tau0 * v(d) + o.lambda0 * F.row(d).squaredNorm()) /
                                      (2 * psi(d));
                return denseLoglik(X, m.c, F, psi) + prior / double(X.rows());
            };
            QVERIFY(std::abs(logPost(m.F, m.psi) - em.loglikPerRow() - em.logPriorPerRow()) <
                    1e-10);
            for (Eigen::Index d = 0; d < 6; ++d) {
                const double h = 1e-6 * m.psi(d);
                Vector up = m.psi, down = m.psi;
                up(d) += h;
                down(d) -= h;
                const double g = (logPost(m.F, up) - logPost(m.F, down)) / (2 * h);
                QVERIFY2(std::abs(g) * m.psi(d) < 1e-6, qPrintable(QString::number(g)));
                for (Eigen::Index k = 0; k < 2; ++k) {
                    Matrix Fu = m.F, Fd = m.F;
                    Fu(d, k) += 1e-6;
                    Fd(d, k) -= 1e-6;
                    const double gf = (logPost(Fu, m.psi) - logPost(Fd, m.psi)) / 2e-6;
                    QVERIFY2(std::abs(gf) < 1e-6, qPrintable(QString::number(gf)));
                }
            }
        }
    }

    // Canonical loadings: F Fᵀ unchanged, FᵀΨ⁻¹F diagonal and decreasing, each column's
    // largest entry positive, and every rotation of F gives the same canonical F.
    void canonicalLoadingsAreRotationFree() {
        const FAModel m = test::makeModel(7, 3, 16);
        const Matrix canonical = canonicalLoadings(m.F, m.psi);
        QVERIFY((canonical * canonical.transpose() - m.F * m.F.transpose()).norm() < 1e-12);
        const Matrix inner = canonical.transpose() * m.psi.cwiseInverse().asDiagonal() * canonical;
        QVERIFY((inner - Matrix(inner.diagonal().asDiagonal())).norm() < 1e-10 * inner.norm());
        QVERIFY(inner(0, 0) >= inner(1, 1) && inner(1, 1) >= inner(2, 2));
        for (Eigen::Index j = 0; j < 3; ++j) {
            Eigen::Index i = 0;
            canonical.col(j).cwiseAbs().maxCoeff(&i);
            QVERIFY(canonical(i, j) > 0.0);
        }
        Rng r(17);
        const Eigen::HouseholderQR<Matrix> qr(r.normalMatrix(3, 3));
        const Matrix R = qr.householderQ();
        QVERIFY((canonicalLoadings(m.F * R, m.psi) - canonical).norm() < 1e-10);
    }

    void aHeywoodCaseStaysFiniteAndIsNamed() {
        // Column 4 is an exact copy of column 1: its ψ is driven to 0. It stops at the floor
        // (1e-6 of its variance), ℓ stays finite and never falls, nothing is NaN, and the
        // coordinate is named.
        Matrix X = test::drawRows(test::makeModel(5, 2, 10), 600, 11);
        X.col(3) = X.col(0);
        FaEmOptions o;
        o.latent = 2;
        FaBatchEm em(X, o);
        // Monotonicity is checked on the dense log-likelihood (Cholesky of C); the engine's
        // value (its residual form, which avoids the 1/ψ_d-sized cancellation of the subtracted
        // form: docs/maths/latent.md §1.4, §1.6) must agree with it within the bound below.
        double last = -std::numeric_limits<double>::infinity();
        for (int t = 0; t < 2000; ++t) {
            const FaEmStep step = em.iterate();
            QVERIFY(std::isfinite(step.loglik) && std::isfinite(step.elboAfterM));
            if (t % 50 != 49)
                continue;
            const FAModel now = em.model();
            const double dense = denseLoglik(X, now.c, now.F, now.psi);
            QVERIFY2(
                dense >= last - 1e-11,
                qPrintable(
                    QString("t=%1 %2 -> %3").arg(t).arg(last, 0, 'g', 17).arg(dense, 0, 'g', 17)));
            // The engine's rounding still grows with the condition number of C, about
            // κ = max_d S_dd / ψ_d (10⁶ at the floor): a few ulps of each 1/ψ_d-sized term, so
            // 16 ε κ (1 + |ℓ|). Tighter constants were crossed by one host's rounding (1.09e-10).
            const double kappa = (em.columnVariances().array() / now.psi.array()).maxCoeff();
            const double tol =
                16 * std::numeric_limits<double>::epsilon() * kappa * (1 + std::abs(dense));
            QVERIFY2(std::abs(em.loglikPerRow() - dense) < tol,
                     qPrintable(QString("%1 > %2").arg(em.loglikPerRow() - dense).arg(tol)));
            last = dense;
        }
        const FAModel m = em.model();
        QVERIFY(m.F.allFinite() && m.psi.allFinite());
        const auto named = em.heywood();
        QVERIFY(std::find(named.begin(), named.end(), Eigen::Index{3}) != named.end());
        QVERIFY(m.psi(3) < 1e-3 * em.columnVariances()(3));
        QVERIFY(m.psi(3) >= 1e-6 * em.columnVariances()(3) * (1 - 1e-12));
    }

    void refusesWhatItCannotFit() {
        const Matrix X = test::drawRows(test::makeModel(4, 1, 12), 50, 13);
        FaEmOptions o;
        o.latent = 4;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FaBatchEm(X, o)); // K = D
        o.latent = 1;
        Matrix constant = X;
        constant.col(2).setConstant(3.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FaBatchEm(constant, o));
        Matrix bad = X;
        bad(7, 1) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FaBatchEm(bad, o));
    }
};

QTEST_APPLESS_MAIN(TestFaBatchEm)
#include "test_fa_batch_em.moc"
