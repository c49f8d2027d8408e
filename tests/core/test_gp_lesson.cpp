// The posterior lab's GP view (core/posterior/GpLesson.h, docs/maths/gp.md §8) against
// references of its own: the linear kernel's band is Bayesian linear regression's predictive,
// computed here in weight space (two weights) and scaled back by hand, at a stationary point of
// the evidence (central differences of the weight-space log evidence); the kernels that widen
// between the in-between set's clusters do so and the linear one does not; and the excess
// kurtosis of a random network's f(x1) is the closed form 3 σ_v⁴ Var[g(a)²] / (H k(x1, x1)²)
// (a sum of H independent terms), with E g², E g⁴ by quadrature over a ~ N(0, σ_b0² + σ_w² x1²).
#include "core/data/InBetween.h"
#include "core/posterior/GpLesson.h"

#include <QtTest>
#include <cmath>

namespace {

struct Scaled {
    fa::Matrix Phi; ///< rows (x_s, 1)
    fa::Vector y;
    double xm, xs, ym, ys;
};
Scaled standardised() {
    const fa::RegressionData d = fa::inBetweenData();
    Scaled s;
    s.xm = d.X.col(0).mean();
    s.xs = std::sqrt((d.X.col(0).array() - s.xm).square().mean());
    s.ym = d.y.mean();
    s.ys = std::sqrt((d.y.array() - s.ym).square().mean());
    s.Phi.resize(d.size(), 2);
    s.Phi.col(0) = (d.X.col(0).array() - s.xm) / s.xs;
    s.Phi.col(1).setOnes();
    s.y = (d.y.array() - s.ym) / s.ys;
    return s;
}

/// Bayesian linear regression's log evidence in weight space (Bishop eq. 3.86).
double blrEvidence(const Scaled& s, double logAlpha, double logBeta) {
    const double a = std::exp(logAlpha), b = std::exp(logBeta);
    const auto n = static_cast<double>(s.y.size());
    const Eigen::Matrix2d A = a * Eigen::Matrix2d::Identity() + b * s.Phi.transpose() * s.Phi;
    const Eigen::Vector2d m = b * A.ldlt().solve(s.Phi.transpose() * s.y);
    const double e = 0.5 * b * (s.y - s.Phi * m).squaredNorm() + 0.5 * a * m.squaredNorm();
    return logAlpha + 0.5 * n * logBeta - e - 0.5 * std::log(A.determinant()) -
           0.5 * n * std::log(2.0 * M_PI);
}

/// E[g(a)^p] for a ~ N(0, s2), by the trapezoid rule on ±12 sd.
double unitMoment(fa::GpKernel units, double s2, int p) {
    const double s = std::sqrt(s2), h = 24.0 * s / 200000.0;
    double sum = 0.0;
    for (int i = 0; i <= 200000; ++i) {
        const double a = -12.0 * s + h * i;
        const double g = units == fa::GpKernel::NnErf ? std::erf(a) : std::max(a, 0.0);
        const double w = (i == 0 || i == 200000) ? 0.5 : 1.0;
        sum += w * std::pow(g, p) * std::exp(-0.5 * a * a / s2);
    }
    return sum * h / std::sqrt(2.0 * M_PI * s2);
}

} // namespace

class TestGpLesson : public QObject {
    Q_OBJECT
    fa::GpLesson lesson;
  private slots:
    void initTestCase() {
        fa::GpLessonConfig c;
        c.hidden = 10;
        lesson = fa::gpLesson(c);
        QCOMPARE(lesson.bands.size(), std::size_t(4));
        QCOMPARE(lesson.convergence.size(), fa::kLessonWidths.size());
        QCOMPARE(lesson.networkDraws.cols(), lesson.gpDraws.cols());
        QCOMPARE(lesson.networkDraws.rows(), lesson.gridX.size());
    }

    void linearBandIsBayesianLinearRegressionAtItsBestEvidence() {
        const fa::GpLessonBand& band = lesson.bands[1];
        QVERIFY(band.ok && band.kernel == fa::GpKernel::Linear);
        const Scaled s = standardised();
        const double la = band.hyper.logParams(0), lb = band.hyper.logParams(1);
        QVERIFY(std::abs(band.logMarginal - blrEvidence(s, la, lb)) < 1e-8);
        const double h = 1e-4; // the optimiser stopped where the evidence is flat
        const double ga = (blrEvidence(s, la + h, lb) - blrEvidence(s, la - h, lb)) / (2 * h);
        const double gb = (blrEvidence(s, la, lb + h) - blrEvidence(s, la, lb - h)) / (2 * h);
        QVERIFY2(std::abs(ga) < 1e-3 && std::abs(gb) < 1e-3,
                 qPrintable(QString("%1 %2").arg(ga).arg(gb)));
        const double a = std::exp(la), b = std::exp(lb);
        const Eigen::Matrix2d A = a * Eigen::Matrix2d::Identity() + b * s.Phi.transpose() * s.Phi;
        const Eigen::Vector2d m = b * A.ldlt().solve(s.Phi.transpose() * s.y);
        for (Eigen::Index i = 0; i < lesson.gridX.size(); i += 20) {
            const Eigen::Vector2d phi((lesson.gridX(i) - s.xm) / s.xs, 1.0);
            const double mean = phi.dot(m) * s.ys + s.ym;
            const double sd = std::sqrt(phi.dot(A.ldlt().solve(phi)) + 1.0 / b) * s.ys;
            QVERIFY(std::abs(band.mean(i) - mean) < 1e-6 * s.ys);
            QVERIFY(std::abs(band.sd(i) - sd) < 1e-6 * s.ys);
        }
    }

    // In the gap (x = 0, between the clusters at ±[0.7, 1.5]) against the clusters' middles.
    void theBandsWidenBetweenTheClustersButTheLinearOne() {
        const auto at = [&](double x) {
            Eigen::Index i = 0;
            (lesson.gridX.array() - x).abs().minCoeff(&i);
            return i;
        };
        for (const fa::GpLessonBand& b : lesson.bands) {
            QVERIFY(b.ok);
            const double gap = b.sd(at(0.0)), cluster = 0.5 * (b.sd(at(-1.1)) + b.sd(at(1.1)));
            qInfo("%s: sd %.3f in the gap, %.3f in the clusters",
                  fa::gpKernelName(b.kernel).c_str(), gap, cluster);
            if (b.kernel == fa::GpKernel::Linear)
                QVERIFY(gap < 1.05 * cluster);
            else
                QVERIFY(gap > 1.5 * cluster);
        }
    }

    // A lesson built from an earlier one copies what does not depend on what changed, and is
    // the lesson computed afresh: a new H draws new functions only; other units also measure
    // the convergence again.
    void aLessonReusesWhatItShares() {
        fa::GpLessonConfig c = lesson.config;
        c.hidden = 1000;
        const fa::GpLesson fresh = fa::gpLesson(c), reused = fa::gpLesson(c, nullptr, &lesson);
        QCOMPARE(reused.networkDraws, fresh.networkDraws);
        QCOMPARE(reused.gpDraws, fresh.gpDraws);
        for (std::size_t k = 0; k < fresh.bands.size(); ++k) {
            QCOMPARE(reused.bands[k].mean, fresh.bands[k].mean);
            QCOMPARE(reused.bands[k].sd, fresh.bands[k].sd);
        }
        for (std::size_t h = 0; h < fresh.convergence.size(); ++h)
            QCOMPARE(reused.convergence[h].excessKurtosis, fresh.convergence[h].excessKurtosis);
        c.units = fa::GpKernel::NnRelu;
        const fa::GpLesson relu = fa::gpLesson(c, nullptr, &lesson);
        QCOMPARE(relu.convergence.front().excessKurtosis,
                 fa::gpLesson(c).convergence.front().excessKurtosis);
        QVERIFY(relu.convergence.front().kernel != lesson.convergence.front().kernel);
    }

    // The closed form, with a standard error of the estimated excess kurtosis of about
    // sqrt(24 / n) (1 + kurtosis): the lesson's 20 000 networks per H, and 200 000 at H = 1, 3, 10
    // where the closed form is distinguishable from 0 and from its neighbours.
    void kurtosisFallsAsItsClosedForm() {
        const fa::NetworkPrior prior{.units = fa::GpKernel::NnErf};
        const double s2 = prior.sigmaB0 * prior.sigmaB0 +
                          prior.sigmaW * prior.sigmaW * fa::kLessonX1 * fa::kLessonX1;
        const double g2 = unitMoment(prior.units, s2, 2), g4 = unitMoment(prior.units, s2, 4);
        const double k11 = prior.sigmaB * prior.sigmaB + prior.sigmaV * prior.sigmaV * g2;
        const auto closedForm = [&](int hidden) {
            return 3.0 * std::pow(prior.sigmaV, 4) * (g4 - g2 * g2) / (hidden * k11 * k11);
        };
        const auto check = [&](const fa::CovarianceCheck& c) {
            const double expected = closedForm(c.hidden);
            const double se = std::sqrt(24.0 / double(c.draws)) * (1.0 + expected);
            qInfo("H = %d, %ld networks: excess kurtosis %.4f, closed form %.4f (SE %.4f); "
                  "cov / kernel %.4f ± %.4f",
                  c.hidden, c.draws, c.excessKurtosis, expected, se, c.empirical / c.kernel,
                  c.stdErr / c.kernel);
            QVERIFY(std::abs(c.empirical - c.kernel) < 4.0 * c.stdErr);
            QVERIFY(std::abs(c.excessKurtosis - expected) < 4.0 * se);
        };
        for (const fa::CovarianceCheck& c : lesson.convergence)
            check(c);
        fa::Vector x1(1), x2(1);
        x1 << fa::kLessonX1;
        x2 << fa::kLessonX2;
        for (int h : {1, 3, 10})
            check(fa::networkCovariance(prior, h, x1, x2, 200000, 7));
    }
};

QTEST_APPLESS_MAIN(TestGpLesson)
#include "test_gp_lesson.moc"
