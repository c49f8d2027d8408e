#pragma once
// The posterior lab's data and prior flags, shared by `posterior`, `grad-variance` and
// `vi-bound`; their ranges are the lab's schema's (core/posterior/PosteriorParams.h).
#include "app/cli/ArgParser.h"
#include "core/posterior/PosteriorLab.h"

namespace fa::cli {
/// --dataset, --target, --data-dir, --n, --inputs, --correlation, --train-fraction, --bias,
/// --hyper, --alpha, --beta.
PosteriorSetup parsePosteriorSetup(const ArgParser& args);
/// synthetic, logistic-synthetic, bimodal-synthetic: data made, not read from a file.
bool isGeneratedPosteriorSet(const std::string& dataset);
} // namespace fa::cli
