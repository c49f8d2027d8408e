// The nonlinear-FA lab's engine against independent references: the network's and every
// objective's gradients against central finite differences; the closed-form KL and linear-decoder
// ELBO against Monte Carlo; the linear log-likelihood against PPCA's and a dense Gaussian density;
// the importance-weighted estimate approaching the exact log-likelihood; the optimal diagonal q;
// the linear VAE reaching PPCA's closed-form maximum; the two gaps non-negative within Monte
// Carlo error; the generated manifolds' geometry.
#include "core/latent/Ppca.h"
#include "core/math/Rng.h"
#include "core/vae/VaeData.h"
#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeMetrics.h"
#include "core/vae/VaeObjectives.h"
#include "tests/support/TestModels.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <numbers>

using namespace fa;

namespace {

/// Central differences of f at x (every entry).
Vector numericGradient(const std::function<double(const Vector&)>& f, Vector x, double h = 1e-6) {
    Vector g(x.size());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double keep = x(i);
        x(i) = keep + h;
        const double up = f(x);
        x(i) = keep - h;
        const double down = f(x);
        x(i) = keep;
        g(i) = (up - down) / (2.0 * h);
    }
    return g;
}

double relErr(const Vector& a, const Vector& b) {
    return (a - b).norm() / b.norm();
}

Vector flat(const Matrix& m) {
    return Eigen::Map<const Vector>(m.data(), m.size());
}
Matrix shaped(const Vector& v, Eigen::Index rows) {
    return Eigen::Map<const Matrix>(v.data(), rows, v.size() / rows);
}

/// A small nonlinear model with random weights (D = 5, K = 2, one tanh layer of 6).
NlfaModel smallModel(NoiseKind noise, std::uint64_t seed) {
    Rng rng(seed);
    const Matrix rows = rng.normalMatrix(5, 40);
    NlfaModel m = initialNlfaModel(2, {6}, Activation::Tanh, noise, 0.3, rows, seed);
    for (Eigen::Index i = 0; i < m.gamma.size(); ++i)
        m.gamma(i) += 0.3 * rng.normal();
    return m;
}

/// PPCA rows (N x D) from the explorer's generator with Ψ made isotropic.
Matrix ppcaRows(int dim, int latent, int n, std::uint64_t seed) {
    FAModel truth = test::makeModel(dim, latent, seed);
    truth.psi.setConstant(truth.psi.mean());
    return test::drawRows(truth, n, seed + 1);
}

/// The closed-form PPCA as a linear decoder (σ²I).
NlfaModel decoderOf(const PpcaModel& p) {
    NlfaModel m;
    m.shape.inputs = static_cast<int>(p.W.cols());
    m.shape.hidden = {};
    m.shape.outputs = static_cast<int>(p.W.rows());
    m.theta.resize(p.W.size() + p.mu.size());
    m.theta << flat(p.W), p.mu;
    m.noise = NoiseKind::Isotropic;
    m.gamma = Vector::Constant(1, std::log(p.sigma2));
    m.gammaFloor = Vector::Constant(1, -50.0);
    return m;
}

} // namespace

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
        QTest::newRow("diagonal Ψ") << int(NoiseKind::Diagonal);
        QTest::newRow("σ²I learned") << int(NoiseKind::Isotropic);
        QTest::newRow("σ²I fixed") << int(NoiseKind::Fixed);
    }
    void elboPassGradientsMatchFiniteDifferences() {
        QFETCH(int, noise);
        NlfaModel model = smallModel(static_cast<NoiseKind>(noise), 11);
        Rng rng(12);
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
        QVERIFY(relErr(g.theta, dTheta) < 1e-7);
        const Vector dM = numericGradient(
            [&](const Vector& v) { return total(model, shaped(v, 2), L); }, flat(M));
        QVERIFY(relErr(flat(g.mean), dM) < 1e-7);
        const Vector dL = numericGradient(
            [&](const Vector& v) { return total(model, M, shaped(v, 2)); }, flat(L));
        QVERIFY(relErr(flat(g.logVar), dL) < 1e-7);
        if (model.noise == NoiseKind::Fixed) {
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

    void vaeEncoderGradientMatchesFiniteDifferences() {
        const NlfaModel model = smallModel(NoiseKind::Diagonal, 21);
        MlpShape encShape;
        encShape.inputs = 5;
        encShape.hidden = {7};
        encShape.outputs = 4; // [μ; ℓ] for K = 2
        encShape.activation = Activation::Relu;
        const Vector phi = 0.5 * Mlp::initialWeights(encShape, 22);
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

    void importanceWeightedEstimateApproachesExactLogLik() {
        const Matrix rows = ppcaRows(6, 2, 200, 71);
        const NlfaModel model = decoderOf(ppcaClosedForm(rows, 2));
        const Matrix X = rows.transpose();
        const double exact = linearLogLik(model, X).mean();
        Matrix M, L;
        linearOptimalQ(model, X, M, L);
        ElboPass pass(model.shape);
        Rng rng(72);
        // PPCA's W has orthogonal columns: q* is the exact posterior, every weight is p(x).
        QVERIFY(std::abs(iwLoglik(pass, model, X, M, L, 1, rng).logp.mean() - exact) < 1e-9);
        // A worse proposal (mean + 0.5, variances × 3): biased low, the bias shrinking with S.
        const Matrix Mw = M.array() + 0.5, Lw = L.array() + std::log(3.0);
        double previous = -1e300;
        for (const int s : {1, 10, 100, 1000, 5000}) {
            const double bias = iwLoglik(pass, model, X, Mw, Lw, s, rng).logp.mean() - exact;
            QVERIFY2(bias < 0.02 && bias > previous - 0.01,
                     qPrintable(QString("S = %1: bias %2").arg(s).arg(bias)));
            previous = bias;
        }
        QVERIFY2(std::abs(previous) < 0.03, qPrintable(QString::number(previous)));
    }

    void optimalDiagonalQAndTheApproximationGap() {
        const Matrix rows = ppcaRows(6, 2, 200, 81);
        NlfaModel model = decoderOf(ppcaClosedForm(rows, 2));
        const Matrix X = rows.topRows(20).transpose();
        // PPCA's optimum: Wᵀ W diagonal, no approximation gap.
        QVERIFY(std::abs(linearApproximationGap(model)) < 1e-10);
        // Rotate W by 0.6 rad: the same marginal, a positive gap log p − ELBO(q*).
        Matrix W = model.W();
        const double c = std::cos(0.6), s = std::sin(0.6);
        Matrix R(2, 2);
        R << c, -s, s, c;
        W = W * R;
        model.theta.head(W.size()) = flat(W);
        Matrix M, L;
        linearOptimalQ(model, X, M, L);
        const Eigen::RowVectorXd best = linearElbo(model, X, M, L);
        const Eigen::RowVectorXd ll = linearLogLik(model, X);
        const double gap = linearApproximationGap(model);
        QVERIFY(gap > 1e-3);
        QVERIFY(((ll - best).array() - gap).abs().maxCoeff() < 1e-10);
        // q* is the maximum: any perturbation lowers every row's ELBO.
        Rng rng(82);
        for (int trial = 0; trial < 20; ++trial) {
            const Matrix Mp = M + 0.05 * rng.normalMatrix(2, 20),
                         Lp = L + 0.05 * rng.normalMatrix(2, 20);
            QVERIFY((linearElbo(model, X, Mp, Lp) - best).maxCoeff() < 0.0);
        }
        // The stochastic per-point optimiser (used for nonlinear decoders) finds the same q*.
        ElboPass pass(model.shape);
        Matrix Mo = Matrix::Zero(2, 20), Lo = Matrix::Zero(2, 20);
        optimiseQ(pass, model, X, Mo, Lo, 2000, 0.05, rng);
        QVERIFY2((Mo - M).cwiseAbs().maxCoeff() < 0.1,
                 qPrintable(QString::number((Mo - M).cwiseAbs().maxCoeff())));
        QVERIFY((Lo - L).cwiseAbs().maxCoeff() < 0.2);
        QVERIFY(best.mean() - linearElbo(model, X, Mo, Lo).mean() < 0.01);
    }

    void linearVaeReachesPpcaMaximum() {
        const Matrix rows = ppcaRows(6, 2, 2000, 91);
        const PpcaModel p = ppcaClosedForm(rows, 2);
        VaeOptions o;
        o.latent = 2;
        o.batch = 2000; // the whole set: exact gradients
        o.lr = 0.01;
        o.seed = 92;
        auto fit = makeVaeFit(VaeMethod::LinearVae, rows, o);
        for (int e = 0; e < 3000; ++e)
            fit->epoch();
        VaeEvalOptions eval;
        const VaeScores s = scoreVaeFit(*fit, Matrix(0, 6), eval, 93);
        const double ppca = ppcaLoglikPerRow(p, rows);
        QVERIFY2(
            std::abs(s.trainElbo - ppca) < 1e-4,
            qPrintable(
                QString("ELBO %1, PPCA %2").arg(s.trainElbo, 0, 'g', 12).arg(ppca, 0, 'g', 12)));
        QVERIFY(std::abs(std::exp(fit->model().gamma(0)) / p.sigma2 - 1.0) < 1e-2);
        // The bound is tight there: no approximation gap (Wᵀ W diagonal).
        QVERIFY(linearApproximationGap(fit->model()) < 1e-3);
    }

    void gapsAreNonNegativeWithinMonteCarloError() {
        VaeDataSpec spec;
        spec.dataset = "two-moons";
        spec.dim = 5;
        spec.samples = 600;
        spec.testFraction = 0.25;
        const VaeData data = makeVaeData(spec, {});
        VaeOptions o;
        o.latent = 1;
        o.hidden = {20};
        o.seed = 101;
        VaeEvalOptions eval;
        eval.elboSamples = 200;
        eval.iwSamples = 2000;
        for (const VaeMethod method : {VaeMethod::Vae, VaeMethod::Vem}) {
            auto fit = makeVaeFit(method, data.rows.train, o);
            for (int e = 0; e < 30; ++e)
                fit->epoch();
            const VaeScores s = scoreVaeFit(*fit, data.rows.test, eval, 102);
            const QString what = QString("%1: amortisation %2, approximation %3, ESS %4")
                                     .arg(QString::fromStdString(vaeMethodName(method)))
                                     .arg(s.amortisationGap)
                                     .arg(s.approximationGap)
                                     .arg(s.minEss);
            QVERIFY2(s.approximationGap > -0.02, qPrintable(what));
            if (method == VaeMethod::Vae)
                QVERIFY2(s.amortisationGap > -0.02, qPrintable(what));
            else
                QVERIFY(std::isnan(s.amortisationGap));
            QVERIFY(std::isfinite(s.iwLoglik) && s.minEss >= 1.0);
            QVERIFY(s.iwLoglik >= s.testElbo - 0.02); // a bound on log p(x)
        }
    }

    void manifoldsHaveTheirGeometry() {
        VaeDataSpec spec;
        spec.dim = 8;
        spec.samples = 1000;
        spec.noise = 0.01;
        spec.testFraction = 0.2;
        for (const char* name : {"two-moons", "pinwheel", "swiss-roll"}) {
            spec.dataset = name;
            const VaeData d = makeVaeData(spec, {});
            QCOMPARE(d.rows.train.rows(), Eigen::Index{800});
            QCOMPARE(d.rows.test.rows(), Eigen::Index{200});
            QCOMPARE(d.trainPosition.size(), Eigen::Index{800});
            // Lifted by an orthonormal frame: 2 (swiss roll: 3) variances above the noise.
            Matrix all(1000, 8);
            all << d.rows.train, d.rows.test;
            const Matrix centred = all.rowwise() - all.colwise().mean();
            const Vector ev =
                Eigen::SelfAdjointEigenSolver<Matrix>(centred.transpose() * centred / 1000.0)
                    .eigenvalues()
                    .reverse();
            const int planes = std::string(name) == "swiss-roll" ? 3 : 2;
            QVERIFY(ev(planes - 1) > 0.01);
            QVERIFY(ev(planes) < 2.0 * 0.01 * 0.01);
        }
        spec.dataset = "pinwheel";
        const VaeData p = makeVaeData(spec, {});
        QCOMPARE(p.trainPosition.minCoeff(), 0.0);
        QCOMPARE(p.trainPosition.maxCoeff(), 4.0);
        spec.dataset = "two-moons";
        const VaeData m = makeVaeData(spec, {});
        QVERIFY(m.trainPosition.minCoeff() >= 0.0 && m.trainPosition.maxCoeff() <= 2.0);
        spec.dataset = "swiss-roll";
        spec.dim = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeVaeData(spec, {}));
    }
};

QTEST_APPLESS_MAIN(TestNonlinearFa)
#include "test_nonlinear_fa.moc"
