// The predictive of a mixture of M posteriors over a network's weights
// (core/neural/NeuralPredictive.h, docs/maths/neural.md §8.5), on networks without a hidden layer,
// where everything is known in closed form: f(x; theta) = theta^T [x, 1], so a point mass gives
// one Gaussian and N(c, S) gives N(c^T z, z^T S z + 1 / beta) exactly. An ensemble of point
// masses is then an exact mixture (its moments and NMLL written out here, term by term); Gaussian
// members' Monte Carlo moments and NMLL approach the closed forms; coverage and PIT of targets
// drawn from a known mixture are those of a calibrated predictive.
#include "core/math/Rng.h"
#include "core/neural/NeuralPredictive.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <numbers>

using namespace fa;

namespace {

MlpShape linearShape(int inputs) {
    MlpShape shape;
    shape.inputs = inputs;
    shape.hidden = {};
    return shape;
}

Vector vec(std::initializer_list<double> values) {
    Vector v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (const double x : values)
        v(i++) = x;
    return v;
}

double normalDensity(double y, double mean, double var) {
    return std::exp(-0.5 * (y - mean) * (y - mean) / var) / std::sqrt(2 * std::numbers::pi * var);
}

double maxAbsDiff(const Vector& a, const Vector& b) {
    return (a - b).cwiseAbs().maxCoeff();
}

} // namespace

class TestNeuralPredictive : public QObject {
    Q_OBJECT
  private slots:
    void anEnsembleIsTheExactMixtureOfItsNetworks() {
        Rng rng(1);
        const Matrix X = rng.normalMatrix(7, 2);
        const double beta = 3.0, yMean = 2.0, yScale = 1.5, var = yScale * yScale / beta;
        const MlpLikelihood net(X, Vector::Zero(7), linearShape(2), beta);
        const std::vector<FAModel> ensemble{pointMass(vec({0.5, -1.0, 0.2})),
                                            pointMass(vec({1.5, 0.3, -0.4})),
                                            pointMass(vec({-0.2, 0.8, 0.9}))};
        const Vector y = rng.normalMatrix(7, 1).col(0) * 2.0 + Vector::Constant(7, yMean);
        for (const int samples : {3, 6, 7}) { // 7: ceil(7 / 3) = 3 draws each, 9 in all
            const Predictive p = predictive(net, ensemble, X, y, yMean, yScale, samples, 4);
            double nll = 0.0, sq = 0.0;
            for (Eigen::Index i = 0; i < 7; ++i) {
                const Vector z = vec({X(i, 0), X(i, 1), 1.0});
                double mean = 0.0, density = 0.0, spread = 0.0;
                for (const FAModel& q : ensemble)
                    mean += (yMean + yScale * q.c.dot(z)) / 3.0;
                for (const FAModel& q : ensemble) {
                    const double mu = yMean + yScale * q.c.dot(z);
                    spread += (mu - mean) * (mu - mean) / 3.0;
                    density += normalDensity(y(i), mu, var) / 3.0;
                }
                QVERIFY(std::abs(p.mean(i) - mean) < 1e-12);
                QVERIFY(std::abs(p.sd(i) - std::sqrt(var + spread)) < 1e-12);
                nll -= std::log(density) / 7.0;
                sq += (y(i) - mean) * (y(i) - mean) / 7.0;
            }
            QVERIFY2(std::abs(p.nmll - nll) < 1e-12, qPrintable(QString::number(p.nmll - nll)));
            QVERIFY(std::abs(p.rmse - std::sqrt(sq)) < 1e-12);
        }
    }

    void gaussianMembersApproachTheClosedForm() {
        // Two Gaussian members and a point mass, 30000 draws (10000 each): the predictive is
        // (1/3) sum_m N(y; m_y + s_y c_m^T z, s_y^2 (1/beta + z^T S_m z)). Mean within 4 standard
        // errors of the stratified estimate, sd within 2 %, NMLL within 0.01.
        Rng rng(2);
        const Matrix X = rng.normalMatrix(5, 2);
        const double beta = 2.0, yMean = -1.0, yScale = 3.0;
        const MlpLikelihood net(X, Vector::Zero(5), linearShape(2), beta);
        FAModel a{vec({0.4, -0.2, 0.1}), Matrix(3, 1), vec({0.05, 0.02, 0.03})};
        a.F << 0.3, 0.2, -0.1;
        FAModel b{vec({-0.5, 0.6, 0.3}), Matrix(3, 2), vec({0.01, 0.04, 0.02})};
        b.F << 0.1, -0.2, 0.4, 0.0, 0.2, 0.3;
        const std::vector<FAModel> members{a, pointMass(vec({0.1, 0.1, -0.6})), b};
        const Vector y = rng.normalMatrix(5, 1).col(0) * 3.0;
        const Predictive p = predictive(net, members, X, y, yMean, yScale, 30000, 5);
        double nll = 0.0;
        for (Eigen::Index i = 0; i < 5; ++i) {
            const Vector z = vec({X(i, 0), X(i, 1), 1.0});
            double mean = 0.0, second = 0.0, density = 0.0, mcVar = 0.0;
            for (const FAModel& q : members) {
                const double mu = yMean + yScale * q.c.dot(z);
                const double epistemic =
                    isPointMass(q) ? 0.0 : yScale * yScale * z.dot(q.denseCovariance() * z);
                const double v = yScale * yScale / beta + epistemic;
                mean += mu / 3.0;
                second += (v + mu * mu) / 3.0;
                density += normalDensity(y(i), mu, v) / 3.0;
                mcVar += epistemic / 9.0 / 10000.0; // the stratified mean's variance
            }
            const double sd = std::sqrt(second - mean * mean);
            QVERIFY2(std::abs(p.mean(i) - mean) < 4.0 * std::sqrt(mcVar),
                     qPrintable(QString("%1 vs %2").arg(p.mean(i)).arg(mean)));
            QVERIFY2(std::abs(p.sd(i) - sd) < 0.02 * sd,
                     qPrintable(QString("%1 vs %2").arg(p.sd(i)).arg(sd)));
            nll -= std::log(density) / 5.0;
        }
        QVERIFY2(std::abs(p.nmll - nll) < 0.01,
                 qPrintable(QString("%1 vs %2").arg(p.nmll).arg(nll)));
    }

    void aPointMassTakesNoRandomNumbers() {
        // [point mass, q] with 2S draws: q's S draws are those of q alone with S draws, so the
        // mean is the average of the two predictives' means exactly (and a point mass samples
        // as itself).
        Rng rng(3);
        const Matrix X = rng.normalMatrix(4, 2);
        const MlpLikelihood net(X, Vector::Zero(4), linearShape(2), 5.0);
        const FAModel q{vec({0.3, 0.1, -0.2}), Matrix::Constant(3, 1, 0.2), vec({0.1, 0.1, 0.1})};
        const FAModel point = pointMass(vec({1.0, -1.0, 0.5}));
        const Vector y = Vector::Zero(4);
        const Predictive both = predictive(net, std::vector<FAModel>{point, q}, X, y, 0, 1, 40, 6);
        const Predictive alone = predictive(net, q, X, y, 0, 1, 20, 6);
        const Predictive fixed = predictive(net, point, X, y, 0, 1, 20, 6);
        QVERIFY(maxAbsDiff(both.mean, 0.5 * (alone.mean + fixed.mean)) < 1e-12);
        Vector drawn(3);
        FASampler sampler(point);
        sampler.draw(rng, drawn);
        QCOMPARE(drawn, point.c);
    }

    void coverageOfTargetsDrawnFromTheMixture() {
        // 4000 test points, an ensemble of three linear networks, each target drawn from its
        // point's mixture: coverage within 4 standard errors of 0.95, every PIT bin within 4 sd
        // of its expected 400.
        Rng rng(7);
        const Eigen::Index n = 4000;
        const Matrix X = rng.normalMatrix(n, 2);
        const double beta = 4.0, yMean = 1.0, yScale = 2.0;
        const MlpLikelihood net(X, Vector::Zero(n), linearShape(2), beta);
        const std::vector<FAModel> ensemble{pointMass(vec({1.0, 0.0, 0.0})),
                                            pointMass(vec({0.0, 1.0, 0.5})),
                                            pointMass(vec({-1.0, 0.5, -0.5}))};
        Vector y(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const auto m = static_cast<std::size_t>(rng.uniform() * 3.0);
            const Vector z = vec({X(i, 0), X(i, 1), 1.0});
            y(i) = yMean + yScale * (ensemble[m].c.dot(z) + rng.normal() / std::sqrt(beta));
        }
        const Predictive p = predictive(net, ensemble, X, y, yMean, yScale, 3, 8);
        const double se = std::sqrt(0.95 * 0.05 / static_cast<double>(n));
        QVERIFY2(std::abs(p.coverage95 - 0.95) < 4 * se, qPrintable(QString::number(p.coverage95)));
        for (const int count : p.pit)
            QVERIFY2(std::abs(count - 400) < 4 * std::sqrt(4000 * 0.1 * 0.9),
                     qPrintable(QString::number(count)));
    }

    void cancelledOrEmptyMixtures() {
        Rng rng(9);
        const Matrix X = rng.normalMatrix(3, 2);
        const MlpLikelihood net(X, Vector::Zero(3), linearShape(2), 1.0);
        const std::vector<FAModel> members{pointMass(vec({1, 2, 3})), pointMass(vec({0, 1, 0}))};
        std::atomic<bool> cancel{true};
        const Predictive p =
            predictive(net, members, X, Vector::Zero(3), 0, 1, 10, 1, ScoringPoll{&cancel, {}});
        QVERIFY(std::isnan(p.nmll));
        QCOMPARE(p.mean.size(), Eigen::Index(0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, predictive(net, std::vector<FAModel>{}, X,
                                                                   Vector::Zero(3), 0, 1, 10, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 predictive(net, members, X, Vector::Zero(3), 0, 1, 0, 1));
    }
};

QTEST_GUILESS_MAIN(TestNeuralPredictive)
#include "test_neural_predictive.moc"
