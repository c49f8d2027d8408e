#include "core/posterior/GradientStudy.h"

#include "core/math/Rng.h"

#include <limits>
#include <numeric>
#include <stdexcept>

namespace fa {

GradientStudy studyGradients(const PosteriorProblem& problem, const PosteriorRunOptions& run,
                             PosteriorMethod method, const FAModel& q, int coordI, int coordJ,
                             int trials, std::uint64_t seed) {
    if (method != PosteriorMethod::ViFull && method != PosteriorMethod::ViMeanField)
        throw std::invalid_argument("the gradient panel studies vi-full and vi-meanfield");
    if (trials < 2)
        throw std::invalid_argument("the gradient study needs at least 2 estimates");
    const auto likelihood = makeLikelihood(problem.target, problem.data.Xtrain, problem.data.ytrain,
                                           problem.hyper.beta);
    GaussianViOptions o;
    o.family = method == PosteriorMethod::ViFull ? ViFamily::Full : ViFamily::MeanField;
    o.precision = problem.hyper.alpha;
    GaussianVi vi(*likelihood, o);
    // The same q: L is the Cholesky factor of its covariance (unique with a positive diagonal).
    const Matrix S = q.denseCovariance();
    const Eigen::LLT<Matrix> llt(S);
    if (llt.info() != Eigen::Success || !std::isfinite(q.c.sum()))
        throw std::invalid_argument("q is not a proper Gaussian (diverged)");
    vi.setState(q.c, o.family == ViFamily::Full ? Matrix(llt.matrixL())
                                                : Matrix(S.diagonal().cwiseSqrt().asDiagonal()));
    Rng rng(seed);
    // Each estimate takes a fresh random subset of at most 1000 rows (a partial Fisher-Yates
    // shuffle), so the clouds stay centred on the whole data's gradient.
    std::vector<Eigen::Index> order(static_cast<std::size_t>(likelihood->size()));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    const std::size_t m = std::min<std::size_t>(order.size(), 1000);
    const auto rows = [&]() -> std::span<const Eigen::Index> {
        if (m < order.size())
            for (std::size_t i = 0; i < m; ++i) {
                const auto j =
                    i + static_cast<std::size_t>(rng.uniform() * double(order.size() - i));
                std::swap(order[i], order[std::min(j, order.size() - 1)]);
            }
        return {order.data(), m};
    };
    GradientStudy study;
    study.method = method;
    study.samples = std::max(2, run.vifa.samples);
    study.coordI = coordI;
    study.coordJ = coordJ;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const GradientEstimator e :
         {GradientEstimator::Reparam, GradientEstimator::Score, GradientEstimator::ScoreBaseline}) {
        GradientStudy::Estimator out;
        out.estimator = e;
        for (int t = 0; t < trials; ++t) {
            const ViGradient g = vi.estimate(e, study.samples, rows(), rng);
            out.cloud.emplace_back(g.mean(coordI), g.mean(coordJ));
        }
        for (std::size_t k = 0; k < out.sampleCounts.size(); ++k) {
            const int s = out.sampleCounts[k];
            if (e == GradientEstimator::ScoreBaseline && s < 2) {
                out.meanVariance[k] = out.scaleVariance[k] = nan;
                continue;
            }
            Matrix gm(problem.dim(), trials), gs(vi.scaleSize(), trials);
            for (int t = 0; t < trials; ++t) {
                const ViGradient g = vi.estimate(e, s, rows(), rng);
                gm.col(t) = g.mean;
                gs.col(t) = g.scale;
            }
            const auto variance = [&](const Matrix& g) {
                return (g.colwise() - g.rowwise().mean()).squaredNorm() / (g.cols() - 1.0);
            };
            out.meanVariance[k] = variance(gm);
            out.scaleVariance[k] = variance(gs);
        }
        study.estimators.push_back(std::move(out));
    }
    return study;
}

} // namespace fa
