// MAP by mini-batch SGD over a Likelihood (core/vi/MapSgd.h). A network without a hidden layer is
// linear regression with a bias, whose MAP under the prior N(0, I / alpha) has the closed form
// theta* = (beta Z^T Z + alpha I)^-1 beta Z^T y, Z = [X, 1]: full-batch steps reach it. Also: the
// same seed gives the same iterates, the linear network's trajectory is the linear-Gaussian
// likelihood's, an abandoned pass takes no step, and bad options are refused.
#include "core/math/Rng.h"
#include "core/neural/MlpLikelihood.h"
#include "core/vi/MapSgd.h"

#include <QtTest>
#include <atomic>

using namespace fa;

namespace {

struct Problem {
    Matrix X;
    Vector y;
};

Problem linearProblem(std::uint64_t seed) {
    Rng rng(seed);
    Problem p{Matrix(60, 2), Vector(60)};
    rng.fillNormal(Eigen::Map<Vector>(p.X.data(), p.X.size()));
    for (Eigen::Index i = 0; i < 60; ++i)
        p.y(i) = 1.5 * p.X(i, 0) - 0.5 * p.X(i, 1) + 0.3 + 0.2 * rng.normal();
    return p;
}

MlpShape linearShape() {
    MlpShape shape;
    shape.inputs = 2;
    shape.hidden = {};
    return shape;
}

} // namespace

class TestMapSgd : public QObject {
    Q_OBJECT
  private slots:
    void fullBatchStepsReachTheClosedFormMap() {
        const Problem p = linearProblem(1);
        const double beta = 4.0, alpha = 3.0;
        const MlpLikelihood net(p.X, p.y, linearShape(), beta);
        MapSgdOptions o;
        o.batch = 60;
        o.learningRate = 0.1;
        o.priorPrecision = alpha;
        MapSgd sgd(net, Vector::Zero(3), o);
        for (int e = 0; e < 3000; ++e)
            sgd.runEpoch();
        Matrix Z(60, 3);
        Z << p.X, Vector::Ones(60);
        const Matrix A = beta * Z.transpose() * Z + alpha * Matrix::Identity(3, 3);
        const Vector map = A.ldlt().solve(beta * Z.transpose() * p.y);
        QVERIFY2((sgd.theta() - map).norm() < 1e-10 * map.norm(),
                 qPrintable(QString("%1").arg((sgd.theta() - map).norm())));
    }

    void theLinearNetworkFollowsTheLinearLikelihood() {
        // The same data through the network without a hidden layer and through the linear-
        // Gaussian likelihood with a column of ones: the same mini-batches, the same iterates
        // (to rounding).
        const Problem p = linearProblem(2);
        const MlpLikelihood net(p.X, p.y, linearShape(), 2.0);
        Matrix Z(60, 3);
        Z << p.X, Vector::Ones(60);
        const LinearGaussianLikelihood lin(Z, p.y, 2.0);
        MapSgdOptions o;
        o.batch = 8;
        o.seed = 5;
        MapSgd a(net, Vector::Constant(3, 0.1), o), b(lin, Vector::Constant(3, 0.1), o);
        std::vector<Vector> ta, tb;
        for (int e = 0; e < 5; ++e) {
            a.runEpoch([&](const Vector& t) { ta.push_back(t); });
            b.runEpoch([&](const Vector& t) { tb.push_back(t); });
        }
        QCOMPARE(ta.size(), std::size_t(5 * 7)); // 60 rows: 7 full batches of 8 an epoch
        QCOMPARE(ta.size(), tb.size());
        for (std::size_t k = 0; k < ta.size(); ++k)
            QVERIFY((ta[k] - tb[k]).norm() < 1e-12);
    }

    void theSeedFixesTheIterates() {
        const Problem p = linearProblem(3);
        const MlpLikelihood net(p.X, p.y, linearShape(), 1.0);
        MapSgdOptions o;
        o.batch = 10;
        o.seed = 7;
        MapSgd a(net, Vector::Zero(3), o), b(net, Vector::Zero(3), o);
        o.seed = 8;
        MapSgd c(net, Vector::Zero(3), o);
        a.runEpoch(), b.runEpoch(), c.runEpoch();
        QCOMPARE(a.theta(), b.theta());
        QVERIFY(a.theta() != c.theta());
    }

    void anAbandonedPassTakesNoStep() {
        const Problem p = linearProblem(4);
        const MlpLikelihood net(p.X, p.y, linearShape(), 1.0);
        MapSgd sgd(net, Vector::Zero(3), MapSgdOptions{});
        std::atomic<bool> flag{true};
        sgd.abandonOn(&flag);
        int steps = 0;
        sgd.runEpoch([&](const Vector&) { ++steps; });
        QCOMPARE(steps, 0);
        QCOMPARE(sgd.theta(), Vector(Vector::Zero(3)));
    }

    void badOptionsAreRefused() {
        const Problem p = linearProblem(5);
        const MlpLikelihood net(p.X, p.y, linearShape(), 1.0);
        MapSgdOptions o;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MapSgd(net, Vector::Zero(4), o));
        o.batch = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MapSgd(net, Vector::Zero(3), o));
        o = MapSgdOptions{};
        o.learningRate = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MapSgd(net, Vector::Zero(3), o));
        o = MapSgdOptions{};
        o.priorPrecision = -1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MapSgd(net, Vector::Zero(3), o));
    }
};

QTEST_GUILESS_MAIN(TestMapSgd)
#include "test_map_sgd.moc"
