#pragma once
// The posterior lab's data and prior flags, shared by `posterior` and `grad-variance`.
#include "app/cli/ArgParser.h"
#include "core/posterior/PosteriorLab.h"

namespace fa::cli {
/// The posterior lab's field ranges (ui/posterior/PosteriorControls.cpp), which the CLI's
/// posterior and grad-variance options share: K, the VIFA learning rates, VIPPCA's σ.
constexpr int kPosteriorLatentMax = 1000;
constexpr double kVifaRateMin = 1e-7, kVifaRateMax = 10.0;
constexpr double kVippcaSigmaMin = 1e-8, kVippcaSigmaMax = 100.0;
/// --dataset, --target, --data-dir, --n, --inputs, --correlation, --train-fraction, --bias,
/// --hyper, --alpha, --beta.
PosteriorSetup parsePosteriorSetup(const ArgParser& args);
/// synthetic, logistic-synthetic, bimodal-synthetic: data made, not read from a file.
bool isGeneratedPosteriorSet(const std::string& dataset);
/// args.real(name) that must be positive.
double positive(const ArgParser& args, const std::string& name, double fallback);
} // namespace fa::cli
