// The VAE's speed at image size without changing its numbers (docs/benchmarks.md, "Images"):
// Adam's one pass against the three statements it replaces, written out here; a product split
// over two threads against the same product on one; the network's passes and a whole VAE fit
// with a batch's products on two threads against one thread, bitwise; the products in single
// precision against double.
#include "core/math/ForkJoin.h"
#include "core/math/Rng.h"
#include "core/models/Mlp.h"
#include "core/optim/Adam.h"
#include "core/vae/VaeFits.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

using namespace fa;

namespace {
/// Adam as three dense statements (Kingma and Ba 2015, Algorithm 1 with the bias corrections).
void threeStatements(Eigen::Ref<Vector> param, const Vector& grad, Eigen::Ref<Vector> m,
                     Eigen::Ref<Vector> v, double lr, long t) {
    m = 0.9 * m + (1.0 - 0.9) * grad;
    v = 0.999 * v + (1.0 - 0.999) * grad.cwiseAbs2();
    const double c1 = 1.0 - std::pow(0.9, double(t)), c2 = 1.0 - std::pow(0.999, double(t));
    param.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + 1e-8);
}

/// 784 inputs and outputs (a picture of Fashion-MNIST), tanh hidden layers.
MlpShape imageNetwork(std::vector<int> hidden) {
    MlpShape shape;
    shape.inputs = shape.outputs = 784;
    shape.hidden = std::move(hidden);
    shape.activation = Activation::Tanh;
    return shape;
}

bool same(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && (a.array() == b.array()).all();
}
} // namespace

class TestVaeSpeed : public QObject {
    Q_OBJECT
  private slots:
    void adamInOnePassEqualsTheThreeStatements() {
        Rng rng(1);
        for (const Eigen::Index n : {1, 3, 4, 7, 1001}) {
            for (const Eigen::Index offset : {0, 1, 3}) { // segments of any alignment
                Vector p1 = Vector(rng.normalMatrix(n + offset, 1)), m1 = Vector::Zero(n + offset),
                       v1 = m1;
                Vector p2 = p1, m2 = m1, v2 = v1;
                for (long t = 1; t <= 60; ++t) {
                    const Vector g = Vector(rng.normalMatrix(n, 1)) * std::exp(rng.normal());
                    threeStatements(p1.tail(n), g, m1.tail(n), v1.tail(n), 3e-3, t);
                    optimiserStep(OptimiserKind::Adam, p2.tail(n), g, {m2.tail(n), v2.tail(n)},
                                  3e-3, t);
                }
                QVERIFY2(same(p1, p2) && same(m1, m2) && same(v1, v2),
                         qPrintable(QString("n %1 offset %2: max |Δθ| %3")
                                        .arg(n)
                                        .arg(offset)
                                        .arg((p1 - p2).cwiseAbs().maxCoeff())));
            }
        }
        Vector p = Vector::Ones(3), m = Vector::Zero(3), v = m;
        optimiserStep(OptimiserKind::Sgd, p, Vector::Constant(3, 2.0), {m, v}, 0.25, 1);
        QVERIFY(same(p, Vector::Constant(3, 0.5)) && same(m, Vector::Zero(3)));
    }

    void productsSplitOverTwoThreadsEqualOneThread() {
        ForkJoin fj;
        Rng rng(2);
        for (const int h : {256, 300, 512})
            for (const int b : {100, 37}) {
                const Matrix W = rng.normalMatrix(h, 784), X = rng.normalMatrix(784, b),
                             W2 = rng.normalMatrix(784, h), R = rng.normalMatrix(784, b),
                             A = rng.normalMatrix(h, b);
                Matrix s1(h, b), s2(784, b), s3(h, b), s4(784, h), s5(h, 784);
                splitProduct(&fj, s1, W, X);
                splitProduct(&fj, s2, W2, A);
                splitProduct(&fj, s3, W2.transpose(), R);
                splitProduct(&fj, s4, R, A.transpose());
                splitProduct(&fj, s5, A, X.transpose());
                const Matrix d1 = W * X, d2 = W2 * A, d3 = W2.transpose() * R,
                             d4 = R * A.transpose(), d5 = A * X.transpose();
                QVERIFY2(same(s1, d1) && same(s2, d2) && same(s3, d3) && same(s4, d4) &&
                             same(s5, d5),
                         qPrintable(QString("H %1, b %2").arg(h).arg(b)));
            }
        // Both halves ran, each on its own rows; the helper's exception reaches the caller.
        std::vector<int> hits(200, 0);
        splitRows(&fj, 200, 1e9, [&](Eigen::Index first, Eigen::Index count) {
            for (Eigen::Index i = first; i < first + count; ++i)
                ++hits[static_cast<std::size_t>(i)];
        });
        QVERIFY(std::all_of(hits.begin(), hits.end(), [](int k) { return k == 1; }));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 fj.run([] {}, [] { throw std::runtime_error("helper"); }));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 fj.run([] { throw std::runtime_error("here"); }, [] {}));
    }

    void networkPassesOnTwoThreadsEqualOneThread() {
        const MlpShape shape = imageNetwork({256, 120});
        const Vector theta = Mlp::initialWeights(shape, 3);
        Rng rng(4);
        const Matrix X = rng.normalMatrix(784, 100), dOut = rng.normalMatrix(784, 100);
        ForkJoin fj;
        Mlp one(shape), two(shape);
        two.setForkJoin(&fj);
        const Matrix f1 = one.forward(theta, X), f2 = two.forward(theta, X);
        Vector g1(theta.size()), g2(theta.size());
        Matrix in1, in2;
        one.backward(theta, dOut, g1, &in1);
        two.backward(theta, dOut, g2, &in2);
        QVERIFY(same(f1, f2) && same(g1, g2) && same(in1, in2));
    }

    void floatProductsAreDoubleToFloatRounding() {
        const MlpShape shape = imageNetwork({256});
        const Vector theta = Mlp::initialWeights(shape, 7);
        Rng rng(8);
        const Matrix X = rng.normalMatrix(784, 100), dOut = rng.normalMatrix(784, 100);
        ForkJoin fj;
        Mlp exact(shape), single(shape), split(shape);
        single.setFloatProducts(true);
        split.setFloatProducts(true);
        split.setForkJoin(&fj);
        const Matrix f = exact.forward(theta, X), f1 = single.forward(theta, X),
                     f2 = split.forward(theta, X);
        Vector g(theta.size()), g1(theta.size()), g2(theta.size());
        exact.backward(theta, dOut, g);
        single.backward(theta, dOut, g1);
        split.backward(theta, dOut, g2);
        // Sums of 784 (or 100) float products: relative errors of order 1e-7 to 1e-6, far
        // above double's 1e-16 (so the float path ran) and far below anything a fit notices.
        const double ef = (f1 - f).norm() / f.norm(), eg = (g1 - g).norm() / g.norm();
        QVERIFY2(ef > 1e-9 && ef < 1e-5 && eg > 1e-9 && eg < 1e-5,
                 qPrintable(QString("forward %1, gradient %2").arg(ef).arg(eg)));
        QVERIFY(same(f1, f2) && same(g1, g2)); // two threads: the same float numbers
    }

    void vaeFitOnTwoThreadsEqualsOneThread() {
        Rng rng(5);
        const Matrix rows = rng.normalMatrix(300, 784).array().tanh();
        VaeOptions options;
        options.hidden = {128};
        options.seed = 6;
        auto one = makeVaeFit(VaeMethod::Vae, rows, options);
        options.batchThreads = 2;
        auto two = makeVaeFit(VaeMethod::Vae, rows, options);
        for (int e = 0; e < 2; ++e) {
            one->epoch();
            two->epoch();
        }
        QVERIFY(!one->model().theta.isApprox(
            makeVaeFit(VaeMethod::Vae, rows, options)->model().theta)); // it moved
        QVERIFY(same(one->model().theta, two->model().theta));
        QVERIFY(same(one->model().gamma, two->model().gamma));
        QVERIFY(same(one->networkEncoder()->phi, two->networkEncoder()->phi));
        options.floatProducts = true; // in single precision too
        auto floatTwo = makeVaeFit(VaeMethod::Vae, rows, options);
        options.batchThreads = 1;
        auto floatOne = makeVaeFit(VaeMethod::Vae, rows, options);
        floatOne->epoch();
        floatTwo->epoch();
        QVERIFY(same(floatOne->model().theta, floatTwo->model().theta));
        QVERIFY(same(floatOne->networkEncoder()->phi, floatTwo->networkEncoder()->phi));
    }
};

QTEST_APPLESS_MAIN(TestVaeSpeed)
#include "test_vae_speed.moc"
