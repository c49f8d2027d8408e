#pragma once
// The FA explorer's parameters, described once (core/lab/Params.h): the true model and the
// online fitters' settings shared by faexplorer-cli fa-sweep (FaSweepConfig) and the window's
// live run (ExplorerConfig), and what each adds (the sweep's trials; the run's fitted K and
// length). The spectrum [a, b] is a pair (--spectrum a:b, two fields) with its own shared range,
// kSpectrumMin..kSpectrumMax (core/fa/ModelGenerator.h).
#include "core/explorer/FaSweep.h"
#include "core/explorer/LiveExplorer.h"
#include "core/lab/Params.h"

namespace fa {

const Schema<GeneratorSpec>& generatorParams();
/// faexplorer-cli fa-sweep.
const Schema<FaSweepConfig>& faSweepParams();
/// The window's run.
const Schema<ExplorerConfig>& explorerParams();

} // namespace fa
