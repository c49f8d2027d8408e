#include "core/latent/LatentParams.h"

#include "core/fa/OnlineFitter.h"

namespace fa {

namespace {
constexpr ParamKind W = ParamKind::Whole, R = ParamKind::Real;

} // namespace

const Schema<LatentFitOptions>& latentFitParams() {
    static const Schema<LatentFitOptions> s = withDefaults<LatentFitOptions>(
        {field({"latent", "run.latent", "latent K", W, 1, 10000,
                "Latent dimension K of the fitted model (K < D; per piece for the mixture)."},
               &LatentFitOptions::latent),
         field({"components", "run.components", "components C", W, 1, 1000,
                "Components C of the mixture (--model mppca)."},
               &LatentFitOptions::components),
         field({"chains", "run.chains", "Gibbs chains", W, 1, 64,
                "Gibbs: chains from dispersed starts."},
               &LatentFitOptions::chains),
         field({"burn-in", "run.burnIn", "Gibbs burn-in", W, 0, 1e7,
                "Gibbs: sweeps discarded before draws are kept."},
               &LatentFitOptions::burnIn),
         field({"lr", "run.learningRate", "SGA rate", R, kLearningRateMin, kLearningRateMax,
                "Online SGA's learning rate (one pass over the rows per iteration)."},
               &LatentFitOptions::learningRate),
         field({"alpha", "run.alpha", "prior α", R, 0, 1e8,
                "PPCA's MAP (--model ppca --prior independent): each loading ~ N(0, 1/α).", true},
               &LatentFitOptions::alpha)});
    return s;
}

namespace {
/// The lab's own data parameter (the nonlinear lab shares latentDataParams, not this).
const Schema<LatentDataSpec>& hideParams() {
    static const Schema<LatentDataSpec> s = withDefaults<LatentDataSpec>(
        {field({"hide-fraction", "data.hideFraction", "hidden share", R, 0, 0.9,
                "Share of the fitting rows' entries hidden at random; PPCA's EM fills them "
                "(E[x_miss | x_obs]), scored against the hidden values.",
                true},
               &LatentDataSpec::hideFraction),
         field({"hide-block", "data.hideBlock", "hidden square", W, 0, 27,
                "Pictures: in every fitting image, a square of this side (pixels) hidden at a "
                "random place; PPCA's EM fills it. 0: none.",
                true},
               &LatentDataSpec::hideBlock)});
    return s;
}
} // namespace

const Schema<LatentConfig>& latentParams() {
    static const Schema<LatentConfig> s = [] {
        Schema<LatentConfig> v;
        appendNested(v, latentFitParams(), &LatentConfig::fit);
        appendNested(v, latentDataParams(), &LatentConfig::data);
        appendNested(v, hideParams(), &LatentConfig::data);
        v.push_back(field({"iterations", "", "iterations", W, 1, 1e7,
                           "EM iterations, Gibbs sweeps or passes over the rows; checkpoints at "
                           "1, 2, 5, 10, 20, 50 …."},
                          &LatentConfig::iterations));
        v.push_back(field({"trials", "", "trials", W, 1, 10000,
                           "Independent splits and starts (seeds derived from --seed)."},
                          &LatentConfig::trials));
        v.push_back(field({"seed", "", "seed", W, 0, kMaxSeed,
                           "Seed of the split, the generated data and every start."},
                          &LatentConfig::seed));
        Schema<LatentDataSpec> noise; // the CLI's alone: the generated mixture's σ²
        appendNested(noise,
                     Schema<SyntheticLatentSpec>{
                         field({"noise", "", "mixture noise", R, 1e-8, 1e6,
                                "Generated mixture (--model mppca): σ² of every piece."},
                               &SyntheticLatentSpec::mixtureNoise)},
                     &LatentDataSpec::synthetic);
        appendNested(v, noise, &LatentConfig::data);
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<LatentLiveConfig>& latentLiveParams() {
    static const Schema<LatentLiveConfig> s = [] {
        Schema<LatentLiveConfig> v;
        appendNested(v, latentFitParams(), &LatentLiveConfig::fit);
        appendNested(v, latentDataParams(), &LatentLiveConfig::data);
        appendNested(v, hideParams(), &LatentLiveConfig::data);
        v.push_back(field({"iterations", "run.length", "iterations", W, 1, 1e7,
                           "Iterations in the run (EM iterations, Gibbs sweeps, passes over the "
                           "rows)."},
                          &LatentLiveConfig::length));
        appendNested(
            v,
            Schema<LatentDataSpec>{field({"seed", "data.seed", "seed", W, 0, kMaxSeed,
                                          "Seed of the split, the generated data and every start."},
                                         &LatentDataSpec::modelSeed)},
            &LatentLiveConfig::data);
        return withDefaults(std::move(v));
    }();
    return s;
}

} // namespace fa
