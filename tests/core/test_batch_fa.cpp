// Batch FA (scikit-learn's SVD iteration): monotone likelihood, the reported likelihood against
// a dense evaluation, recovery of the generating covariance, randomized against exact SVD.
#include "core/fa/BatchFA.h"
#include "core/fa/ModelGenerator.h"
#include "core/math/SymmetricEigen.h"
#include "core/math/TruncatedSvd.h"
#include "core/metrics/DenseMetrics.h"
#include "tests/support/DenseReference.h"
#include "tests/support/TestModels.h"

#include <QtTest>
#include <atomic>

using namespace fa;

namespace {
Matrix samples(const FAModel& m, int n, std::uint64_t seed) {
    return test::drawSamples(m, n, seed);
}
FAModel model(int D, int K, std::uint64_t seed) {
    return test::makeModel(D, K, seed);
}
} // namespace

class TestBatchFA : public QObject {
    Q_OBJECT
  private slots:
    void likelihoodNeverDecreases() {
        const Matrix X = samples(model(15, 3, 1), 400, 2);
        BatchFAOptions o;
        o.latent = 3;
        o.svd = SvdMethod::Exact;
        o.tol = 1e-10; // run many iterations to exercise monotonicity
        o.maxIter = 300;
        const BatchFAResult r = fitBatchFA(X, o);
        QVERIFY(r.logLikelihood.size() > 5);
        for (std::size_t i = 1; i < r.logLikelihood.size(); ++i)
            QVERIFY2(r.logLikelihood[i] >=
                         r.logLikelihood[i - 1] - 1e-9 * std::abs(r.logLikelihood[i - 1]),
                     qPrintable(QString("iteration %1: %2 < %3")
                                    .arg(i)
                                    .arg(r.logLikelihood[i])
                                    .arg(r.logLikelihood[i - 1])));
    }
    void exactFitThroughTheGramMatrixIsTheSvdIteration() {
        // With N >= D the exact fit works on Psi^-1/2 S Psi^-1/2 (D x D); here scikit-learn's
        // iteration written out with an SVD of the scaled D x N data, step for step.
        const Matrix X = samples(model(14, 3, 7), 300, 8);
        BatchFAOptions o;
        o.latent = 3;
        o.svd = SvdMethod::Exact;
        o.tol = -1.0; // never stop early: exactly maxIter iterations
        o.maxIter = 25;
        const BatchFAResult r = fitBatchFA(X, o);
        QCOMPARE(r.iterations, 25);
        const Eigen::Index D = X.rows();
        const double N = static_cast<double>(X.cols());
        const Matrix C = X.colwise() - X.rowwise().mean();
        const Vector var = C.rowwise().squaredNorm() / N;
        Vector psi = Vector::Ones(D);
        Matrix F;
        for (int it = 0; it < 25; ++it) {
            const Vector sq = psi.array().sqrt() + 1e-12;
            const Matrix scaled = (C.array().colwise() / (sq.array() * std::sqrt(N))).matrix();
            const Eigen::JacobiSVD<Matrix> svd(scaled, Eigen::ComputeThinU);
            const Vector s2 = svd.singularValues().head(3).array().square();
            F = svd.matrixU().leftCols(3) *
                (s2.array() - 1.0).max(0.0).sqrt().matrix().asDiagonal();
            F.array().colwise() *= sq.array();
            psi = (var - F.rowwise().squaredNorm()).cwiseMax(o.psiFloor); // also after the last
        }
        const Matrix ours = r.model.F * r.model.F.transpose(), ref = F * F.transpose();
        QVERIFY2((ours - ref).norm() < 1e-9 * ref.norm(),
                 qPrintable(QString::number((ours - ref).norm() / ref.norm())));
        QVERIFY((r.model.psi - psi).norm() < 1e-9 * psi.norm());
    }
    void reportedLikelihoodIsTheModelsLikelihood() {
        const Matrix X = samples(model(12, 2, 3), 500, 4);
        BatchFAOptions o;
        o.latent = 2;
        o.svd = SvdMethod::Exact;
        const BatchFAResult r = fitBatchFA(X, o);
        QVERIFY(r.converged);
        // The final iteration's log-likelihood belongs to the returned (F, psi) with the sample
        // mean.
        double dense = 0.0;
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            dense += test::denseLogDensity(X.col(j), r.model);
        QVERIFY2(test::relDiff(r.logLikelihood.back(), dense) < 1e-9,
                 qPrintable(QString("%1 vs %2").arg(r.logLikelihood.back()).arg(dense)));
    }
    void recoversGeneratingCovariance() {
        const FAModel truth = model(20, 3, 5);
        const Matrix X = samples(truth, 50000, 6);
        BatchFAOptions o;
        o.latent = 3;
        const BatchFAResult r = fitBatchFA(X, o);
        const double dist =
            relativeCovarianceDistance(r.model.denseCovariance(), truth.denseCovariance());
        QVERIFY2(dist < 0.03, qPrintable(QString("relative covariance distance %1").arg(dist)));
    }
    void randomizedSvdMatchesExactOnLowRankPlusNoise() {
        Rng r(7);
        const Matrix X =
            r.normalMatrix(80, 5) * r.normalMatrix(5, 300) * 3.0 + 0.01 * r.normalMatrix(80, 300);
        const TruncatedSvd exact = exactSvd(X, 5);
        Rng r2(8);
        const TruncatedSvd rand = randomizedSvd(X, 5, 3, 10, r2);
        QVERIFY((exact.s - rand.s).norm() < 1e-8 * exact.s.norm());
        // Same subspace: projector difference.
        const Matrix P1 = exact.U * exact.U.transpose(), P2 = rand.U * rand.U.transpose();
        QVERIFY((P1 - P2).norm() < 1e-6);
        // Singular values against the symmetric eigen-solver of X X^T (another route).
        const fa::SymmetricEigen eig = fa::symmetricEigen(X * X.transpose());
        QVERIFY(std::abs(exact.s[0] - std::sqrt(eig.values.maxCoeff())) < 1e-9 * exact.s[0]);
    }
    void symmetricEigenSatisfiesItsDefinition() {
        Rng r(4);
        const Matrix A = r.normalMatrix(9, 9);
        const Matrix S = A * A.transpose() - 3.0 * Matrix::Identity(9, 9); // some negative values
        const SymmetricEigen eig = symmetricEigen(S);
        QVERIFY((S * eig.vectors - eig.vectors * eig.values.asDiagonal()).norm() <
                1e-12 * S.norm());
        QVERIFY((eig.vectors.transpose() * eig.vectors - Matrix::Identity(9, 9)).norm() < 1e-12);
        for (int i = 1; i < 9; ++i)
            QVERIFY(eig.values(i - 1) <= eig.values(i));
        QVERIFY(std::abs(eig.values.sum() - S.trace()) < 1e-12 * S.norm());
        const SymmetricEigen valuesOnly = symmetricEigen(S, false);
        QCOMPARE(valuesOnly.vectors.size(), Eigen::Index{0});
        QVERIFY((valuesOnly.values - eig.values).norm() < 1e-12 * S.norm());
        Matrix upperJunk = S; // only the lower triangle is read
        upperJunk.triangularView<Eigen::StrictlyUpper>().setConstant(1e6);
        QVERIFY((symmetricEigen(upperJunk, false).values - eig.values).norm() < 1e-12 * S.norm());
    }
    void principalAxesAreTheRightSingularVectorsTallAndWide() {
        Rng r(9);
        for (const auto& [rows, cols] : {std::pair{300, 40}, std::pair{40, 300}}) {
            const Matrix X = r.normalMatrix(rows, 4) * r.normalMatrix(4, cols) * 2.0 +
                             0.05 * r.normalMatrix(rows, cols);
            const Eigen::JacobiSVD<Matrix> svd(X, Eigen::ComputeThinV); // an independent route
            const PrincipalAxes axes = principalAxes(X, 4);
            QCOMPARE(axes.V.rows(), Eigen::Index{cols});
            QVERIFY((axes.s - svd.singularValues().head(4)).norm() < 1e-10 * axes.s.norm());
            for (int j = 0; j < 4; ++j) { // each axis up to its sign, which is fixed positive
                const Vector v = svd.matrixV().col(j);
                QVERIFY(std::abs(std::abs(v.dot(axes.V.col(j))) - 1.0) < 1e-9);
                Eigen::Index at = 0;
                axes.V.col(j).cwiseAbs().maxCoeff(&at);
                QVERIFY(axes.V(at, j) > 0.0);
            }
        }
        // Asking for more axes than the rank allows returns min(k, N, D) of them.
        QCOMPARE(principalAxes(r.normalMatrix(3, 10), 5).s.size(), Eigen::Index{3});
    }
    void cancelStopsTheSvdAndALoweredFlagChangesNothing() {
        Rng r(11);
        const Matrix X = r.normalMatrix(40, 200);
        std::atomic<bool> flag{false};
        Rng a(3), b(3);
        const TruncatedSvd plain = randomizedSvd(X, 4, 7, 10, a);
        const TruncatedSvd polled = randomizedSvd(X, 4, 7, 10, b, &flag);
        QVERIFY(plain.s == polled.s && plain.U == polled.U); // bit for bit
        flag = true;
        const TruncatedSvd stopped = randomizedSvd(X, 4, 7, 10, b, &flag);
        QCOMPARE(stopped.U.cols(), Eigen::Index{0});

        BatchFAOptions o;
        o.latent = 3;
        o.cancel = &flag;
        const BatchFAResult cancelled = fitBatchFA(X, o);
        QVERIFY(cancelled.cancelled);
        QCOMPARE(cancelled.iterations, 0);
        QVERIFY(BatchFit(X, o).status() == FitStatus::Failed);
        flag = false;
        QVERIFY(BatchFit(X, o).status() == FitStatus::Running);
    }
    void refusesTooFewSamples() {
        BatchFAOptions o;
        o.latent = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitBatchFA(Matrix::Ones(5, 1), o));
        o.latent = 5;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitBatchFA(Matrix::Ones(5, 10), o));
    }
};

QTEST_APPLESS_MAIN(TestBatchFA)
#include "test_batch_fa.moc"
