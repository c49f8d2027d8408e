// The network kernels (docs/maths/gp.md §2.3, §2.4, §7) against Monte Carlo: many random
// one-hidden-layer networks drawn by a sampler written out here, the empirical covariance of
// f(x1), f(x2) within 4 standard errors of k(x1, x2); the width lesson's own estimate
// (core/posterior/NetworkPrior.h) the same way at H = 1, 10, 100, 1000, with f's excess kurtosis
// falling towards the Gaussian's 0; GP prior draws with the kernel's covariance; and the kernels
// on the diagonal in closed form.
#include "core/math/Rng.h"
#include "core/posterior/GaussianProcess.h"
#include "core/posterior/NetworkPrior.h"

#include <QtTest>
#include <cmath>
#include <numbers>

using namespace fa;

namespace {

/// Monte Carlo estimates of E[f(xa) f(xb)] (f has mean zero) with their standard errors.
struct Moment {
    double mean = 0.0, se = 0.0;
};

/// The test's own sampler: f(x) = b + sum_h v_h g(u0_h + u_h . x), b ~ N(0, sb^2),
/// u0 ~ N(0, sb0^2), u ~ N(0, sw^2 I), v ~ N(0, sv^2 / H); the three products f1 f1, f2 f2, f1 f2.
std::array<Moment, 3> monteCarlo(const NetworkPrior& p, int H, const Vector& x1, const Vector& x2,
                                 long draws, std::uint64_t seed) {
    Rng rng(seed);
    std::array<double, 3> s{}, s2{};
    for (long n = 0; n < draws; ++n) {
        double f1 = p.sigmaB * rng.normal(), f2 = f1;
        for (int h = 0; h < H; ++h) {
            const double u0 = p.sigmaB0 * rng.normal();
            double a1 = u0, a2 = u0;
            for (Eigen::Index d = 0; d < x1.size(); ++d) {
                const double u = p.sigmaW * rng.normal();
                a1 += u * x1(d);
                a2 += u * x2(d);
            }
            const double v = p.sigmaV / std::sqrt(double(H)) * rng.normal();
            const bool erf = p.units == GpKernel::NnErf;
            f1 += v * (erf ? std::erf(a1) : std::max(a1, 0.0));
            f2 += v * (erf ? std::erf(a2) : std::max(a2, 0.0));
        }
        const double prod[3] = {f1 * f1, f2 * f2, f1 * f2};
        for (int k = 0; k < 3; ++k) {
            s[k] += prod[k];
            s2[k] += prod[k] * prod[k];
        }
    }
    std::array<Moment, 3> m;
    const double N = double(draws);
    for (int k = 0; k < 3; ++k)
        m[k] = {s[k] / N, std::sqrt((s2[k] / N - s[k] * s[k] / (N * N)) / (N - 1))};
    return m;
}

NetworkPrior prior(GpKernel units) {
    return {units, 0.5, 1.3, 1.0, 1.5};
}

} // namespace

class TestGpNetwork : public QObject {
    Q_OBJECT

  private slots:
    void kernelsEqualMonteCarloCovariance_data() {
        QTest::addColumn<int>("units");
        QTest::newRow("erf") << int(GpKernel::NnErf);
        QTest::newRow("relu") << int(GpKernel::NnRelu);
    }
    // 2-D inputs, 200,000 networks of 16 units: the 2 x 2 covariance within 4 SE of the kernel.
    void kernelsEqualMonteCarloCovariance() {
        QFETCH(int, units);
        const NetworkPrior p = prior(static_cast<GpKernel>(units));
        const Vector x1 = (Vector(2) << 0.7, -0.4).finished();
        const Vector x2 = (Vector(2) << -0.3, 0.9).finished();
        Matrix X(2, 2);
        X << x1.transpose(), x2.transpose();
        const Matrix K = gpKernelMatrix(networkKernel(p), X, X);
        const auto m = monteCarlo(p, 16, x1, x2, 200000, 77 + units);
        const double kernel[3] = {K(0, 0), K(1, 1), K(0, 1)};
        for (int k = 0; k < 3; ++k) {
            const double z = (m[k].mean - kernel[k]) / m[k].se;
            qInfo("entry %d: Monte Carlo %.5f ± %.5f, kernel %.5f (%.2f SE)", k, m[k].mean, m[k].se,
                  kernel[k], z);
            QVERIFY2(std::abs(z) < 4.0, qPrintable(QString::number(z)));
        }
        QVERIFY(std::abs(K(0, 1) - K(1, 0)) < 1e-15);
    }

    // On the diagonal, with s = sigma_b0^2 + sigma_w^2 |x|^2: erf gives (2/pi) asin(2s / (1 + 2s)),
    // ReLU gives E[max(a, 0)^2] = s / 2 for a ~ N(0, s).
    void kernelsOnTheDiagonal() {
        const Matrix X = (Matrix(1, 2) << 0.4, -1.1).finished();
        const double s = 1.0 + 2.25 * X.row(0).squaredNorm();
        const double erf = 0.25 + 1.69 * 2.0 / std::numbers::pi * std::asin(2 * s / (1 + 2 * s));
        QVERIFY(std::abs(gpKernelDiagonal(networkKernel(prior(GpKernel::NnErf)), X)(0) - erf) <
                1e-12);
        QVERIFY(std::abs(gpKernelDiagonal(networkKernel(prior(GpKernel::NnRelu)), X)(0) -
                         (0.25 + 1.69 * s / 2)) < 1e-12);
        QVERIFY(std::abs(gpKernelMatrix(networkKernel(prior(GpKernel::NnRelu)), X, X)(0, 0) -
                         (0.25 + 1.69 * s / 2)) < 1e-12);
    }

    // The width lesson's estimate: the covariance equals the kernel at every width (v ~ N(0,
    // sigma_v^2 / H)), within 4 SE; what H changes is the shape: the excess kurtosis of f(x1)
    // falls towards 0 (about 1/H). x1 = -0.5, x2 = 1, 20,000 networks: docs/results.md's table.
    void widthLessonCovarianceAndKurtosis() {
        const Vector x1 = Vector::Constant(1, -0.5), x2 = Vector::Constant(1, 1.0);
        for (const GpKernel units : {GpKernel::NnErf, GpKernel::NnRelu}) {
            std::vector<double> kurtosis;
            for (const int H : {1, 10, 100, 1000}) {
                const CovarianceCheck c = networkCovariance(prior(units), H, x1, x2, 20000, 3);
                const double z = (c.empirical - c.kernel) / c.stdErr;
                qInfo("%s H = %d: %.4f ± %.4f against %.4f (%.2f SE), excess kurtosis %.3f",
                      gpKernelName(units).c_str(), H, c.empirical, c.stdErr, c.kernel, z,
                      c.excessKurtosis);
                QVERIFY2(std::abs(z) < 4.0, qPrintable(QString::number(z)));
                kurtosis.push_back(c.excessKurtosis);
            }
            QVERIFY(kurtosis[0] > kurtosis[1] && kurtosis[1] > kurtosis[2]);
            QVERIFY(std::abs(kurtosis[2]) < 0.25 && std::abs(kurtosis[3]) < 0.25);
        }
    }

    // Draws from the GP prior: their covariance at three inputs within 4 SE of the kernel; the
    // network draws are deterministic given the seed and shaped inputs x draws.
    void priorDrawsHaveTheKernelCovariance() {
        const Matrix X = (Matrix(3, 1) << -1.0, 0.2, 1.5).finished();
        const GpHyper h = networkKernel(prior(GpKernel::NnErf));
        const Matrix F = drawGpFunctions(h, X, 20000, 9);
        const Matrix K = gpKernelMatrix(h, X, X);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j <= i; ++j) {
                const Vector prod = F.row(i).cwiseProduct(F.row(j)).transpose();
                const double mean = prod.mean();
                const double se = std::sqrt((prod.array() - mean).square().sum() / 19999 / 20000);
                QVERIFY2(std::abs(mean - K(i, j)) < 4 * se, qPrintable(QString::number(mean)));
            }
        const Matrix A = drawNetworkFunctions(prior(GpKernel::NnRelu), 10, X, 5, 1);
        QCOMPARE(A.rows(), 3);
        QCOMPARE(A.cols(), 5);
        QVERIFY(A == drawNetworkFunctions(prior(GpKernel::NnRelu), 10, X, 5, 1));
        QVERIFY(A != drawNetworkFunctions(prior(GpKernel::NnRelu), 10, X, 5, 2));
    }
};

QTEST_GUILESS_MAIN(TestGpNetwork)
#include "test_gp_network.moc"
