// Gaussian-process regression (core/posterior/GaussianProcess.h) against independent references:
// the predictive and log marginal likelihood written out densely here (an LU inverse and
// determinant of K + sigma^2 I, the SE kernel spelled out), the linear kernel against Bayesian
// linear regression's evidence and posterior (core/vi/ExactPosterior), the gradient against
// central differences, type-II ML against a stationary point and MacKay's evidence fixed point,
// and the test scores against NMLL_z + log s_y (docs/maths/gp.md).
#include "core/data/RegressionData.h"
#include "core/math/Rng.h"
#include "core/optim/Lbfgs.h"
#include "core/posterior/GaussianProcess.h"
#include "core/posterior/GpExperiment.h"
#include "core/vi/ExactPosterior.h"

#include <QtTest>
#include <cmath>
#include <numbers>

using namespace fa;

namespace {

struct Data {
    Matrix X;
    Vector y;
};

/// n rows of D standard-normal inputs and y = sin(x1) + 0.5 x2 + 0.1 eps.
Data smallData(int n, int d, std::uint64_t seed) {
    Rng rng(seed);
    Data s{rng.normalMatrix(n, d), Vector(n)};
    for (int i = 0; i < n; ++i)
        s.y(i) = std::sin(s.X(i, 0)) + (d > 1 ? 0.5 * s.X(i, 1) : 0.0) + 0.1 * rng.normal();
    return s;
}

/// The SE kernel written out: s_f^2 exp(-1/2 sum_d (a_d - b_d)^2 / l_d^2).
Matrix seReference(const Matrix& A, const Matrix& B, double sf, const Vector& l) {
    Matrix K(A.rows(), B.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < B.rows(); ++j) {
            double r2 = 0.0;
            for (Eigen::Index d = 0; d < A.cols(); ++d)
                r2 += std::pow((A(i, d) - B(j, d)) / l(d), 2);
            K(i, j) = sf * sf * std::exp(-0.5 * r2);
        }
    return K;
}

double relError(double a, double b) {
    return std::abs(a - b) / std::max(1.0, std::abs(b));
}

} // namespace

class TestGp : public QObject {
    Q_OBJECT

  private slots:
    // Thesis eqs. 2.21-2.24 by a dense inverse: m = k' A y, s^2 = k** - k' A k, A = (K + s^2 I)^-1,
    // and log p(y) = -1/2 y' A y - 1/2 log|K + s^2 I| - n/2 log 2 pi.
    void predictionEqualsDenseReference() {
        const Data d = smallData(14, 2, 3);
        const Matrix Xs = Rng(4).normalMatrix(5, 2);
        const double sf = 1.3, sn = 0.2;
        const Vector l = (Vector(2) << 0.8, 1.7).finished();
        const GpHyper h{
            GpKernel::SquaredExp,
            (Vector(4) << std::log(sf), std::log(l(0)), std::log(l(1)), std::log(sn)).finished()};
        Matrix Ky = seReference(d.X, d.X, sf, l);
        Ky.diagonal().array() += sn * sn;
        const Eigen::FullPivLU<Matrix> lu(Ky);
        const Matrix A = lu.inverse();
        const Matrix Ks = seReference(d.X, Xs, sf, l);
        const Vector mean = Ks.transpose() * A * d.y;
        const Vector varF = (seReference(Xs, Xs, sf, l) - Ks.transpose() * A * Ks).diagonal();
        const double lml = -0.5 * d.y.dot(A * d.y) - 0.5 * std::log(lu.determinant()) -
                           0.5 * 14 * std::log(2 * std::numbers::pi);

        const GpRegression gp(d.X, d.y, h);
        QVERIFY(gp.ok());
        const GpPrediction p = gp.predict(Xs);
        QVERIFY2((p.mean - mean).cwiseAbs().maxCoeff() < 1e-10, "mean");
        QVERIFY2((p.varF - varF).cwiseAbs().maxCoeff() < 1e-10, "var f");
        QVERIFY2((p.varY - (varF.array() + sn * sn).matrix()).cwiseAbs().maxCoeff() < 1e-10,
                 "var y");
        QVERIFY2(relError(gp.logMarginal(), lml) < 1e-10, "log marginal");
        QVERIFY2(relError(gpLogMarginal(h, d.X, d.y, false).value, lml) < 1e-10, "evidence");
    }

    // The linear kernel (x.x' + 1) / alpha with noise 1/beta is BLR with a bias column: the
    // same log evidence (Bishop 3.86, core/vi/ExactPosterior) and the same predictive.
    void linearKernelIsBayesianLinearRegression() {
        const Data d = smallData(30, 3, 7);
        const Matrix Xs = Rng(8).normalMatrix(6, 3);
        const double alpha = 2.0, beta = 8.0;
        Matrix Phi(30, 4), PhiS(6, 4);
        Phi << d.X, Vector::Ones(30);
        PhiS << Xs, Vector::Ones(6);
        const GpHyper h{GpKernel::Linear,
                        (Vector(2) << std::log(alpha), std::log(beta)).finished()};
        const double evidence = logEvidence(Phi, d.y, {alpha, beta});
        const double lml = gpLogMarginal(h, d.X, d.y, false).value;
        qInfo("GP linear LML %.15g, BLR log evidence %.15g", lml, evidence);
        QVERIFY2(relError(lml, evidence) < 1e-10, "evidence");
        const GaussianPosterior post = exactPosterior(Phi, d.y, {alpha, beta});
        const GpPrediction p = GpRegression(d.X, d.y, h).predict(Xs);
        QVERIFY((p.mean - PhiS * post.mean).cwiseAbs().maxCoeff() < 1e-10);
        const Vector var = (PhiS * post.cov * PhiS.transpose()).diagonal();
        QVERIFY((p.varF - var).cwiseAbs().maxCoeff() < 1e-10);
        QVERIFY((p.varY - (var.array() + 1.0 / beta).matrix()).cwiseAbs().maxCoeff() < 1e-10);
    }

    // d log p / d log theta against central differences (step 1e-5), every kernel, at a point
    // away from the defaults.
    void gradientMatchesCentralDifferences_data() {
        QTest::addColumn<int>("kernel");
        for (const GpKernel k : allGpKernels())
            QTest::newRow(gpKernelName(k).c_str()) << static_cast<int>(k);
    }
    void gradientMatchesCentralDifferences() {
        QFETCH(int, kernel);
        const Data d = smallData(16, 3, 11);
        GpHyper h = defaultGpHyper(static_cast<GpKernel>(kernel), 3);
        Rng rng(12);
        for (Eigen::Index i = 0; i < h.logParams.size(); ++i)
            h.logParams(i) += 0.3 * rng.normal();
        const GpEvidence e = gpLogMarginal(h, d.X, d.y, true);
        QVERIFY(e.ok);
        double worst = 0.0;
        for (Eigen::Index i = 0; i < h.logParams.size(); ++i) {
            GpHyper up = h, down = h;
            up.logParams(i) += 1e-5;
            down.logParams(i) -= 1e-5;
            const double fd = (gpLogMarginal(up, d.X, d.y, false).value -
                               gpLogMarginal(down, d.X, d.y, false).value) /
                              2e-5;
            worst = std::max(worst, relError(e.gradient(i), fd));
        }
        qInfo("%s: largest relative gradient error %.2e", gpKernelName(h.kernel).c_str(), worst);
        QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    }

    // L-BFGS on Rosenbrock's valley from (-1.2, 1) reaches (1, 1).
    void lbfgsMinimisesRosenbrock() {
        const Objective f = [](const Vector& x, Vector& g) {
            const double a = 1.0 - x(0), b = x(1) - x(0) * x(0);
            g.resize(2);
            g << -2.0 * a - 400.0 * x(0) * b, 200.0 * b;
            return a * a + 100.0 * b * b;
        };
        const LbfgsResult r =
            minimiseLbfgs(f, (Vector(2) << -1.2, 1.0).finished(), {.iterations = 500});
        QVERIFY(r.converged);
        QVERIFY2((r.x - Vector::Ones(2)).norm() < 1e-5, qPrintable(QString::number(r.x(0))));
    }

    // Type-II ML ends at a stationary point above its start (the gradient per row below 1e-4:
    // the optimiser stops at 1e-5 per row or a relative decrease below 1e-10); for the linear
    // kernel at the evidence maximum MacKay's fixed point (core/vi/ExactPosterior) finds too.
    void optimiserFindsTheEvidenceMaximum() {
        const Data d = smallData(40, 2, 21);
        for (const GpKernel k : allGpKernels()) {
            const GpTrained t = optimiseGp(d.X, d.y, k, {2, 200}, 5);
            QVERIFY(t.ok);
            const GpEvidence e = gpLogMarginal(t.hyper, d.X, d.y, true);
            QVERIFY(std::abs(e.value - t.logMarginal) < 1e-9);
            QVERIFY(e.value >= gpLogMarginal(defaultGpHyper(k, 2), d.X, d.y, false).value);
            QVERIFY2(e.gradient.cwiseAbs().maxCoeff() / 40 < 1e-4,
                     qPrintable(QString::fromStdString(gpKernelName(k)) + " " +
                                QString::number(e.gradient.norm())));
        }
        Matrix Phi(40, 3);
        Phi << d.X, Vector::Ones(40);
        const EvidenceResult mackay = evidenceHyperparameters(Phi, d.y);
        const double ours = optimiseGp(d.X, d.y, GpKernel::Linear, {2, 200}, 5).logMarginal;
        const double theirs = logEvidence(Phi, d.y, mackay.hyper);
        qInfo("linear kernel: L-BFGS %.10f, MacKay %.10f", ours, theirs);
        QVERIFY(ours >= theirs - 1e-9 && ours - theirs < 1e-4);
    }

    // The test scores on the target's own scale: NMLL = NMLL_z + log s_y, RMSE = s_y RMSE_z,
    // written out from the standardised predictive.
    void scoresAreOnTheTargetScale() {
        const Data d = smallData(60, 2, 31);
        RegressionData data{d.X, (d.y * 7.5).array() + 3.0, {"a", "b"}, "y", "toy"};
        const RegressionProblem p = splitRegression(data, 0.8, 0, 0);
        const GpRegression gp(p.Xtrain, p.ytrain, defaultGpHyper(GpKernel::SquaredExp, 2));
        GpRow row;
        scoreGp(gp, p, row);
        const GpPrediction pr = gp.predict(p.Xtest);
        const double n = static_cast<double>(p.ytest.size());
        const Vector r = p.ytest - pr.mean;
        const double nmllZ = (0.5 * (2 * std::numbers::pi * pr.varY.array()).log() +
                              0.5 * r.array().square() / pr.varY.array())
                                 .sum() /
                             n;
        QVERIFY(std::abs(row.nmll - (nmllZ + std::log(p.yScale))) < 1e-12);
        QVERIFY(std::abs(row.rmse - p.yScale * std::sqrt(r.squaredNorm() / n)) < 1e-12);
        QCOMPARE(row.status, std::string("ok"));
    }
};

QTEST_GUILESS_MAIN(TestGp)
#include "test_gp.moc"
