#include "core/posterior/GradVariance.h"

#include <chrono>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace fa {

namespace {

// The fit under study behind one call: an estimate split into the mean block and the scale
// block (GaussianVi: L's lower part and log diagonal, or log sigma; VIFA: F, then log psi
// unless VIPPCA keeps psi fixed).
struct Studied {
    std::unique_ptr<GaussianVi> vi;
    std::unique_ptr<Vifa> vifa;
    bool ppca = false;
    std::pair<Vector, Vector> estimate(GradientEstimator e, int s,
                                       std::span<const Eigen::Index> rows, Rng& rng) {
        if (vi) {
            ViGradient g = vi->estimate(e, s, rows, rng);
            return {std::move(g.mean), std::move(g.scale)};
        }
        const VifaGradients g = vifa->estimate(e, s, rows, rng);
        Vector scale(g.F.size() + (ppca ? 0 : g.gamma.size()));
        scale.head(g.F.size()) = Eigen::Map<const Vector>(g.F.data(), g.F.size());
        if (!ppca)
            scale.tail(g.gamma.size()) = g.gamma;
        return {g.c, scale};
    }
    void runEpoch() { vi ? vi->runEpoch() : vifa->runEpoch(); }
    FitStatus status() const { return vi ? vi->status() : vifa->status(); }
};

void checkConfig(const GradVarianceConfig& config) {
    if (isSgdMethod(config.method))
        throw std::invalid_argument("grad-variance studies the variational fits (vi-full, "
                                    "vi-meanfield, vifa-gauss, vifa-laplace, vippca)");
    if (config.trials < 2)
        throw std::invalid_argument("grad-variance needs at least 2 estimates (--trials)");
    for (const int s : config.samples)
        if (s < 1)
            throw std::invalid_argument("every sample count S must be at least 1");
}

/// The fit the config names, at its start.
Studied startFit(const GradVarianceConfig& config, const PosteriorProblem& problem,
                 const Likelihood& likelihood) {
    const PosteriorMethod m = config.method;
    const VifaOptions& v = config.run.vifa;
    const std::uint64_t fitSeed = deriveSeed(config.seed, SeedStream::PosteriorVi);
    Studied fit;
    const bool full = m == PosteriorMethod::ViFull;
    if (full || m == PosteriorMethod::ViMeanField) {
        GaussianViOptions o;
        o.family = full ? ViFamily::Full : ViFamily::MeanField;
        o.precision = problem.hyper.alpha;
        o.batch = v.batch, o.samples = v.samples, o.optimiser = v.optimiser;
        o.lrC = v.lrC, o.lrF = v.lrF, o.lrGamma = v.lrGamma, o.maxGradNorm = v.maxGradNorm;
        o.seed = fitSeed;
        fit.vi = std::make_unique<GaussianVi>(likelihood, o);
    } else {
        VifaOptions o = v;
        o.latent = config.run.latent;
        o.precision = problem.hyper.alpha;
        o.prior = methodPrior(m);
        o.ppca = fit.ppca = m == PosteriorMethod::Vippca;
        o.sigma = config.run.vippcaSigma;
        o.estimator = GradientEstimator::Reparam;
        o.seed = fitSeed;
        if (o.latent >= problem.dim())
            throw std::invalid_argument("the latent dimension K must be below D = " +
                                        std::to_string(problem.dim()));
        fit.vifa = std::make_unique<Vifa>(likelihood, o);
    }
    return fit;
}

/// Brings the fit to the point of study: the exact posterior (linear target, Gaussian VI), or
/// `config.epoch` epochs of the reparameterised fit.
void moveToPointOfStudy(const GradVarianceConfig& config, const PosteriorProblem& problem,
                        Studied& fit) {
    using At = GradVarianceConfig::At;
    if (config.at == At::Optimum && problem.target == TargetKind::Linear && fit.vi) {
        const Matrix& S = problem.exact.cov;
        if (config.method == PosteriorMethod::ViFull) {
            fit.vi->setState(problem.exact.mean, S.llt().matrixL());
        } else {
            const Vector lambdaDiag = S.inverse().diagonal();
            fit.vi->setState(problem.exact.mean,
                             lambdaDiag.cwiseInverse().cwiseSqrt().asDiagonal());
        }
    } else if (config.at != At::Start) { // no closed form: the reparameterised fit's state
        for (long e = 0; e < config.epoch && fit.status() == FitStatus::Running; ++e)
            fit.runEpoch();
        if (fit.status() != FitStatus::Running)
            throw std::invalid_argument("the fit diverged before reaching the point of study");
    }
}

} // namespace

namespace {

/// The norm of the estimates' mean and their total variance (ddof 1).
std::pair<double, double> gradientSpread(const std::vector<Vector>& draws) {
    Matrix g(draws.front().size(), Eigen::Index(draws.size()));
    for (std::size_t t = 0; t < draws.size(); ++t)
        g.col(Eigen::Index(t)) = draws[t];
    const Vector mean = g.rowwise().mean();
    const double variance = (g.colwise() - mean).squaredNorm() / (g.cols() - 1.0);
    return {mean.norm(), variance};
}

} // namespace

std::vector<GradVarianceRow> studyCells(const GradVarianceCells& cells,
                                        const std::vector<std::string>& blocks,
                                        const BlockEstimate& estimate) {
    std::vector<GradVarianceRow> rows;
    for (std::size_t ei = 0; ei < cells.estimators.size(); ++ei)
        for (std::size_t si = 0; si < cells.samples.size(); ++si) {
            const GradientEstimator e = cells.estimators[ei];
            const int S = cells.samples[si];
            if (e == GradientEstimator::ScoreBaseline && S < 2)
                continue; // no leave-one-out baseline from one draw: no row
            Rng rng(deriveSeed(cells.seed, SeedStream::GradVarianceCellBase, 64 * ei + si));
            const auto start = std::chrono::steady_clock::now();
            std::vector<std::vector<Vector>> draws(blocks.size());
            for (int t = 0; t < cells.trials; ++t) {
                std::vector<Vector> estimates = estimate(e, S, rng);
                for (std::size_t b = 0; b < blocks.size(); ++b)
                    draws[b].push_back(std::move(estimates[b]));
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            for (std::size_t b = 0; b < blocks.size(); ++b) {
                const auto [meanNorm, variance] = gradientSpread(draws[b]);
                rows.push_back({cells.dataset, cells.method, estimatorName(e), S, blocks[b],
                                meanNorm, variance, seconds});
            }
        }
    if (rows.empty())
        throw std::invalid_argument("no estimator and sample count give a row: the leave-one-out "
                                    "baseline needs S >= 2");
    return rows;
}

std::vector<GradVarianceRow> runGradVariance(const GradVarianceConfig& config) {
    checkConfig(config);
    const PosteriorProblem problem =
        preparePosteriorProblem(config.setup, deriveSeed(config.seed, SeedStream::FirstTrial));
    const auto likelihood = makeLikelihood(problem.target, problem.data.Xtrain, problem.data.ytrain,
                                           problem.hyper.beta);
    Studied fit = startFit(config, problem, *likelihood);
    moveToPointOfStudy(config, problem, fit);

    std::vector<Eigen::Index> all(static_cast<std::size_t>(likelihood->size()));
    std::iota(all.begin(), all.end(), Eigen::Index{0});
    return studyCells({problem.dataset, methodName(config.method), config.estimators,
                       config.samples, config.trials, config.seed},
                      {"mean", "scale"}, [&](GradientEstimator e, int S, Rng& rng) {
                          auto [mean, scale] = fit.estimate(e, S, all, rng);
                          return std::vector<Vector>{std::move(mean), std::move(scale)};
                      });
}

} // namespace fa
