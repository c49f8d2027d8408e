#pragma once
// The nonlinear-FA lab's parameters, described once (core/lab/Params.h): the fitters' options,
// the data, and what the CLI's experiment (VaeConfig) and the window's live run (VaeLiveConfig)
// add. faexplorer-cli vae, the session files, the page's fields and the core's checks read them.
#include "core/lab/Params.h"
#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeLive.h"

namespace fa {

/// Every hidden layer of a decoder or encoder: 1 to this many units; at most kMaxHiddenLayers.
constexpr int kMaxHiddenUnits = 10000, kMaxHiddenLayers = 3;

const Schema<VaeOptions>& vaeFitParams();
const Schema<VaeDataSpec>& vaeDataParams();
/// faexplorer-cli vae: the fit and the data, epochs, trials, the scoring's samples, the seed.
const Schema<VaeConfig>& vaeParams();
/// The window's run: the fit and the data, the run's length and the seed.
const Schema<VaeLiveConfig>& vaeLiveParams();

} // namespace fa
