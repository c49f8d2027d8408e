#pragma once
// The posterior lab's "Gaussian processes" view (issue 28 item 1; docs/maths/gp.md §8): on the
// 1-D in-between set (core/data/InBetween.h) the predictive of a GP with each kernel (hyper-
// parameters by type-II maximum likelihood on the standardised rows), over the set's grid, on the
// target's own scale; and the "width -> infinity" lesson: prior functions of random one-hidden-
// layer networks with H units beside draws from the GP with the same network's kernel, and over
// H = 1 ... 1000 the covariance of f(x1), f(x2) against the kernel and f(x1)'s excess kurtosis.
// One call computes all of it (about a second); the window runs it off its thread.
#include "core/posterior/NetworkPrior.h"

#include <array>
#include <atomic>
#include <vector>

namespace fa {

struct GpLessonConfig {
    GpKernel units = GpKernel::NnErf; ///< the networks' units: nn-erf or nn-relu
    int hidden = 10;                  ///< H of the drawn networks
    int draws = 6;                    ///< functions drawn of each kind
    long checkDraws = 20000;          ///< networks per H in the convergence check
    std::uint64_t seed = 0;
};
/// The widths the convergence check measures, and the choices of GpLessonConfig::hidden.
inline constexpr std::array<int, 7> kLessonWidths{1, 3, 10, 30, 100, 300, 1000};
inline constexpr std::array<int, 4> kLessonDrawWidths{1, 10, 100, 1000};
/// The seed of the bands' hyperparameter search (the same bands whatever is drawn).
inline constexpr std::uint64_t kLessonFitSeed = 0;
/// The two inputs of the convergence check.
inline constexpr double kLessonX1 = -0.5, kLessonX2 = 1.0;

/// One kernel's predictive of y over the grid, on the target's scale.
struct GpLessonBand {
    GpKernel kernel = GpKernel::SquaredExp;
    Vector mean, sd;          ///< of y: f's variance plus the noise's
    double logMarginal = 0.0; ///< of the standardised rows, at the optimum
    GpHyper hyper;            ///< the optimum, for the standardised rows
    bool ok = false;
};

struct GpLesson {
    GpLessonConfig config;
    Vector trainX, trainY;                    ///< the in-between rows
    Vector gridX;                             ///< the grid of the bands and of the draws
    std::vector<GpLessonBand> bands;          ///< se, linear, nn-erf, nn-relu
    Matrix networkDraws, gpDraws;             ///< grid x draws: prior functions
    std::vector<CovarianceCheck> convergence; ///< one per kLessonWidths
};

/// Throws std::invalid_argument for units other than nn-erf / nn-relu, H < 1 or fewer than one
/// draw, or fewer than two check draws. A raised cancel ends it early; what it returns then is
/// partial and not to be shown. The bands depend on nothing in config (their optimiser starts
/// from a fixed seed) and the convergence check on the units, the check draws and the seed:
/// with `previous`, a whole lesson computed before, what it shares with this one is copied,
/// not computed again (a new H only draws new functions).
GpLesson gpLesson(const GpLessonConfig& config, const std::atomic<bool>* cancel = nullptr,
                  const GpLesson* previous = nullptr);

/// One kernel's band over grid (a column) for the rows (X one column, y), fitted as gpLesson
/// fits it: standardise with the rows, optimiseGp, predict, scale back.
GpLessonBand gpBand(const Matrix& X, const Vector& y, const Matrix& grid, GpKernel kernel,
                    std::uint64_t seed);

} // namespace fa
