#pragma once
// The neural lab's parameters, described once (core/lab/Params.h): the fit's options shared by
// faexplorer-cli neural (NeuralConfig) and the window's live run (NeuralLiveConfig), what each
// adds (the CLI: splits, the search, the predictive draws; the window: the prior, the noise,
// VIPPCA's σ and the split it shows). The live run's length is the fit's epochs.
#include "core/lab/Params.h"
#include "core/neural/NeuralLive.h"
#include "core/neural/NeuralRegression.h"

namespace fa {

const Schema<NeuralFitOptions>& neuralFitParams();
/// faexplorer-cli neural.
const Schema<NeuralConfig>& neuralParams();
/// The posteriors from the SGD iterates: members, rank, SWA start, SGD rate and batch.
const Schema<IterateFitOptions>& iterateParams();
/// The window's run.
const Schema<NeuralLiveConfig>& neuralLiveParams();

/// The hidden layers, one rule for the CLI's --hidden, sessions' run.hidden and the window: at
/// least one layer, each of 1 to kMaxNeuralUnits units. Throws std::invalid_argument
/// "<name>: every layer needs between 1 and 100000 units" (or "<name>: no layer").
inline constexpr long kMaxNeuralUnits = 100000;
std::vector<int> hiddenLayers(const std::vector<long>& units, const std::string& name);

/// The neural lab's methods are one list to the CLI's --method and a session's run.methods: a
/// VIFA fit's name or a posterior's from SGD iterates. The name, if it is either.
std::optional<std::string> neuralLabMethod(const std::string& name);
/// Each name of the list (neuralLabMethod's) into the configuration's VIFA fits or posteriors
/// from SGD iterates, in order.
template <class Config> void setNeuralMethods(Config& c, const std::vector<std::string>& names) {
    c.methods.clear();
    c.iterateMethods.clear();
    for (const std::string& name : names)
        if (const auto m = parseNeuralMethod(name))
            c.methods.push_back(*m);
        else if (const auto i = parseIterateMethod(name))
            c.iterateMethods.push_back(*i);
}

} // namespace fa
