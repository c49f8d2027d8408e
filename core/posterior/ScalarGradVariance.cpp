// grad-variance on the families beyond the Gaussian (docs/maths/posterior.md §4.7): the same
// rows as the Gaussian study, at the exact optimum or at a fixed start.
#include "core/posterior/GradVariance.h"
#include "core/vi/ScalarFamilies.h"

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
    return studyCells({config.dataset, config.method, config.estimators, config.samples,
                       config.trials, config.seed},
                      blocks, [&](GradientEstimator e, int S, Rng& rng) {
                          const Vector g = estimate(e, S, rng);
                          if (blocks.size() == 1)
                              return std::vector<Vector>{g};
                          std::vector<Vector> split; // one entry per block
                          for (Eigen::Index b = 0; b < g.size(); ++b)
                              split.push_back(g.segment(b, 1));
                          return split;
                      });
}

} // namespace fa
