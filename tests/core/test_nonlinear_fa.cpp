// The nonlinear-FA lab's objectives against independent references: the network's and every
// objective's gradients against central finite differences (the heteroscedastic decoder's too);
// the closed-form KL and linear-decoder ELBO against Monte Carlo; the linear log-likelihood against
// PPCA's and a dense Gaussian density; a heteroscedastic decoder with a flat log-variance head
// against the diagonal model it equals, and its importance-weighted log-likelihood against
// quadrature over a one-dimensional z.
#include "core/math/Rng.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeMetrics.h"
#include "core/vae/VaeObjectives.h"
#include "tests/support/NonlinearFaSupport.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace fa;
using namespace fa::test;

class TestNonlinearFa : public QObject {
    Q_OBJECT
  private slots:
    void mlpBackpropagationMatchesFiniteDifferences_data() {
        QTest::addColumn<int>("activation");
        QTest::addColumn<int>("layers");
        QTest::newRow("relu, two layers") << int(Activation::Relu) << 2;
        QTest::newRow("tanh, two layers") << int(Activation::Tanh) << 2;
        QTest::newRow("tanh, three layers") << int(Activation::Tanh) << 3;
        QTest::newRow("linear") << int(Activation::Tanh) << 0;
    }
    void mlpBackpropagationMatchesFiniteDifferences() {
        QFETCH(int, activation);
        QFETCH(int, layers);
        MlpShape shape;
        shape.inputs = 3;
        shape.hidden = std::vector<int>(static_cast<std::size_t>(layers), 5);
        shape.outputs = 4;
        shape.activation = static_cast<Activation>(activation);
        Rng rng(7);
        const Matrix in = rng.normalMatrix(3, 6), C = rng.normalMatrix(4, 6);
        Vector theta = Mlp::initialWeights(shape, 3);
        theta += 0.1 * rng.normalMatrix(theta.size(), 1); // non-zero biases
        Mlp net(shape);
        // J = Σ C ⊙ f(in; θ): dJ/df = C.
        net.forward(theta, in);
        Vector grad(theta.size());
        Matrix dIn;
        net.backward(theta, C, grad, &dIn);
        Mlp probe(shape);
        const Vector numTheta = numericGradient(
            [&](const Vector& t) { return probe.forward(t, in).cwiseProduct(C).sum(); }, theta);
        const Vector numIn = numericGradient(
            [&](const Vector& x) {
                return probe.forward(theta, shaped(x, 3)).cwiseProduct(C).sum();
            },
            flat(in));
        QVERIFY2(relErr(grad, numTheta) < 1e-7,
                 qPrintable(QString::number(relErr(grad, numTheta))));
        QVERIFY(relErr(flat(dIn), numIn) < 1e-7);
    }

    void elboPassGradientsMatchFiniteDifferences_data() {
        QTest::addColumn<int>("noise");
        QTest::addColumn<double>("headShift");
        QTest::newRow("diagonal Ψ") << int(NoiseKind::Diagonal) << 0.0;
        QTest::newRow("σ²I learned") << int(NoiseKind::Isotropic) << 0.0;
        QTest::newRow("σ²I fixed") << int(NoiseKind::Fixed) << 0.0;
        QTest::newRow("σ²(z) from the network") << int(NoiseKind::Network) << 0.0;
        // log σ² clamped at its ceiling (log 100 v_d): flat in the head's biases.
        QTest::newRow("σ²(z), clamped") << int(NoiseKind::Network) << 50.0;
    }
    void elboPassGradientsMatchFiniteDifferences() {
        QFETCH(int, noise);
        QFETCH(double, headShift);
        NlfaModel model = smallModel(static_cast<NoiseKind>(noise), 11);
        Rng rng(12);
        if (model.noise == NoiseKind::Network) { // the log-variance head starts flat: tilt it
            model.theta += 0.3 * rng.normalMatrix(model.theta.size(), 1);
            model.theta.tail(model.dim()).array() += headShift; // its biases
        }
        const Matrix X = rng.normalMatrix(5, 4), M = rng.normalMatrix(2, 4),
                     L = 0.5 * rng.normalMatrix(2, 4), eps = rng.normalMatrix(2, 4);
        ElboPass pass(model.shape);
        Eigen::RowVectorXd values(4);
        ElboGradient g;
        pass.run(model, X, M, L, eps, values, &g);
        auto total = [&](const NlfaModel& m, const Matrix& mean, const Matrix& logVar) {
            ElboPass p(m.shape);
            Eigen::RowVectorXd v(4);
            p.run(m, X, mean, logVar, eps, v, nullptr);
            return v.sum();
        };
        const Vector dTheta = numericGradient(
            [&](const Vector& t) {
                NlfaModel m = model;
                m.theta = t;
                return total(m, M, L);
            },
            model.theta);
        // (clamped, σ² = 100 v_d: small gradients, so the differences' rounding shows at 1e-7)
        QVERIFY(relErr(g.theta, dTheta) < (headShift > 0.0 ? 1e-6 : 1e-7));
        if (headShift > 0.0) {
            QCOMPARE(g.theta.tail(model.dim()).norm(), 0.0);
            QVERIFY(dTheta.tail(model.dim()).norm() < 1e-9);
        }
        const Vector dM = numericGradient(
            [&](const Vector& v) { return total(model, shaped(v, 2), L); }, flat(M));
        QVERIFY(relErr(flat(g.mean), dM) < 1e-7);
        const Vector dL = numericGradient(
            [&](const Vector& v) { return total(model, M, shaped(v, 2)); }, flat(L));
        QVERIFY(relErr(flat(g.logVar), dL) < 1e-7);
        if (!model.learnsGamma()) {
            QCOMPARE(g.gamma.norm(), 0.0);
            return;
        }
        const Vector dGamma = numericGradient(
            [&](const Vector& v) {
                NlfaModel m = model;
                m.gamma = v;
                return total(m, M, L);
            },
            model.gamma);
        QVERIFY(relErr(g.gamma, dGamma) < 1e-7);
    }

    void vaeEncoderGradientMatchesFiniteDifferences_data() {
        QTest::addColumn<double>("logVarBias");
        QTest::addColumn<int>("noise");
        QTest::newRow("inside the clamp") << 0.0 << int(NoiseKind::Diagonal);
        // ℓ clamped at −15: no gradient through it
        QTest::newRow("below the clamp") << -30.0 << int(NoiseKind::Diagonal);
        QTest::newRow("σ²(z) from the network") << 0.0 << int(NoiseKind::Network);
    }
    void vaeEncoderGradientMatchesFiniteDifferences() {
        QFETCH(double, logVarBias);
        QFETCH(int, noise);
        NlfaModel model = smallModel(NoiseKind(noise), 21);
        if (model.noise == NoiseKind::Network) // tilt the flat log-variance head
            model.theta += 0.2 * Rng(24).normalMatrix(model.theta.size(), 1);
        MlpShape encShape;
        encShape.inputs = 5;
        encShape.hidden = {7};
        encShape.outputs = 4; // [μ; ℓ] for K = 2
        encShape.activation = Activation::Relu;
        Vector phi = 0.5 * Mlp::initialWeights(encShape, 22);
        phi.tail(2).array() += logVarBias; // the ℓ head's biases
        Rng rng(23);
        const Matrix X = rng.normalMatrix(5, 6), eps = rng.normalMatrix(2, 6);
        Mlp encoder(encShape);
        ElboPass pass(model.shape);
        ElboGradient g;
        Vector gPhi;
        vaeBatchElbo(encoder, pass, model, phi, X, eps, &g, &gPhi);
        const Vector numPhi = numericGradient(
            [&](const Vector& p) {
                Mlp e(encShape);
                ElboPass q(model.shape);
                return vaeBatchElbo(e, q, model, p, X, eps, nullptr, nullptr);
            },
            phi);
        QVERIFY2(relErr(gPhi, numPhi) < 1e-6, qPrintable(QString::number(relErr(gPhi, numPhi))));
        if (logVarBias < 0.0) { // the clamp acts on every row: flat in the ℓ head's biases
            QCOMPARE(gPhi.tail(2).norm(), 0.0);
            QVERIFY(numPhi.tail(2).norm() < 1e-9);
        }
    }

    void linearVaeGradientsMatchFiniteDifferences_data() {
        QTest::addColumn<int>("noise");
        QTest::newRow("σ²I learned") << int(NoiseKind::Isotropic);
        QTest::newRow("diagonal Ψ") << int(NoiseKind::Diagonal);
    }
    void linearVaeGradientsMatchFiniteDifferences() {
        QFETCH(int, noise);
        Rng rng(31);
        const Matrix rows = rng.normalMatrix(30, 6);
        NlfaModel model = initialNlfaModel(2, {}, Activation::Tanh, static_cast<NoiseKind>(noise),
                                           0.1, rows.transpose(), 32);
        model.gamma.array() += 0.2;
        LinearEncoder enc{0.3 * rng.normalMatrix(2, 6), rng.normalMatrix(2, 1),
                          0.4 * rng.normalMatrix(2, 1)};
        const Matrix X = rows.topRows(8).transpose();
        LinearVaeGradient g;
        linearVaeBatchElbo(model, enc, X, &g);
        auto with = [&](auto change) {
            return [&, change](const Vector& v) {
                NlfaModel m = model;
                LinearEncoder e = enc;
                change(m, e, v);
                return linearVaeBatchElbo(m, e, X, nullptr);
            };
        };
        QVERIFY(relErr(g.theta, numericGradient(with([](NlfaModel& m, LinearEncoder&,
                                                        const Vector& v) { m.theta = v; }),
                                                model.theta)) < 1e-7);
        QVERIFY(relErr(g.gamma, numericGradient(with([](NlfaModel& m, LinearEncoder&,
                                                        const Vector& v) { m.gamma = v; }),
                                                model.gamma)) < 1e-7);
        QVERIFY(relErr(flat(g.V), numericGradient(with([](NlfaModel&, LinearEncoder& e,
                                                          const Vector& v) { e.V = shaped(v, 2); }),
                                                  flat(enc.V))) < 1e-7);
        QVERIFY(relErr(g.a, numericGradient(with([](NlfaModel&, LinearEncoder& e, const Vector& v) {
                                                e.a = v;
                                            }),
                                            enc.a)) < 1e-7);
        QVERIFY(relErr(g.logVar, numericGradient(with([](NlfaModel&, LinearEncoder& e,
                                                         const Vector& v) { e.logVar = v; }),
                                                 enc.logVar)) < 1e-7);
    }

    void klClosedFormMatchesMonteCarlo() {
        Rng rng(41);
        Vector m(3), l(3);
        m << 0.7, -1.2, 0.1;
        l << -0.5, 0.8, -2.0;
        const double closed = klToStandard(m, l)(0);
        // KL = E_q[log q(z) − log N(z; 0, I)] by 4·10⁵ draws.
        const int n = 400000;
        double sum = 0.0, sumSq = 0.0;
        for (int i = 0; i < n; ++i) {
            double v = 0.0;
            for (int k = 0; k < 3; ++k) {
                const double e = rng.normal(), z = m(k) + std::exp(0.5 * l(k)) * e;
                v += -0.5 * (l(k) + e * e) + 0.5 * z * z;
            }
            sum += v;
            sumSq += v * v;
        }
        const double mean = sum / n, se = std::sqrt((sumSq / n - mean * mean) / n);
        QVERIFY2(std::abs(mean - closed) < 4.0 * se,
                 qPrintable(QString("MC %1 ± %2, closed %3").arg(mean).arg(se).arg(closed)));
    }

    void linearElboMatchesMonteCarlo() {
        Rng rng(51);
        const Matrix rows = rng.normalMatrix(40, 5);
        NlfaModel model = initialNlfaModel(2, {}, Activation::Tanh, NoiseKind::Diagonal, 0.1,
                                           rows.transpose(), 52);
        const Matrix X = rows.topRows(3).transpose(), M = rng.normalMatrix(2, 3),
                     L = 0.5 * rng.normalMatrix(2, 3);
        const Eigen::RowVectorXd exact = linearElbo(model, X, M, L);
        ElboPass pass(model.shape);
        // 40 independent estimates of 1000 draws each: their spread gives the standard error.
        Matrix estimates(40, 3);
        for (int r = 0; r < 40; ++r)
            estimates.row(r) = elboEstimate(pass, model, X, M, L, 1000, rng);
        for (Eigen::Index n = 0; n < 3; ++n) {
            const double mean = estimates.col(n).mean();
            const double se =
                std::sqrt((estimates.col(n).array() - mean).square().sum() / 39.0 / 40.0);
            QVERIFY2(std::abs(mean - exact(n)) < 4.0 * se,
                     qPrintable(QString("MC %1 ± %2, exact %3").arg(mean).arg(se).arg(exact(n))));
        }
    }

    void linearLogLikMatchesDenseDensity() {
        const Matrix rows = ppcaRows(6, 2, 300, 61);
        const PpcaModel p = ppcaClosedForm(rows, 2);
        const NlfaModel model = decoderOf(p);
        const Eigen::RowVectorXd ll = linearLogLik(model, rows.transpose());
        QVERIFY(std::abs(ll.mean() - ppcaLoglikPerRow(p, rows)) < 1e-10);
        // Diagonal Ψ against log N(x; b, W Wᵀ + Ψ) by a dense Cholesky factor.
        NlfaModel diag = model;
        diag.noise = NoiseKind::Diagonal;
        diag.gamma = Vector::LinSpaced(6, -1.0, 0.5);
        const Matrix C = diag.W() * diag.W().transpose() +
                         Matrix(diag.gamma.array().exp().matrix().asDiagonal());
        const Eigen::LLT<Matrix> llt(C);
        const Matrix Lc = llt.matrixL();
        const double logDet = 2.0 * Lc.diagonal().array().log().sum();
        const Eigen::RowVectorXd got = linearLogLik(diag, rows.topRows(5).transpose());
        for (Eigen::Index n = 0; n < 5; ++n) {
            const Vector r = rows.row(n).transpose() - diag.b();
            const double dense =
                -0.5 * (6.0 * std::log(2.0 * std::numbers::pi) + logDet + r.dot(llt.solve(r)));
            QVERIFY(std::abs(got(n) - dense) < 1e-10);
        }
    }

    // A log-variance head with zero weights and biases γ is the diagonal model with Ψ = e^γ:
    // the same log-likelihoods, ELBOs, q-gradients and importance-weighted estimate.
    void aFlatLogVarianceHeadIsTheDiagonalModel() {
        const NlfaModel diag = smallModel(NoiseKind::Diagonal, 71);
        Rng rng(72);
        NlfaModel net = initialNlfaModel(2, {6}, Activation::Tanh, NoiseKind::Network, 0.3,
                                         rng.normalMatrix(5, 40), 73);
        const Eigen::Index hiddenPart = 6 * 2 + 6, d = 5;
        net.theta.head(hiddenPart) = diag.theta.head(hiddenPart);
        Eigen::Map<Matrix> wOut(net.theta.data() + hiddenPart, 2 * d, 6);
        wOut.topRows(d) = Eigen::Map<const Matrix>(diag.theta.data() + hiddenPart, d, 6);
        wOut.bottomRows(d).setZero();
        net.theta.tail(2 * d) << diag.theta.tail(d), diag.gamma;
        net.logVarFloor = Vector::Constant(d, -30.0);
        net.logVarCeiling = Vector::Constant(d, 30.0);
        const Matrix X = rng.normalMatrix(5, 6), M = rng.normalMatrix(2, 6),
                     L = 0.3 * rng.normalMatrix(2, 6), eps = rng.normalMatrix(2, 6);
        ElboPass pd(diag.shape), pn(net.shape);
        Eigen::RowVectorXd vd(6), vn(6);
        ElboGradient gd, gn;
        pd.run(diag, X, M, L, eps, vd, &gd);
        pn.run(net, X, M, L, eps, vn, &gn);
        QVERIFY((vd - vn).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY(relErr(flat(gn.mean), flat(gd.mean)) < 1e-12);
        QVERIFY(relErr(flat(gn.logVar), flat(gd.logVar)) < 1e-12);
        Rng a(74), b(74);
        const IwEstimate iwd = iwLoglik(pd, diag, X, M, L, 50, a);
        const IwEstimate iwn = iwLoglik(pn, net, X, M, L, 50, b);
        QVERIFY((iwd.logp - iwn.logp).cwiseAbs().maxCoeff() < 1e-12);
    }

    // K = 1: log p(x) = log ∫ N(z; 0, 1) Π_d N(x_d; μ_d(z), σ_d²(z)) dz by the trapezoid rule on
    // [−10, 10], against the importance-weighted estimate with the prior as proposal.
    void theIwEstimateUsesTheVarianceOfZ() {
        Rng rng(81);
        const Matrix rows = rng.normalMatrix(3, 40);
        NlfaModel model =
            initialNlfaModel(1, {5}, Activation::Tanh, NoiseKind::Network, 0.3, rows, 82);
        model.theta += 0.5 * rng.normalMatrix(model.theta.size(), 1);
        const Matrix X = rows.leftCols(3);
        const int grid = 20001;
        const Matrix Z = Eigen::RowVectorXd::LinSpaced(grid, -10.0, 10.0);
        Mlp net(model.shape);
        const Matrix out = net.forward(model.theta, Z); // [μ; log σ²]
        double spread = 0.0;
        for (Eigen::Index d = 0; d < 3; ++d) {
            QVERIFY(out.row(3 + d).minCoeff() > model.logVarFloor(d) &&
                    out.row(3 + d).maxCoeff() < model.logVarCeiling(d)); // no clamp here
            spread = std::max(spread, out.row(3 + d).maxCoeff() - out.row(3 + d).minCoeff());
        }
        QVERIFY(spread > 0.5); // σ² does depend on z
        ElboPass pass(model.shape);
        Rng draws(83);
        const Eigen::RowVectorXd iw =
            iwLoglik(pass, model, X, Matrix::Zero(1, 3), Matrix::Zero(1, 3), 40000, draws).logp;
        const double h = 20.0 / (grid - 1);
        for (Eigen::Index n = 0; n < 3; ++n) {
            Eigen::RowVectorXd lw(grid);
            for (Eigen::Index i = 0; i < grid; ++i) {
                double v = -0.5 * (std::log(2.0 * std::numbers::pi) + Z(0, i) * Z(0, i));
                for (Eigen::Index d = 0; d < 3; ++d) {
                    const double r = X(d, n) - out(d, i), s = out(3 + d, i);
                    v -= 0.5 * (std::log(2.0 * std::numbers::pi) + s + r * r * std::exp(-s));
                }
                lw(i) = v + std::log(i == 0 || i == grid - 1 ? 0.5 * h : h);
            }
            const double top = lw.maxCoeff();
            const double exact = top + std::log((lw.array() - top).exp().sum());
            QVERIFY2(std::abs(iw(n) - exact) < 0.01,
                     qPrintable(QString("IW %1, quadrature %2").arg(iw(n)).arg(exact)));
        }
    }
};

QTEST_APPLESS_MAIN(TestNonlinearFa)
#include "test_nonlinear_fa.moc"
