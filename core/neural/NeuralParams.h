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

} // namespace fa
