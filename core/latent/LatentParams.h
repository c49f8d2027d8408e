#pragma once
// The latent lab's parameters, described once (core/lab/Params.h): the fitters' options, the
// generated data (latentDataParams, core/data/LatentData.h), and what the CLI's experiment
// (LatentConfig) and the window's live run (LatentLiveConfig) add. faexplorer-cli latent, the
// session files, the page's fields and the core's checks read them. (Model-dependent defaults, such
// as K = 1 and D = 3 for the mixture, are set by the CLI and the page on top.)
#include "core/lab/Params.h"
#include "core/latent/LatentExperiment.h"
#include "core/latent/LatentLive.h"

namespace fa {

const Schema<LatentFitOptions>& latentFitParams();
/// faexplorer-cli latent: the fit and the data, iterations, trials, the seed, the mixture's noise.
const Schema<LatentConfig>& latentParams();
/// The window's run: the fit and the data, the run's length and the seed.
const Schema<LatentLiveConfig>& latentLiveParams();

} // namespace fa
