#pragma once
// The nonlinear-FA lab's data: generated nonlinear FA (a 1- to 3-D latent through a fixed random
// tanh network into D dimensions, plus noise), 2-D manifolds lifted into D dimensions (two moons,
// a pinwheel) and the swiss roll (a 2-D sheet rolled in 3-D, lifted), generated PPCA data (the
// explorer's generator, PPCA the truth), the bundled UCI sets and any CSV (z-scored with the
// fitting rows' statistics). Generated manifolds carry each row's position along the manifold,
// for colouring the latent space.
#include "core/data/LatentData.h"

#include <string>
#include <vector>

namespace fa {

struct VaeDataSpec {
    std::string dataset = "nonlinear-synthetic"; ///< a generated set, a UCI name or a CSV path
    int dim = 10;                                ///< generated sets: D
    int samples = 2000;                          ///< generated sets: rows before the split
    int trueLatent = 2; ///< synthetic (PPCA) and nonlinear-synthetic: the latent size
    double spectrumLo = 1.0, spectrumHi = 10.0; ///< synthetic: the generator's s² range
    double noise = 0.1; ///< manifolds and nonlinear-synthetic: the noise's standard deviation
    double testFraction = 0.2;
    ImageQuery images; ///< an image set's rows (core/data/LatentData.h: LatentDataSpec::images)
    std::uint64_t splitSeed = 0, modelSeed = 0;
};

/// "synthetic", "nonlinear-synthetic", "two-moons", "swiss-roll", "pinwheel".
const std::vector<std::string>& generatedVaeSets();
bool isGeneratedVaeSet(const std::string& name);

struct VaeData {
    LatentData rows; ///< train / test rows (N x D), names, columns
    /// Along the manifold, or a picture's class (empty for other sets).
    Vector trainPosition, testPosition;
    std::string positionName; ///< what the position is ("t", "z1", "arm", "class")
};

/// Throws std::invalid_argument with a reason (bad sizes, a bad file, a constant column).
VaeData makeVaeData(const VaeDataSpec& spec, const TableLoader& loader);

} // namespace fa
