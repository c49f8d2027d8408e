// grad-variance on the families beyond the Gaussian (docs/maths/posterior.md §4.7): the same
// rows as the Gaussian study, at the exact optimum or at a fixed start.
#include "core/posterior/GradVariance.h"
#include "core/vi/ScalarFamilies.h"

#include <chrono>
#include <functional>
#include <stdexcept>

namespace fa {

bool isScalarFamilySet(const std::string& dataset) {
    return dataset == "poisson-synthetic" || dataset == "bernoulli-latent";
}

namespace {

/// One estimate at the point of study, split into its named blocks.
using Estimate = std::function<Vector(GradientEstimator, int, Rng&)>;

Estimate studied(const ScalarGradVarianceConfig& c, std::vector<std::string>& blocks) {
    const std::uint64_t dataSeed = deriveSeed(c.seed, SeedStream::FirstTrial);
    if (c.dataset == "bernoulli-latent") {
        if (c.method != "vi-bernoulli")
            throw std::invalid_argument("bernoulli-latent takes --method vi-bernoulli");
        for (const GradientEstimator e : c.estimators)
            if (e == GradientEstimator::Reparam)
                throw std::invalid_argument(
                    "--estimator reparam does not exist for vi-bernoulli: a discrete z is not a "
                    "differentiable function of the logits and noise (use score, score-baseline)");
        const auto target = MixtureLatentTarget::synthetic(dataSeed);
        const Vector logits =
            c.atOptimum ? bernoulliOptimum(target) : Vector(Vector::Zero(target.x.size()));
        blocks = {"logits"};
        return [target, logits](GradientEstimator e, int s, Rng& rng) {
            return bernoulliGradient(target, logits, e, s, rng);
        };
    }
    if (c.dataset != "poisson-synthetic" ||
        (c.method != "vi-gamma" && c.method != "vi-exponential"))
        throw std::invalid_argument("poisson-synthetic takes --method vi-gamma or vi-exponential");
    const auto family =
        c.method == "vi-gamma" ? PositiveFamily::Gamma : PositiveFamily::Exponential;
    const auto target = PoissonGammaTarget::synthetic(dataSeed);
    PositiveQ q;
    q.family = family;
    if (c.atOptimum)
        q = positiveOptimum(target, family);
    blocks = family == PositiveFamily::Gamma ? std::vector<std::string>{"log-shape", "log-rate"}
                                             : std::vector<std::string>{"log-rate"};
    return [target, q](GradientEstimator e, int s, Rng& rng) {
        return positiveGradient(target, q, e, s, rng);
    };
}

} // namespace

std::vector<GradVarianceRow> runScalarGradVariance(const ScalarGradVarianceConfig& config) {
    std::vector<std::string> blocks;
    const Estimate estimate = studied(config, blocks);
    std::vector<GradVarianceRow> rows;
    for (std::size_t ei = 0; ei < config.estimators.size(); ++ei)
        for (std::size_t si = 0; si < config.samples.size(); ++si) {
            const GradientEstimator e = config.estimators[ei];
            const int S = config.samples[si];
            if (e == GradientEstimator::ScoreBaseline && S < 2)
                continue; // no leave-one-out baseline from one draw: no row
            Rng rng(deriveSeed(config.seed, SeedStream::GradVarianceCellBase, 64 * ei + si));
            const auto start = std::chrono::steady_clock::now();
            std::vector<std::vector<Vector>> draws(blocks.size());
            for (int t = 0; t < config.trials; ++t) {
                const Vector g = estimate(e, S, rng);
                for (std::size_t b = 0; b < blocks.size(); ++b) // one entry per block but logits
                    draws[b].push_back(blocks.size() == 1 ? g : g.segment(Eigen::Index(b), 1));
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            for (std::size_t b = 0; b < blocks.size(); ++b) {
                const auto [meanNorm, variance] = gradientSpread(draws[b]);
                rows.push_back({config.dataset, config.method, estimatorName(e), S, blocks[b],
                                meanNorm, variance, seconds});
            }
        }
    if (rows.empty())
        throw std::invalid_argument("no estimator and sample count give a row: the leave-one-out "
                                    "baseline needs S >= 2");
    return rows;
}

} // namespace fa
