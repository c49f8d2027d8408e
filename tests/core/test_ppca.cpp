// PPCA against independent references: the closed form against a dense eigendecomposition of S
// and its own eigenvalue log-likelihood formula, the log-likelihood (complete and with missing
// entries) against dense Gaussian densities of the observed coordinates, EM from a random start
// reaching the closed form, missing-value EM equal to plain EM when nothing is missing, and
// monotone with 10 % of the entries missing.
#include "core/math/Rng.h"
#include "core/math/SymmetricEigen.h"
#include "core/models/Ppca.h"
#include "tests/support/DenseReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>

#include <numbers>

using namespace fa;

namespace {

/// Average over rows of the dense log N(x_O; μ_O, C_OO), C = W Wᵀ + σ² I, O the non-NaN entries.
double denseObservedLoglik(const PpcaModel& m, const Matrix& rows) {
    Matrix C = m.W * m.W.transpose();
    C.diagonal().array() += m.sigma2;
    int counted = 0;
    const double total = test::denseObservedLoglikSum(m.mu, C, rows, &counted);
    return total / counted;
}
} // namespace

class TestPpca : public QObject {
    Q_OBJECT
  private slots:
    void closedFormIsTheEigenSolution() {
        const Matrix X = test::drawRows(test::makeModel(8, 2, 1), 1000, 2);
        const PpcaModel m = ppcaClosedForm(X, 2);
        const Matrix centred = X.rowwise() - X.colwise().mean();
        const Matrix S = centred.transpose() * centred / double(X.rows());
        const fa::SymmetricEigen eig = fa::symmetricEigen(S); // ascending
        const Vector lambda = eig.values;
        const double sigma2 = lambda.head(6).mean();
        QVERIFY(test::relDiff(m.sigma2, sigma2) < 1e-12);
        Matrix expected = eig.vectors.rightCols(2) *
                          (lambda.tail(2).array() - sigma2).matrix().asDiagonal() *
                          eig.vectors.rightCols(2).transpose();
        const Matrix WWt = m.W * m.W.transpose();
        QVERIFY((WWt - expected).norm() < 1e-10 * expected.norm());
        // At the maximum: ℓ = -½[D log 2π + Σ_{j<=K} log λ_j + (D - K) log σ² + D] per row.
        const double atMax = -0.5 * (8 * std::log(2 * std::numbers::pi) +
                                     lambda.tail(2).array().log().sum() + 6 * std::log(sigma2) + 8);
        QVERIFY(test::relDiff(ppcaLoglikPerRow(m, X), atMax) < 1e-12);
        QVERIFY(test::relDiff(ppcaLoglikPerRow(m, X), denseObservedLoglik(m, X)) < 1e-12);
    }

    void emReachesTheClosedForm() {
        const Matrix X = test::drawRows(test::makeModel(8, 2, 3), 1000, 4);
        PpcaOptions o;
        o.latent = 2;
        o.seed = 5;
        PpcaEm em(X, o);
        double last = -std::numeric_limits<double>::infinity();
        for (int t = 0; t < 3000; ++t) {
            const double l = em.iterate();
            QVERIFY(l >= last - 1e-12);
            last = l;
        }
        const PpcaModel ml = ppcaClosedForm(X, 2);
        QVERIFY(std::abs(em.loglikPerRow() - ppcaLoglikPerRow(ml, X)) < 1e-10);
        QVERIFY(test::relDiff(em.ppca().sigma2, ml.sigma2) < 1e-8);
        // W itself only up to a rotation: compare W Wᵀ.
        const Matrix a = em.ppca().W * em.ppca().W.transpose(), b = ml.W * ml.W.transpose();
        QVERIFY((a - b).norm() < 1e-6 * b.norm());
    }

    void missingValueEmIsPlainEmWhenNothingIsMissing() {
        const Matrix X = test::drawRows(test::makeModel(7, 2, 6), 500, 7);
        PpcaOptions o;
        o.latent = 2;
        o.seed = 8;
        PpcaEm plain(X, o);
        o.missingValues = true;
        PpcaEm masked(X, o);
        for (int t = 0; t < 50; ++t) {
            plain.iterate();
            masked.iterate();
            QVERIFY((plain.ppca().W - masked.ppca().W).norm() < 1e-10 * plain.ppca().W.norm());
            QVERIFY(test::relDiff(masked.ppca().sigma2, plain.ppca().sigma2) < 1e-10);
            QVERIFY((masked.ppca().mu - plain.ppca().mu).norm() < 1e-10);
        }
    }

    void missingValueEmIsMonotoneAndExact() {
        // 10 % of the entries missing at random (and one row with nothing observed): the
        // observed-data log-likelihood never falls, and equals the dense one of the observed
        // coordinates at every parameter it passes through.
        Matrix X = test::drawRows(test::makeModel(6, 2, 9), 600, 10);
        Rng rng(11);
        for (Eigen::Index i = 0; i < X.rows(); ++i)
            for (Eigen::Index d = 0; d < X.cols(); ++d)
                if (rng.uniform() < 0.1)
                    X(i, d) = std::numeric_limits<double>::quiet_NaN();
        X.row(17).setConstant(std::numeric_limits<double>::quiet_NaN());
        PpcaOptions o;
        o.latent = 2;
        o.missingValues = true;
        PpcaEm em(X, o);
        double last = -std::numeric_limits<double>::infinity();
        for (int t = 0; t < 300; ++t) {
            if (t % 30 == 0)
                QVERIFY(test::relDiff(em.loglikPerRow(), denseObservedLoglik(em.ppca(), X)) <
                        1e-12);
            const double l = em.iterate();
            QVERIFY2(l >= last - 1e-12, qPrintable(QString::number(l - last)));
            last = l;
        }
        QCOMPARE(em.status(), FitStatus::Running);
    }

    void refusesWhatItCannotFit() {
        Matrix X = test::drawRows(test::makeModel(5, 1, 12), 40, 13);
        PpcaOptions o;
        o.latent = 1;
        X(3, 2) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PpcaEm(X, o)); // missing not asked for
        o.missingValues = true;
        X.col(4).setConstant(std::numeric_limits<double>::quiet_NaN());
        X(0, 4) = 1.0; // observed once: not more than K = 1 rows
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PpcaEm(X, o));
        o.latent = 5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ppcaClosedForm(X.leftCols(4), 4)); // K = D
    }
};

QTEST_APPLESS_MAIN(TestPpca)
#include "test_ppca.moc"
