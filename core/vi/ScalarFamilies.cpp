#include "core/vi/ScalarFamilies.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fa {

double digamma(double x) {
    double shift = 0.0; // ψ(x) = ψ(x + 1) − 1/x up to x >= 10, then the asymptotic series
    for (; x < 10.0; x += 1.0)
        shift -= 1.0 / x;
    const double r = 1.0 / (x * x);
    return shift + std::log(x) - 0.5 / x -
           r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r / 132))));
}

double gammaCdf(double a, double x) {
    if (x <= 0.0)
        return 0.0;
    const double logFront = a * std::log(x) - x - std::lgamma(a);
    if (x < a + 1.0) { // the series Σ x^k / (a (a+1) ... (a+k))
        double term = 1.0 / a, sum = term;
        for (int k = 1; k < 1000 && term > sum * 1e-17; ++k) {
            term *= x / (a + k);
            sum += term;
        }
        return std::exp(logFront) * sum;
    }
    // Q(a, x) by its continued fraction (modified Lentz).
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
    for (int k = 1; k < 1000; ++k) {
        const double an = -k * (k - a);
        b += 2.0;
        d = an * d + b;
        d = std::abs(d) < tiny ? tiny : d;
        c = b + an / c;
        c = std::abs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::abs(delta - 1.0) < 1e-16)
            break;
    }
    return 1.0 - std::exp(logFront) * h;
}

PoissonGammaTarget PoissonGammaTarget::synthetic(std::uint64_t seed, int n, double rate) {
    Rng rng(seed);
    PoissonGammaTarget t;
    for (int i = 0; i < n; ++i) { // Poisson by counting unit-rate arrivals before `rate`
        int k = 0;
        for (double time = rng.gamma(1.0); time < rate; time += rng.gamma(1.0))
            ++k;
        t.counts.push_back(k);
    }
    return t;
}

double PoissonGammaTarget::posteriorShape() const {
    return priorShape + std::accumulate(counts.begin(), counts.end(), 0.0);
}

double PoissonGammaTarget::posteriorRate() const {
    return priorRate + static_cast<double>(counts.size());
}

double PoissonGammaTarget::logJoint(double lambda) const {
    double logFactorials = 0.0;
    for (const int y : counts)
        logFactorials += std::lgamma(y + 1.0);
    return (posteriorShape() - 1.0) * std::log(lambda) - posteriorRate() * lambda - logFactorials +
           priorShape * std::log(priorRate) - std::lgamma(priorShape);
}

namespace {

double shapeOf(const PositiveQ& q) {
    return q.family == PositiveFamily::Gamma ? std::exp(q.logShape) : 1.0;
}

/// ∂H/∂(log shape, log rate) of the gamma's entropy H = α − log β + lnΓ(α) + (1 − α) ψ(α);
/// ψ'(α) by a central difference of ψ.
Vector entropyGradient(const PositiveQ& q) {
    Vector g(q.size());
    const double a = shapeOf(q), h = 1e-5 * a;
    const double trigamma = (digamma(a + h) - digamma(a - h)) / (2 * h);
    if (q.family == PositiveFamily::Gamma)
        g(0) = a * (1.0 + (1.0 - a) * trigamma);
    g(q.size() - 1) = -1.0;
    return g;
}

/// dλ/d(log shape) of λ = λ̃ / β with λ̃ ~ Gamma(α, 1): α (−∂P(α, λ̃)/∂α) / p(λ̃; α) / β.
double implicitShapeDerivative(double alpha, double rate, double lambda) {
    const double x = lambda * rate, h = 1e-5 * alpha;
    const double dP = (gammaCdf(alpha + h, x) - gammaCdf(alpha - h, x)) / (2 * h);
    const double logDensity = (alpha - 1.0) * std::log(x) - x - std::lgamma(alpha);
    return alpha * (-dP / std::exp(logDensity)) / rate;
}

} // namespace

double positiveElbo(const PoissonGammaTarget& t, const PositiveQ& q) {
    const double a = shapeOf(q), logRate = q.logRate, b = std::exp(logRate);
    const double eLog = digamma(a) - logRate, eLambda = a / b;
    double logFactorials = 0.0;
    for (const int y : t.counts)
        logFactorials += std::lgamma(y + 1.0);
    const double eLogJoint = (t.posteriorShape() - 1.0) * eLog - t.posteriorRate() * eLambda -
                             logFactorials + t.priorShape * std::log(t.priorRate) -
                             std::lgamma(t.priorShape);
    const double entropy = a - logRate + std::lgamma(a) + (1.0 - a) * digamma(a);
    return eLogJoint + entropy;
}

PositiveQ positiveOptimum(const PoissonGammaTarget& t, PositiveFamily family) {
    PositiveQ q;
    q.family = family;
    if (family == PositiveFamily::Gamma) {
        q.logShape = std::log(t.posteriorShape());
        q.logRate = std::log(t.posteriorRate());
    } else {
        q.logRate = std::log(t.posteriorRate() / t.posteriorShape());
    }
    return q;
}

Vector positiveGradient(const PoissonGammaTarget& t, const PositiveQ& q, GradientEstimator e,
                        int samples, Rng& rng) {
    if (samples < 1 || (e == GradientEstimator::ScoreBaseline && samples < 2))
        throw std::invalid_argument("the estimator needs more draws");
    const double a = shapeOf(q), b = std::exp(q.logRate);
    const double A = t.posteriorShape(), B = t.posteriorRate();
    std::vector<double> f(static_cast<std::size_t>(samples));
    Matrix scores(q.size(), samples);
    Vector g = Vector::Zero(q.size());
    for (int s = 0; s < samples; ++s) {
        const double lambda = rng.gamma(a) / b;
        if (e == GradientEstimator::Reparam) {
            const double df = (A - 1.0) / lambda - B; // f'(λ)
            if (q.family == PositiveFamily::Gamma)
                g(0) += df * implicitShapeDerivative(a, b, lambda);
            g(q.size() - 1) += df * -lambda; // dλ/d(log rate) = −λ
            continue;
        }
        f[static_cast<std::size_t>(s)] = t.logJoint(lambda);
        if (q.family == PositiveFamily::Gamma) // ∂ log q / ∂(log α, log β)
            scores(0, s) = a * (q.logRate - digamma(a) + std::log(lambda));
        scores(q.size() - 1, s) = a - b * lambda;
    }
    if (e != GradientEstimator::Reparam) {
        const double fBar = std::accumulate(f.begin(), f.end(), 0.0) / samples;
        const bool baseline = e == GradientEstimator::ScoreBaseline;
        for (int s = 0; s < samples; ++s)
            g += (f[static_cast<std::size_t>(s)] - (baseline ? fBar : 0.0)) * scores.col(s);
        return g / (baseline ? samples - 1.0 : samples) + entropyGradient(q);
    }
    return g / samples + entropyGradient(q);
}

MixtureLatentTarget MixtureLatentTarget::synthetic(std::uint64_t seed, int n) {
    Rng rng(seed);
    MixtureLatentTarget t;
    t.x.resize(n);
    for (int i = 0; i < n; ++i)
        t.x(i) = (rng.uniform() < t.weight ? t.mean1 : t.mean0) + t.sd * rng.normal();
    return t;
}

double MixtureLatentTarget::logJoint(Eigen::Index n, int z) const {
    const double mean = z == 1 ? mean1 : mean0, r = (x(n) - mean) / sd;
    return std::log(z == 1 ? weight : 1.0 - weight) - 0.5 * r * r - std::log(sd) - 0.5 * kLog2Pi;
}

namespace {
double sigmoid(double v) {
    return 1.0 / (1.0 + std::exp(-v));
}
} // namespace

double bernoulliElbo(const MixtureLatentTarget& t, const Vector& logits) {
    double elbo = 0.0;
    for (Eigen::Index n = 0; n < t.x.size(); ++n) {
        const double s = sigmoid(logits(n));
        elbo +=
            s * (t.logJoint(n, 1) - std::log(s)) + (1 - s) * (t.logJoint(n, 0) - std::log1p(-s));
    }
    return elbo;
}

Vector bernoulliOptimum(const MixtureLatentTarget& t) {
    Vector logits(t.x.size());
    for (Eigen::Index n = 0; n < t.x.size(); ++n)
        logits(n) = t.logJoint(n, 1) - t.logJoint(n, 0);
    return logits;
}

Vector bernoulliGradient(const MixtureLatentTarget& t, const Vector& logits, GradientEstimator e,
                         int samples, Rng& rng) {
    if (e == GradientEstimator::Reparam)
        throw std::invalid_argument("a Bernoulli z has no reparameterisation: a draw is not a "
                                    "differentiable function of the logits and noise (use "
                                    "score or score-baseline)");
    if (samples < 1 || (e == GradientEstimator::ScoreBaseline && samples < 2))
        throw std::invalid_argument("the estimator needs more draws");
    const Eigen::Index N = t.x.size();
    Vector s(N), entropy(N); // σ(φ_n) and ∂H/∂φ_n = s (1 − s) (log(1 − s) − log s) = −s(1−s)φ
    for (Eigen::Index n = 0; n < N; ++n) {
        s(n) = sigmoid(logits(n));
        entropy(n) = -s(n) * (1 - s(n)) * logits(n);
    }
    Vector f(samples);
    Matrix scores(N, samples); // ∂ log q(z) / ∂φ_n = z_n − s_n
    for (int k = 0; k < samples; ++k) {
        f(k) = 0.0;
        for (Eigen::Index n = 0; n < N; ++n) {
            const int z = rng.uniform() < s(n) ? 1 : 0;
            f(k) += t.logJoint(n, z);
            scores(n, k) = z - s(n);
        }
    }
    if (e == GradientEstimator::ScoreBaseline)
        return scores * (f.array() - f.mean()).matrix() / (samples - 1.0) + entropy;
    return scores * f / samples + entropy;
}

} // namespace fa
