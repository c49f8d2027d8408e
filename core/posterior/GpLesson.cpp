#include "core/posterior/GpLesson.h"

#include "core/data/InBetween.h"

#include <cmath>
#include <stdexcept>

namespace fa {
namespace {

struct Scale {
    double mean = 0.0, sd = 1.0;
};
/// The mean and the standard deviation (ddof 0) of v; a constant's sd is taken as 1.
Scale scaleOf(const Vector& v) {
    const double m = v.mean();
    const double sd = std::sqrt((v.array() - m).square().mean());
    return {m, sd > 0.0 ? sd : 1.0};
}

} // namespace

GpLessonBand gpBand(const Matrix& X, const Vector& y, const Matrix& grid, GpKernel kernel,
                    std::uint64_t seed) {
    const Scale sx = scaleOf(X.col(0)), sy = scaleOf(y);
    const Matrix Xs = (X.array() - sx.mean) / sx.sd;
    const Vector ys = (y.array() - sy.mean) / sy.sd;
    GpLessonBand band{kernel, {}, {}, 0.0, {}, false};
    const GpTrained trained = optimiseGp(Xs, ys, kernel, {}, seed);
    if (!trained.ok)
        return band;
    const GpRegression gp(Xs, ys, trained.hyper);
    if (!gp.ok())
        return band;
    const GpPrediction p = gp.predict((grid.array() - sx.mean) / sx.sd);
    band.mean = (p.mean.array() * sy.sd + sy.mean).matrix();
    band.sd = (p.varY.array().max(0.0).sqrt() * sy.sd).matrix();
    band.logMarginal = gp.logMarginal();
    band.hyper = trained.hyper;
    band.ok = true;
    return band;
}

GpLesson gpLesson(const GpLessonConfig& config, const std::atomic<bool>* cancel,
                  const GpLesson* previous) {
    if (config.draws < 1 || config.checkDraws < 2)
        throw std::invalid_argument("the lesson needs a draw and two check draws");
    const auto cancelled = [cancel] { return cancel && cancel->load(); };
    GpLesson lesson{config, {}, {}, {}, {}, {}, {}, {}};
    const RegressionData data = inBetweenData();
    const Matrix grid = inBetweenGrid();
    lesson.trainX = data.X.col(0);
    lesson.trainY = data.y;
    lesson.gridX = grid.col(0);
    const NetworkPrior prior{.units = config.units};
    lesson.networkDraws =
        drawNetworkFunctions(prior, config.hidden, grid, config.draws, config.seed);
    lesson.gpDraws = drawGpFunctions(networkKernel(prior), grid, config.draws, config.seed);
    const bool whole = previous && previous->bands.size() == allGpKernels().size() &&
                       previous->convergence.size() == kLessonWidths.size();
    if (whole)
        lesson.bands = previous->bands;
    else
        for (GpKernel kernel : allGpKernels()) {
            if (cancelled())
                return lesson;
            lesson.bands.push_back(gpBand(data.X, data.y, grid, kernel, kLessonFitSeed));
        }
    const GpLessonConfig* before = whole ? &previous->config : nullptr;
    if (before && before->units == config.units && before->checkDraws == config.checkDraws &&
        before->seed == config.seed) {
        lesson.convergence = previous->convergence;
        return lesson;
    }
    Vector x1(1), x2(1);
    x1 << kLessonX1;
    x2 << kLessonX2;
    for (int h : kLessonWidths) {
        if (cancelled())
            return lesson;
        lesson.convergence.push_back(
            networkCovariance(prior, h, x1, x2, config.checkDraws, config.seed + std::uint64_t(h)));
    }
    return lesson;
}

} // namespace fa
