#include "core/posterior/PosteriorParams.h"

namespace fa {

namespace {
constexpr ParamKind W = ParamKind::Whole, R = ParamKind::Real;

/// The run's epochs and the seed: members of both configurations (the window's seed also in
/// its sessions). Functions, not constants: other files' static options read the schemas.
ParamInfo epochsInfo() {
    const char* help = "Epochs in the run (each trial's in the CLI; 1000 there for SGD methods "
                       "alone): it stops there, finished; a change takes effect at once, without "
                       "a restart.";
    return {"epochs", "", "epochs", W, 1, static_cast<double>(kMaxRunLength), help};
}
ParamInfo seedInfo(const std::string& session) {
    const char* help =
        "Seed of the data (synthetic), the split, SGD and VIFA's draws (the CLI derives each "
        "trial's from it).";
    return {"seed", session, "seed", W, 0, kMaxSeed, help};
}
} // namespace

const Schema<PosteriorSetup>& posteriorDataParams() {
    static const Schema<PosteriorSetup> s = [] {
        Schema<PosteriorSetup> v;
        appendNested(v,
                     Schema<SyntheticRecipe>{field({"n", "data.syntheticRows", "synthetic N", W, 2,
                                                    1e7, "Rows N of the synthetic data set."},
                                                   &SyntheticRecipe::samples)},
                     &PosteriorSetup::synthetic);
        v.push_back(field({"train-fraction", "data.trainFraction", "train share", R, 0, 1,
                           "Share of rows used for training (and for the exact posterior); 0 = "
                           "automatic: all for synthetic data, half for real data."},
                          &PosteriorSetup::trainFraction));
        v.push_back(
            field({"alpha", "data.alpha", "prior precision α", R, kPrecisionMin, kPrecisionMax,
                   "Prior precision α, by hand (--hyper manual, which --alpha or --beta "
                   "implies)."},
                  &PosteriorSetup::alpha));
        v.push_back(
            field({"beta", "data.beta", "noise precision β", R, kPrecisionMin, kPrecisionMax,
                   "Noise precision β, by hand (--hyper manual, which --alpha or --beta "
                   "implies)."},
                  &PosteriorSetup::beta));
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<PosteriorSetup>& posteriorDataCliParams() {
    static const Schema<PosteriorSetup> s = [] {
        Schema<PosteriorSetup> v = posteriorDataParams();
        appendNested(
            v,
            Schema<SyntheticRecipe>{
                field({"inputs", "", "synthetic inputs", W, 1, 1e5,
                       "Inputs of the synthetic data set (its parameters, without a bias)."},
                      &SyntheticRecipe::inputs),
                field({"correlation", "", "input correlation", R, -1, 1,
                       "Correlation of the synthetic inputs (below 1, above -1/(inputs - 1))."},
                      &SyntheticRecipe::correlation)},
            &PosteriorSetup::synthetic);
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<PosteriorRunOptions>& posteriorRunParams() {
    static const Schema<PosteriorRunOptions> s = [] {
        Schema<PosteriorRunOptions> v{
            field({"latent", "run.latent", "latent K", W, 1, 1000,
                   "Latent dimension K of every FA approximation (K < D)."},
                  &PosteriorRunOptions::latent)};
        appendNested(
            v,
            Schema<VifaOptions>{
                field({"batch", "run.batch", "batch M", W, 1, 1e6, "VIFA's mini-batch size M."},
                      &VifaOptions::batch),
                field({"samples", "run.samples", "samples L", W, 1, 1e4,
                       "L: VIFA averages this many mini-batch gradients per update."},
                      &VifaOptions::samples),
                field({"lr-c", "run.lrC", "VIFA η for c", R, 1e-7, 10,
                       "VIFA's learning rate for the mean c."},
                      &VifaOptions::lrC),
                field({"lr-f", "run.lrF", "VIFA η for F", R, 1e-7, 10,
                       "VIFA's learning rate for the factors F."},
                      &VifaOptions::lrF),
                field({"lr-gamma", "run.lrGamma", "VIFA η for log ψ", R, 1e-7, 10,
                       "VIFA's learning rate for γ = log ψ."},
                      &VifaOptions::lrGamma),
                field({"max-grad-norm", "run.maxGradNorm", "clip norm", R, 0, 1e9,
                       "Each averaged gradient is clipped to this norm (report code: 10); 0 = "
                       "off."},
                      &VifaOptions::maxGradNorm)},
            &PosteriorRunOptions::vifa);
        v.push_back(field(
            {"sigma", "run.sigma", "VIPPCA σ", R, 1e-8, 100, "VIPPCA's fixed variance σ (Ψ = σI)."},
            &PosteriorRunOptions::vippcaSigma));
        appendNested(v,
                     Schema<SgdOptions>{
                         field({"sgd-lr", "run.sgdLearningRate", "SGD learning rate", R, 1e-5, 1,
                                "SGD's learning rate η (live in the window, on a log scale); "
                                "larger rates widen the iterate cloud."},
                               &SgdOptions::learningRate),
                         field({"sgd-batch", "run.sgdBatch", "SGD batch", W, 1, 1e6,
                                "SGD's mini-batch size (thesis: 32)."},
                               &SgdOptions::batch)},
                     &PosteriorRunOptions::sgd);
        v.push_back(field({"warmup-epochs", "run.warmupEpochs", "warm-up epochs", W, 0, 1e5,
                           "SGD epochs before iterates reach the FA fitters (thesis: 10)."},
                          &PosteriorRunOptions::warmupEpochs));
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<PosteriorConfig>& posteriorParams() {
    static const Schema<PosteriorConfig> s = [] {
        Schema<PosteriorConfig> v;
        appendNested(v, posteriorDataCliParams(), &PosteriorConfig::setup);
        appendNested(v, posteriorRunParams(), &PosteriorConfig::run);
        appendNested(v,
                     Schema<PosteriorRunOptions>{
                         field({"fa-warmup", "", "FA warm-up", W, 0, 1e8,
                                "Online EM and SGA updates during which F and ψ stay fixed."},
                               &PosteriorRunOptions::faWarmup),
                         field({"sga-lr", "", "SGA learning rate", R, kLearningRateMin,
                                kLearningRateMax, "Online SGA's learning rate (thesis: 0.001)."},
                               &PosteriorRunOptions::sgaLearningRate)},
                     &PosteriorConfig::run);
        v.push_back(field(epochsInfo(), &PosteriorConfig::epochs));
        v.push_back(field({"every", "", "checkpoint period", W, 1, 1e8,
                           "Epochs between scored checkpoints; the last epoch is always scored."},
                          &PosteriorConfig::every));
        v.push_back(field({"trials", "", "trials", W, 1, 1e5,
                           "Independent trials (data and starts from seeds derived from --seed)."},
                          &PosteriorConfig::trials));
        v.push_back(field(seedInfo(""), &PosteriorConfig::seed));
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<PosteriorLiveConfig>& posteriorLiveParams() {
    static const Schema<PosteriorLiveConfig> s = [] {
        Schema<PosteriorLiveConfig> v;
        appendNested(v, posteriorDataParams(), &PosteriorLiveConfig::setup);
        appendNested(v, posteriorRunParams(), &PosteriorLiveConfig::run);
        v.push_back(field(epochsInfo(), &PosteriorLiveConfig::length));
        v.push_back(field(seedInfo("data.seed"), &PosteriorLiveConfig::seed));
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<GpOptimiseOptions>& gpOptimiserParams() {
    static const Schema<GpOptimiseOptions> s = withDefaults<GpOptimiseOptions>(
        {field({"restarts", "gp.restarts", "restarts", W, 1, 100,
                "Starts of the hyperparameters' L-BFGS: the default, then random ones around it."},
               &GpOptimiseOptions::restarts),
         field({"iterations", "gp.iterations", "iterations", W, 1, 1e5,
                "L-BFGS iterations per start at most."},
               &GpOptimiseOptions::iterations)});
    return s;
}

const Schema<GpConfig>& gpParams() {
    static const Schema<GpConfig> s = [] {
        Schema<GpConfig> v;
        v.push_back(field({"trials", "", "trials", W, 1, 1e5,
                           "Trials: trial t fits every kernel on split t (neural's split t)."},
                          &GpConfig::trials));
        v.push_back(field({"train-fraction", "", "train share", R, 0, 1,
                           "Share of the rows each split trains on (strictly between 0 and 1)."},
                          &GpConfig::trainFraction));
        v.push_back(field({"seed", "", "seed", W, 0, kMaxSeed,
                           "Seed of the splits (neural's, for the same --seed) and of the "
                           "optimiser's random starts."},
                          &GpConfig::seed));
        appendNested(v, gpOptimiserParams(), &GpConfig::optimiser);
        return withDefaults(std::move(v));
    }();
    return s;
}

} // namespace fa
