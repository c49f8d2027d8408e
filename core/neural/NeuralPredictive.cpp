#include "core/neural/NeuralPredictive.h"

#include "core/math/Rng.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {
namespace {

/// The result of a cancelled scoring: NaN, mean and sd empty.
Predictive cancelled() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, {}, {}};
}

/// Fills columns [first, first + count) of mu with f(x; theta) yScale + yMean for draws theta of
/// q (docs/maths/neural.md §8.5). False when the poll stopped it.
bool drawMember(const MlpLikelihood& net, const FAModel& q, const ConstMatrixRef& X, double yMean,
                double yScale, Rng& rng, const ScoringPoll& poll, Matrix& mu, Eigen::Index first,
                Eigen::Index count) {
    if (isPointMass(q)) { // every draw is the same network: one forward pass
        if (poll.stop())
            return false;
        mu.col(first) = net.predict(q.c, X).array() * yScale + yMean;
        for (Eigen::Index s = 1; s < count; ++s)
            mu.col(first + s) = mu.col(first);
        return true;
    }
    FASampler sampler(q);
    Vector theta(q.dim());
    for (Eigen::Index s = 0; s < count; ++s) {
        if (poll.stop()) // each draw is a pass over every row: S of them can take minutes
            return false;
        sampler.draw(rng, theta);
        mu.col(first + s) = net.predict(theta, X).array() * yScale + yMean;
    }
    return true;
}

/// The scores of the equal-weight mixture whose component means are the columns of mu (one row
/// per test point), each with variance var.
Predictive scoreDraws(const Matrix& mu, const ConstVectorRef& yOriginal, double var) {
    const Eigen::Index n = mu.rows(), samples = mu.cols();
    const double logNorm = -0.5 * std::log(2.0 * std::numbers::pi * var);
    Predictive p;
    p.mean = mu.rowwise().mean();
    p.sd.resize(n);
    double nll = 0.0, sq = 0.0;
    long inside = 0;
    const Vector sdDraws = Vector::Constant(samples, std::sqrt(var));
    for (Eigen::Index i = 0; i < n; ++i) {
        // log (1/S) sum_s N(y_i; mu_is, var), by log-sum-exp.
        const Eigen::ArrayXd logs =
            logNorm - 0.5 * (yOriginal(i) - mu.row(i).array()).square() / var;
        const double top = logs.maxCoeff();
        nll -= top + std::log((logs - top).exp().sum()) - std::log(static_cast<double>(samples));
        sq += (p.mean(i) - yOriginal(i)) * (p.mean(i) - yOriginal(i));
        p.sd(i) =
            std::sqrt(var + (mu.row(i).array() - p.mean(i)).square().mean()); // mixture variance
        countPit(mixtureCdf(mu.row(i).transpose(), sdDraws, yOriginal(i)), inside, p.pit);
    }
    p.coverage95 = static_cast<double>(inside) / static_cast<double>(n);
    p.nmll = nll / static_cast<double>(n);
    p.rmse = std::sqrt(sq / static_cast<double>(n));
    return p;
}

} // namespace

FAModel pointMass(const Vector& theta) {
    return {theta, Matrix(theta.size(), 0), Vector::Zero(theta.size())};
}

bool isPointMass(const FAModel& q) {
    return (q.psi.size() == 0 || q.psi.cwiseAbs().maxCoeff() == 0.0) &&
           (q.F.size() == 0 || q.F.cwiseAbs().maxCoeff() == 0.0);
}

Predictive predictive(const MlpLikelihood& net, const FAModel& q, const ConstMatrixRef& X,
                      const ConstVectorRef& yOriginal, double yMean, double yScale, int samples,
                      std::uint64_t seed, const ScoringPoll& poll) {
    return predictive(net, std::span<const FAModel>(&q, 1), X, yOriginal, yMean, yScale, samples,
                      seed, poll);
}

Predictive predictive(const MlpLikelihood& net, std::span<const FAModel> posterior,
                      const ConstMatrixRef& X, const ConstVectorRef& yOriginal, double yMean,
                      double yScale, int samples, std::uint64_t seed, const ScoringPoll& poll) {
    if (samples < 1)
        throw std::invalid_argument("the predictive needs at least one sample");
    if (posterior.empty())
        throw std::invalid_argument("the predictive needs at least one member");
    const auto members = static_cast<Eigen::Index>(posterior.size());
    const Eigen::Index each = (samples + members - 1) / members;
    Matrix mu(X.rows(), each * members); // predictive means per draw, original scale
    Rng rng(seed);
    for (Eigen::Index m = 0; m < members; ++m)
        if (!drawMember(net, posterior[static_cast<std::size_t>(m)], X, yMean, yScale, rng, poll,
                        mu, m * each, each))
            return cancelled();
    return scoreDraws(mu, yOriginal, yScale * yScale / net.beta());
}

} // namespace fa
