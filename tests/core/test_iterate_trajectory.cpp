// The trajectory plane of the neural lab (core/neural/IterateTrajectory.h) against dense
// references: the leading directions against the eigenvectors of the D x D matrix F F^T, the
// projected covariances against U^T C U with C formed densely, SWAG's from its definition
// recomputed here from the same iterates, the kept iterates against the documented thinning
// rule, and their coordinates against U^T (theta - c).
#include "core/math/SymmetricEigen.h"
#include "core/neural/IterateTrajectory.h"

#include <Eigen/Eigenvalues>
#include <QtTest>
#include <cmath>
#include <random>
#include <vector>

using namespace fa;

namespace {

Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<double> n;
    Matrix m(rows, cols);
    for (Eigen::Index j = 0; j < cols; ++j)
        for (Eigen::Index i = 0; i < rows; ++i)
            m(i, j) = n(gen);
    return m;
}

FAModel randomModel(Eigen::Index d, Eigen::Index k, unsigned seed) {
    FAModel q;
    q.c = randomMatrix(d, 1, seed).col(0);
    q.F = randomMatrix(d, k, seed + 1);
    q.psi = randomMatrix(d, 1, seed + 2).col(0).cwiseAbs().array() + 0.1;
    return q;
}

Matrix denseCovariance(const FAModel& q) {
    return q.F * q.F.transpose() + Matrix(q.psi.asDiagonal());
}

} // namespace

class TestIterateTrajectory : public QObject {
    Q_OBJECT
  private slots:
    // U's columns are the eigenvectors of the dense F F^T with the two largest eigenvalues
    // (up to sign), orthonormal, each with its largest-magnitude entry positive.
    void directionsAreTheLeadingEigenvectorsOfFFt() {
        const FAModel q = randomModel(12, 4, 7);
        const Matrix U = leadingDirections(q);
        const fa::SymmetricEigen eig = fa::symmetricEigen(q.F * q.F.transpose());
        for (int j = 0; j < 2; ++j) {
            const Vector reference = eig.vectors.col(11 - j);
            QVERIFY2(std::abs(std::abs(U.col(j).dot(reference)) - 1.0) < 1e-10,
                     std::to_string(j).c_str());
            Eigen::Index big = 0;
            U.col(j).cwiseAbs().maxCoeff(&big);
            QVERIFY(U(big, j) > 0);
        }
        QVERIFY((U.transpose() * U - Eigen::Matrix2d::Identity()).norm() < 1e-12);
    }

    // One factor: the second direction is the coordinate of largest psi with its part along
    // the first removed, normalised; no factor at all: the two coordinates of largest psi.
    void tooFewFactorsFallBackOnPsi() {
        FAModel q = randomModel(6, 1, 3);
        q.psi << 0.1, 0.2, 5.0, 0.3, 0.4, 0.5;
        const Matrix U = leadingDirections(q);
        const Vector u1 = q.F.col(0).normalized();
        QVERIFY(std::abs(std::abs(U.col(0).dot(u1)) - 1.0) < 1e-12);
        Vector e = Vector::Unit(6, 2);
        e -= u1.dot(e) * u1;
        QVERIFY(std::abs(std::abs(U.col(1).dot(e.normalized())) - 1.0) < 1e-12);
        q.F.resize(6, 0);
        const Matrix V = leadingDirections(q);
        QCOMPARE(V.col(0), Vector(Vector::Unit(6, 2)));
        QCOMPARE(V.col(1), Vector(Vector::Unit(6, 5)));
        q.c.resize(1), q.psi.resize(1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, leadingDirections(q));
    }

    // The plane's two covariances against U^T C U with C formed densely; SWAG's C recomputed
    // from its definition (Maddox et al. 2019): mean and diagonal second moment over all the
    // iterates, the last K deviations theta_t minus the running mean after theta_t,
    // C = 1/2 diag(mean of theta^2 - mean^2) + 1/2 D D^T / (K - 1).
    void projectedCovariancesMatchDenseOnes() {
        const Eigen::Index d = 9;
        const int rank = 3;
        IterateTrajectory t(d, rank, 100);
        const Matrix thetas = randomMatrix(d, 40, 11);
        Vector mean = Vector::Zero(d), sq = Vector::Zero(d);
        std::vector<Vector> deviations;
        for (Eigen::Index i = 0; i < thetas.cols(); ++i) {
            t.observe(thetas.col(i));
            const double n = static_cast<double>(i + 1);
            mean = mean * ((n - 1) / n) + thetas.col(i) / n;
            sq = sq * ((n - 1) / n) + thetas.col(i).cwiseAbs2() / n;
            deviations.push_back(thetas.col(i) - mean);
        }
        Matrix dev(d, rank);
        for (int k = 0; k < rank; ++k)
            dev.col(k) = deviations[deviations.size() - 1 - static_cast<std::size_t>(k)];
        const Matrix swagC = 0.5 * Matrix((sq - mean.cwiseAbs2()).asDiagonal()) +
                             0.5 * dev * dev.transpose() / (rank - 1);
        const FAModel q = randomModel(d, 2, 21);
        const TrajectoryPlane p = t.plane(q);
        const Matrix& U = p.directions;
        QVERIFY((p.fit - U.transpose() * denseCovariance(q) * U).norm() < 1e-10);
        QVERIFY((p.swag - U.transpose() * swagC * U).norm() < 1e-10);
        QVERIFY((p.swagMean - U.transpose() * (mean - q.c)).norm() < 1e-10);
        QCOMPARE(p.collected, 40L);
        QCOMPARE(p.points.rows(), Eigen::Index(40)); // below the capacity: all kept
        for (Eigen::Index i = 0; i < 40; ++i)
            QVERIFY((p.points.row(i).transpose() - U.transpose() * (thetas.col(i) - q.c)).norm() <
                    1e-12);
    }

    // Capacity 4: iterates 0..3 are kept; at 4 the record halves (0, 2) and the stride
    // doubles; ...; after 11 iterates the kept ones are 0, 4, 8 at stride 4, after 13 also 12.
    void thinningKeepsEvenlySpreadIterates() {
        IterateTrajectory t(2, 1, 4);
        for (int i = 0; i < 11; ++i)
            t.observe(Eigen::Vector2d(i, -i));
        QCOMPARE(t.stride(), 4L);
        QCOMPARE(t.kept().cols(), Eigen::Index(3));
        for (int j = 0; j < 3; ++j)
            QCOMPARE(t.kept()(0, j), 4.0 * j);
        t.observe(Eigen::Vector2d(11, -11));
        t.observe(Eigen::Vector2d(12, -12));
        QCOMPARE(t.kept().cols(), Eigen::Index(4));
        QCOMPARE(t.kept()(0, 3), 12.0);
        QCOMPARE(t.collected(), 13L);
        QCOMPARE(IterateTrajectory::defaultCapacity(151), 400);
        QCOMPARE(IterateTrajectory::defaultCapacity(100'000), 40);
        QCOMPARE(IterateTrajectory::defaultCapacity(10'000'000), 8);
    }
};

QTEST_APPLESS_MAIN(TestIterateTrajectory)
#include "test_iterate_trajectory.moc"
