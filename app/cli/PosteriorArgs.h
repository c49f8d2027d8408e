#pragma once
// The posterior lab's data and prior flags, shared by `posterior` and `grad-variance`.
#include "app/cli/ArgParser.h"
#include "core/posterior/PosteriorLab.h"

namespace fa::cli {
/// --dataset, --target, --data-dir, --n, --inputs, --correlation, --train-fraction, --bias,
/// --hyper, --alpha, --beta.
PosteriorSetup parsePosteriorSetup(const ArgParser& args);
/// args.real(name) that must be positive.
double positive(const ArgParser& args, const std::string& name, double fallback);
} // namespace fa::cli
