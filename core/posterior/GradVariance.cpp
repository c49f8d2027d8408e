#include "core/posterior/GradVariance.h"

#include <chrono>
#include <numeric>
#include <stdexcept>

namespace fa {

std::vector<GradVarianceRow> runGradVariance(const GradVarianceConfig& config) {
    if (config.method != PosteriorMethod::ViFull && config.method != PosteriorMethod::ViMeanField)
        throw std::invalid_argument("grad-variance studies vi-full and vi-meanfield (the "
                                    "score-function estimators are not implemented for VIFA)");
    if (config.trials < 2)
        throw std::invalid_argument("grad-variance needs at least 2 estimates (--trials)");
    for (const int s : config.samples)
        if (s < 1)
            throw std::invalid_argument("every sample count S must be at least 1");
    const PosteriorProblem problem =
        preparePosteriorProblem(config.setup, deriveSeed(config.seed, 0));
    const auto likelihood = makeLikelihood(problem.target, problem.data.Xtrain, problem.data.ytrain,
                                           problem.hyper.beta);
    const bool full = config.method == PosteriorMethod::ViFull;
    GaussianViOptions o;
    o.family = full ? ViFamily::Full : ViFamily::MeanField;
    o.precision = problem.hyper.alpha;
    o.batch = config.run.vifa.batch;
    o.samples = config.run.vifa.samples;
    o.optimiser = config.run.vifa.optimiser;
    o.lrC = config.run.vifa.lrC, o.lrF = config.run.vifa.lrF, o.lrGamma = config.run.vifa.lrGamma;
    o.maxGradNorm = config.run.vifa.maxGradNorm;
    o.seed = deriveSeed(config.seed, posterior_streams::VifaStream);
    GaussianVi vi(*likelihood, o);
    using At = GradVarianceConfig::At;
    if (config.at == At::Optimum && problem.target == TargetKind::Linear) {
        const Matrix& S = problem.exact.cov;
        if (full) {
            vi.setState(problem.exact.mean, S.llt().matrixL());
        } else {
            const Vector lambdaDiag = S.inverse().diagonal();
            vi.setState(problem.exact.mean, lambdaDiag.cwiseInverse().cwiseSqrt().asDiagonal());
        }
    } else if (config.at != At::Start) {
        for (long e = 0; e < config.epoch && vi.status() == FitStatus::Running; ++e)
            vi.runEpoch();
        if (vi.status() != FitStatus::Running)
            throw std::invalid_argument("the fit diverged before reaching the point of study");
    }

    std::vector<Eigen::Index> all(static_cast<std::size_t>(likelihood->size()));
    std::iota(all.begin(), all.end(), Eigen::Index{0});
    std::vector<GradVarianceRow> rows;
    for (std::size_t ei = 0; ei < config.estimators.size(); ++ei)
        for (std::size_t si = 0; si < config.samples.size(); ++si) {
            const GradientEstimator e = config.estimators[ei];
            const int S = config.samples[si];
            if (e == GradientEstimator::ScoreBaseline && S < 2)
                continue; // no leave-one-out baseline from one draw: no row
            Rng rng(deriveSeed(config.seed, 1000 + 64 * ei + si));
            const auto start = std::chrono::steady_clock::now();
            const Eigen::Index dm = problem.dim(), ds = vi.scaleSize();
            Matrix gm(dm, config.trials), gs(ds, config.trials); // two passes, no cancellation
            for (int t = 0; t < config.trials; ++t) {
                const ViGradient g = vi.estimate(e, S, all, rng);
                gm.col(t) = g.mean;
                gs.col(t) = g.scale;
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const auto block = [&](const char* name, const Matrix& g) {
                const Vector mean = g.rowwise().mean();
                const double variance = (g.colwise() - mean).squaredNorm() / (g.cols() - 1.0);
                rows.push_back({problem.dataset, methodName(config.method), estimatorName(e), S,
                                name, mean.norm(), variance, seconds});
            };
            block("mean", gm);
            block("scale", gs);
        }
    return rows;
}

} // namespace fa
