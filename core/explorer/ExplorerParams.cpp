#include "core/explorer/ExplorerParams.h"

#include "core/fa/OnlineFitter.h"

namespace fa {

namespace {
constexpr ParamKind W = ParamKind::Whole, R = ParamKind::Real;

/// The learning rate, warm-up and seed: members of both configurations.
template <class Config> void appendFitting(Schema<Config>& v) {
    v.push_back(
        field({"lr", "fitting.learningRate", "learning rate", R, kLearningRateMin, kLearningRateMax,
               "SGA's learning rate η (thesis: 0.001); in the window it takes effect immediately."},
              &Config::learningRate));
    v.push_back(field({"warmup", "fitting.warmup", "warm-up", W, 0, 1e9,
                       "Warm-up: for the first observations only running averages update."},
                      &Config::warmup));
    v.push_back(field({"seed", "model.seed", "seed", W, 0, kMaxSeed,
                       "Seed of the model, the samples and the initial F (trial 0 of fa-sweep)."},
                      &Config::seed));
}
} // namespace

const Schema<GeneratorSpec>& generatorParams() {
    static const Schema<GeneratorSpec> s = withDefaults<GeneratorSpec>(
        {field({"dim", "model.dim", "D", W, 2, 1e8,
                "Observation dimension D of the true model θ = F h + c + ε."},
               &GeneratorSpec::dim),
         field({"latent", "model.latent", "K", W, 1, 1e6,
                "True latent dimension K: F is D × K, covariance F Fᵀ + Ψ (K < D)."},
               &GeneratorSpec::latent)});
    return s;
}

const Schema<FaSweepConfig>& faSweepParams() {
    static const Schema<FaSweepConfig> s = [] {
        Schema<FaSweepConfig> v;
        appendNested(v, generatorParams(), &FaSweepConfig::generator);
        appendFitting(v);
        v.push_back(field({"trials", "", "trials", W, 1, 1e5,
                           "Independent models and streams (seeds derived from --seed)."},
                          &FaSweepConfig::trials));
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<ExplorerConfig>& explorerParams() {
    static const Schema<ExplorerConfig> s = [] {
        Schema<ExplorerConfig> v;
        appendNested(v, generatorParams(), &ExplorerConfig::generator);
        appendFitting(v);
        v.push_back(field({"", "fitting.fitLatent", "fitted K", W, 1, 1e6,
                           "K of the fitted models; may differ from the true K (K < D)."},
                          &ExplorerConfig::fitLatent));
        v.push_back(field({"", "fitting.totalSamples", "samples", W, 1, 1e9, "Samples in the run."},
                          &ExplorerConfig::totalSamples));
        return withDefaults(std::move(v));
    }();
    return s;
}

} // namespace fa
