#include "core/neural/NeuralParams.h"

#include "core/fa/OnlineFitter.h"

namespace fa {

std::optional<std::string> neuralLabMethod(const std::string& name) {
    if (parseNeuralMethod(name) || parseIterateMethod(name))
        return name;
    return std::nullopt;
}

std::vector<int> hiddenLayers(const std::vector<long>& units, const std::string& name) {
    if (units.empty())
        throw std::invalid_argument(name + ": no layer");
    std::vector<int> out;
    for (const long h : units) {
        if (h < 1 || h > kMaxNeuralUnits)
            throw std::invalid_argument(name + ": every layer needs between 1 and " +
                                        std::to_string(kMaxNeuralUnits) + " units");
        out.push_back(static_cast<int>(h));
    }
    return out;
}

namespace {
constexpr ParamKind W = ParamKind::Whole, R = ParamKind::Real;
} // namespace

const Schema<NeuralFitOptions>& neuralFitParams() {
    static const Schema<NeuralFitOptions> s = withDefaults<NeuralFitOptions>(
        {field({"latent", "run.latent", "latent K", W, 1, 100, "Latent dimension K of q."},
               &NeuralFitOptions::latent),
         field({"batch", "run.batch", "batch M", W, 1, 1e5, "Mini-batch size M."},
               &NeuralFitOptions::batch),
         field({"samples", "run.samples", "samples L", W, 1, 1000,
                "L: gradients averaged per update."},
               &NeuralFitOptions::samples),
         field({"lr", "run.learningRate", "learning rate", R, 1e-6, 1,
                "Learning rate (c, F and log ψ alike), Adam by default as the report's code."},
               &NeuralFitOptions::learningRate),
         field({"epochs", "", "run length", W, 1, static_cast<double>(kMaxRunLength),
                "Epochs in the run (the report's 120; each fit's in the CLI): it stops there, "
                "finished; a change takes effect at once, without a restart."},
               &NeuralFitOptions::epochs)});
    return s;
}

const Schema<NeuralConfig>& neuralParams() {
    static const Schema<NeuralConfig> s = [] {
        Schema<NeuralConfig> v;
        appendNested(v, neuralFitParams(), &NeuralConfig::fit);
        appendNested(v,
                     Schema<NeuralFitOptions>{
                         field({"predictive-samples", "", "predictive draws", W, 1, 1e5,
                                "Networks drawn from q for the test predictive (NMLL and RMSE)."},
                               &NeuralFitOptions::predictiveSamples)},
                     &NeuralConfig::fit);
        v.push_back(field(
            {"splits", "", "splits", W, 1, 1000, "Seeded train/test splits (the report: 20)."},
            &NeuralConfig::splits));
        v.push_back(field({"search-trials", "", "search trials", W, 1, 1e5,
                           "Random-search trials per split and method (prior and noise "
                           "precision)."},
                          &NeuralConfig::searchTrials));
        v.push_back(
            field({"folds", "", "folds", W, 2, 100, "Folds of the search's cross-validation."},
                  &NeuralConfig::folds));
        v.push_back(field({"seed", "", "seed", W, 0, kMaxSeed,
                           "Seed of the splits, the initial weights and the draws."},
                          &NeuralConfig::seed));
        appendNested(v, iterateParams(), &NeuralConfig::iterate);
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<IterateFitOptions>& iterateParams() {
    // Session keys for the window's run; sessions written before issue 27 lack them.
    static const Schema<IterateFitOptions> s = [] {
        Schema<IterateFitOptions> v = withDefaults<IterateFitOptions>(
            {field({"members", "run.members", "members M", W, 1, 100,
                    "Independent runs of ensemble, multiswag and multi-swa-fa-em (the other SGD "
                    "methods are one run)."},
                   &IterateFitOptions::members),
             field({"rank", "run.rank", "rank K", W, 1, 1000,
                    "K of SWA-FA's online FA and of SWAG's last-K deviations."},
                   &IterateFitOptions::rank),
             field({"swa-start", "run.swaStart", "SWA start", W, 0,
                    static_cast<double>(kMaxRunLength),
                    "SGD epochs before the iterates are collected (below --epochs)."},
                   &IterateFitOptions::swaStart),
             field({"sgd-lr", "run.sgdLearningRate", "SGD learning rate", R, 1e-6, 1,
                    "Constant SGD step of map and the iterate methods, on the squared error of the "
                    "standardised target (on the log-likelihood: this / β)."},
                   &IterateFitOptions::learningRate),
             field({"sgd-batch", "run.sgdBatch", "SGD batch", W, 1, 1e5,
                    "Mini-batch size of map and the iterate methods."},
                   &IterateFitOptions::batch),
             field({"sga-lr", "run.sgaLearningRate", "SGA rate", R, kLearningRateMin,
                    kLearningRateMax,
                    "Online SGA's learning rate in swa-fa-sga (thesis: 0.001; too small there to "
                    "move "
                    "ψ from its start within a run, docs/results.md)."},
                   &IterateFitOptions::sgaLearningRate)});
        for (Param<IterateFitOptions>& p : v)
            p.sessionOptional = true;
        return v;
    }();
    return s;
}

const Schema<NeuralLiveConfig>& neuralLiveParams() {
    static const Schema<NeuralLiveConfig> s = [] {
        Schema<NeuralLiveConfig> v;
        appendNested(v, neuralFitParams(), &NeuralLiveConfig::fit);
        appendNested(
            v,
            Schema<NeuralHyper>{
                field({"", "hyper.priorPrecision", "prior precision", R, 1e-6, 1e6,
                       "Prior precision α (Laplace: rate √(2α), the same variance). The "
                       "splits table tunes it."},
                      &NeuralHyper::priorPrecision),
                field({"", "hyper.noisePrecision", "noise precision", R, 1e-6, 1e6,
                       "Noise precision β of the standardised target (25: noise sd = 0.2 "
                       "target sd)."},
                      &NeuralHyper::noisePrecision),
                field({"", "hyper.sigma", "VIPPCA σ", R, 1e-8, 100, "VIPPCA's fixed variance σ."},
                      &NeuralHyper::sigma)},
            &NeuralLiveConfig::hyper);
        v.push_back(field(
            {"", "data.split", "split", W, 0, 1000, "Which seeded 90/10 split the live run uses."},
            &NeuralLiveConfig::split));
        appendNested(v, iterateParams(), &NeuralLiveConfig::iterate);
        v.push_back(field({"seed", "data.seed", "seed", W, 0, kMaxSeed,
                           "Seed of the splits, the initial weights and the draws."},
                          &NeuralLiveConfig::seed));
        return withDefaults(std::move(v));
    }();
    return s;
}

} // namespace fa
