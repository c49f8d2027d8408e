// Imputation (docs/maths/latent.md §3.6) against independent references: hiding takes exactly
// round(f M) observed entries and keeps their values; with nothing missing the rows come back
// exactly; with holes each filled entry is the conditional mean C_MO C_OO⁻¹ (x_O - μ_O) + μ_M
// of the fitted Gaussian, solved here with its full D x D covariance (PPCA and an FA with
// unequal ψ); and on a generated low-rank set PPCA's EM imputation reaches the RMSE the true
// model's conditional variances predict, far below the column means' (whose RMSE the true
// marginal variances predict).
#include "core/math/Rng.h"
#include "core/models/Imputation.h"
#include "core/models/Ppca.h"
#include "tests/support/DenseReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>

#include <limits>

using namespace fa;

namespace {
/// PPCA (K = 2) fitted by missing-value EM to rows with holes.
PpcaModel fittedWithHoles(const Matrix& X, int iterations) {
    PpcaOptions o;
    o.latent = 2;
    o.missingValues = true;
    PpcaEm em(X, o);
    for (int t = 0; t < iterations; ++t)
        em.iterate();
    return em.ppca();
}
} // namespace

class TestImputation : public QObject {
    Q_OBJECT
  private slots:
    void hidingTakesTheShareAndKeepsTheValues() {
        const Matrix X = test::drawRows(test::makeModel(7, 2, 1), 90, 2);
        Matrix holes = X;
        holes(4, 3) = std::numeric_limits<double>::quiet_NaN(); // already missing: not counted
        Matrix again = holes;
        const auto hidden = hideEntries(holes, 0.3, 5);
        QCOMPARE(hidden.size(), std::size_t(std::llround(0.3 * (90 * 7 - 1))));
        QCOMPARE(holes.array().isNaN().count(), Eigen::Index(hidden.size() + 1));
        for (const HiddenEntry& h : hidden) {
            QVERIFY(std::isnan(holes(h.row, h.col)));
            QCOMPARE(h.value, X(h.row, h.col));
        }
        QVERIFY(!(hidden[0].row == 4 && hidden[0].col == 3));
        const auto same = hideEntries(again, 0.3, 5); // seeded: the same entries
        QCOMPARE(same.size(), hidden.size());
        for (std::size_t i = 0; i < hidden.size(); ++i)
            QVERIFY(same[i].row == hidden[i].row && same[i].col == hidden[i].col);
        Matrix none = X;
        QVERIFY(hideEntries(none, 0.0, 5).empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, hideEntries(none, 1.0, 5));
    }

    void nothingMissingReturnsTheDataExactly() {
        const Matrix X = test::drawRows(test::makeModel(6, 2, 3), 50, 4);
        const FAModel m = test::makeModel(6, 2, 5);
        QVERIFY(imputeConditionalMean(m, X) == X);
        QVERIFY(imputeColumnMeans(X) == X);
    }

    // PPCA fitted by missing-value EM to rows with 20 % holes (and one empty row), and an FA with
    // unequal ψ: every filled entry equals the dense conditional mean; observed ones are kept.
    void holesAreTheDenseConditionalMean() {
        const FAModel truth = test::makeModel(8, 2, 6);
        Matrix X = test::drawRows(truth, 300, 7);
        (void)hideEntries(X, 0.2, 8);
        X.row(11).setConstant(std::numeric_limits<double>::quiet_NaN());
        const PpcaModel fit = fittedWithHoles(X, 50);
        for (const FAModel& m : {fit.asFa(), truth}) {
            const Matrix filled = imputeConditionalMean(m, X);
            const Matrix dense = test::denseConditionalMean(m.c, m.denseCovariance(), X);
            QVERIFY((filled - dense).norm() < 1e-10 * dense.norm());
            for (Eigen::Index i = 0; i < X.size(); ++i)
                if (!std::isnan(X.data()[i]))
                    QCOMPARE(filled.data()[i], X.data()[i]);
            QVERIFY((filled.row(11).transpose() - m.c).norm() < 1e-14); // nothing observed: c
        }
        // The column means: each filled entry is its column's observed mean.
        const Matrix means = imputeColumnMeans(X);
        for (Eigen::Index d = 0; d < X.cols(); ++d) {
            double sum = 0.0;
            int count = 0;
            for (Eigen::Index n = 0; n < X.rows(); ++n)
                if (!std::isnan(X(n, d)))
                    sum += X(n, d), ++count;
            for (Eigen::Index n = 0; n < X.rows(); ++n)
                if (std::isnan(X(n, d)))
                    QVERIFY(std::abs(means(n, d) - sum / count) < 1e-12);
        }
    }

    // A generated PPCA (D = 10, K = 2, loadings N(0, 1), σ² = 0.25, 3000 rows), 10 % of the
    // entries hidden. Whatever is
    // missing, the expected squared error of E[x_d | x_O] is the truth's conditional variance
    // C_dd - C_dO C_OO⁻¹ C_Od, and of the column mean ≈ C_dd: their means over the hidden
    // entries predict both RMSEs (within sampling error, ≈ 1.3 % here, and the fit's error).
    void emImputationBeatsTheMeansAsTheTruthPredicts() {
        Rng rng(9);
        const FAModel truth{Vector::Constant(10, 1.0), rng.normalMatrix(10, 2),
                            Vector::Constant(10, 0.25)};
        Matrix X = test::drawRows(truth, 3000, 10);
        const auto hidden = hideEntries(X, 0.1, 11);
        const PpcaModel fit = fittedWithHoles(X, 300);
        const double rmseEm = imputationRmse(imputeConditionalMean(fit.asFa(), X), hidden);
        const double rmseMean = imputationRmse(imputeColumnMeans(X), hidden);
        const Matrix C = truth.denseCovariance();
        double conditional = 0.0, marginal = 0.0;
        std::vector<Eigen::Index> obs, mis;
        for (const HiddenEntry& h : hidden) {
            test::splitObserved(X, h.row, obs, mis);
            const Matrix cov =
                test::submatrix(C, mis, mis) -
                test::submatrix(C, mis, obs) *
                    test::submatrix(C, obs, obs).ldlt().solve(test::submatrix(C, obs, mis));
            const auto at = std::find(mis.begin(), mis.end(), h.col) - mis.begin();
            conditional += cov(at, at);
            marginal += C(h.col, h.col);
        }
        const double predictedEm = std::sqrt(conditional / double(hidden.size()));
        const double predictedMean = std::sqrt(marginal / double(hidden.size()));
        qInfo("RMSE: EM %.4f (predicted %.4f), column means %.4f (predicted %.4f), %zu hidden",
              rmseEm, predictedEm, rmseMean, predictedMean, hidden.size());
        QVERIFY(std::abs(rmseEm / predictedEm - 1.0) < 0.05);
        QVERIFY(std::abs(rmseMean / predictedMean - 1.0) < 0.05);
        QVERIFY(rmseEm < 0.7 * rmseMean);
    }
};

QTEST_APPLESS_MAIN(TestImputation)
#include "test_imputation.moc"
