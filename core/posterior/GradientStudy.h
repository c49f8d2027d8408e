#pragma once
// The window's gradient panel (issue 13): at a fit's current q, the spread of each gradient
// estimator — a cloud of mean-block estimates in the view's two coordinates at the fit's own L,
// and each block's total variance against L = 1, 10, 100 — computed on the worker thread from a
// copy of q (the fit itself does not move). Draws use at most 1000 rows of the training set
// (a fresh random subset per estimate when there are more; each estimate stays unbiased).
#include "core/posterior/PosteriorLab.h"

#include <array>
#include <vector>

namespace fa {

struct GradientStudy {
    PosteriorMethod method = PosteriorMethod::ViFull;
    long epoch = 0;
    int samples = 10; ///< L of the clouds (the fit's)
    int coordI = 0, coordJ = 1;
    struct Estimator {
        GradientEstimator estimator;
        std::vector<Eigen::Vector2d> cloud; ///< mean-block estimates at (coordI, coordJ)
        std::array<int, 3> sampleCounts{1, 10, 100};
        std::array<double, 3> meanVariance{}, scaleVariance{}; ///< NaN where not defined
    };
    std::vector<Estimator> estimators; ///< reparam, score, score-baseline
};

/// Studies q = N(model.c, model's covariance) of a vi-full or vi-meanfield fit. Throws
/// std::invalid_argument for another method.
GradientStudy studyGradients(const PosteriorProblem& problem, const PosteriorRunOptions& run,
                             PosteriorMethod method, const FAModel& q, int coordI, int coordJ,
                             int trials, std::uint64_t seed);

} // namespace fa
