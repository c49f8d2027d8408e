#pragma once
// The posterior lab's parameters, described once (core/lab/Params.h): the data and the prior, the
// approximations' options shared by faexplorer-cli posterior (PosteriorConfig) and the window's
// live run (PosteriorLiveConfig), and what each adds (the CLI: the generated inputs and their
// correlation, the online fitters' warm-up and SGA's rate, checkpoints and trials; both: the run's
// epochs and the seed). The CLI's posterior, grad-variance and vi-bound, the session files, the
// page's fields and the core's checks read them. (Method-dependent defaults, such as 1000 epochs
// for SGD methods alone, and α, β of a generated target, are set by the CLI on top.)
#include "core/lab/Params.h"
#include "core/posterior/GpExperiment.h"
#include "core/posterior/PosteriorLive.h"

namespace fa {

/// The data and the prior the window and sessions hold: synthetic N, the training share, α, β.
const Schema<PosteriorSetup>& posteriorDataParams();
/// posteriorDataParams and the generated data's inputs and their correlation: the data options of
/// every command that reads PosteriorSetup (posterior, grad-variance, vi-bound).
const Schema<PosteriorSetup>& posteriorDataCliParams();
/// The approximations' options the window shows too: K, VIFA's and SGD's settings, VIPPCA's σ.
const Schema<PosteriorRunOptions>& posteriorRunParams();
/// faexplorer-cli posterior.
const Schema<PosteriorConfig>& posteriorParams();
/// The window's run.
const Schema<PosteriorLiveConfig>& posteriorLiveParams();
/// The Gaussian processes' optimiser (restarts, iterations): faexplorer-cli gp and a window.
const Schema<GpOptimiseOptions>& gpOptimiserParams();
/// faexplorer-cli gp (the training fraction's range is closed here; runGp also refuses 0 and 1).
const Schema<GpConfig>& gpParams();

} // namespace fa
