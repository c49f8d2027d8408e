#include "core/posterior/PosteriorLab.h"

#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/Methods.h"
#include "core/math/Rng.h"
#include "core/posterior/PosteriorParams.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace fa {
namespace {

// The lab's names for its methods; labels, colours and the order come from the method
// registry (core/lab/Methods.h), which a test keeps in step with this table.
constexpr Named<PosteriorMethod> kMethods[] = {
    {PosteriorMethod::VifaGauss, "vifa-gauss"}, {PosteriorMethod::VifaLaplace, "vifa-laplace"},
    {PosteriorMethod::Vippca, "vippca"},        {PosteriorMethod::SgdEm, "sgd-em"},
    {PosteriorMethod::SgdSga, "sgd-sga"},       {PosteriorMethod::Swag, "swag"},
    {PosteriorMethod::ViFull, "vi-full"},       {PosteriorMethod::ViMeanField, "vi-meanfield"},
};

} // namespace

std::string methodName(PosteriorMethod method) {
    return nameIn(kMethods, method);
}

std::optional<PosteriorMethod> parseMethod(const std::string& name) {
    return labMethod(kMethods, name, Lab::Posterior);
}

std::vector<PosteriorMethod> allPosteriorMethods() {
    return labMethods(kMethods, Lab::Posterior);
}

PriorKind methodPrior(PosteriorMethod method) {
    return method == PosteriorMethod::VifaLaplace ? PriorKind::Laplace : PriorKind::Gaussian;
}

bool isSgdMethod(PosteriorMethod method) {
    return method == PosteriorMethod::SgdEm || method == PosteriorMethod::SgdSga ||
           method == PosteriorMethod::Swag;
}

namespace {

/// The fit an SGD method feeds the SGD iterates to.
std::unique_ptr<StreamFit> iterateFit(PosteriorMethod method, Eigen::Index dim,
                                      const PosteriorRunOptions& options, std::uint64_t seed) {
    OnlineOptions fit;
    fit.latent = options.latent;
    fit.warmup = options.faWarmup;
    fit.learningRate = options.sgaLearningRate;
    fit.initSeed = deriveSeed(seed, SeedStream::PosteriorFitter);
    switch (method) {
    case PosteriorMethod::SgdEm:
        return std::make_unique<OnlineEM>(dim, fit);
    case PosteriorMethod::SgdSga:
        return std::make_unique<OnlineSGA>(dim, fit);
    default: // SWAG
        return std::make_unique<SwagEstimator>(dim, options.latent);
    }
}

/// The options of a vi-full or vi-meanfield fit.
GaussianViOptions gaussianViOptions(PosteriorMethod method, const PosteriorRunOptions& options,
                                    double alpha, std::uint64_t seed) {
    GaussianViOptions g;
    g.family = method == PosteriorMethod::ViFull ? ViFamily::Full : ViFamily::MeanField;
    g.estimator = options.estimator;
    g.precision = alpha;
    g.batch = options.vifa.batch;
    g.samples = options.vifa.samples;
    g.optimiser = options.vifa.optimiser;
    g.lrC = options.vifa.lrC, g.lrF = options.vifa.lrF, g.lrGamma = options.vifa.lrGamma;
    g.maxGradNorm = options.vifa.maxGradNorm;
    g.seed = deriveSeed(seed, SeedStream::PosteriorVi);
    return g;
}

/// The options of a VIFA or VIPPCA fit.
VifaOptions vifaOptions(PosteriorMethod method, const PosteriorRunOptions& options, double alpha,
                        std::uint64_t seed) {
    VifaOptions v = options.vifa;
    v.latent = options.latent;
    v.precision = alpha;
    v.prior = method == PosteriorMethod::VifaLaplace ? PriorKind::Laplace : PriorKind::Gaussian;
    v.ppca = method == PosteriorMethod::Vippca;
    v.sigma = options.vippcaSigma;
    v.seed = deriveSeed(seed, SeedStream::PosteriorVi);
    v.estimator = options.estimator;
    return v;
}

} // namespace

PosteriorTrial::PosteriorTrial(const PosteriorProblem& problem, const PosteriorRunOptions& options,
                               const std::vector<PosteriorMethod>& methods, std::uint64_t seed)
    : m_problem(problem), m_options(options), m_methods(methods),
      m_w2(problem.exact.mean, problem.exact.cov),
      m_w2Laplace(problem.exactFor(PosteriorMethod::VifaLaplace).mean,
                  problem.exactFor(PosteriorMethod::VifaLaplace).cov) {
    if (methods.empty())
        throw std::invalid_argument("choose at least one approximation");
    const Eigen::Index dim = problem.dim();
    if (options.latent < 1 || options.latent >= dim)
        throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D = " +
                                    std::to_string(dim));
    m_likelihood = makeLikelihood(problem.target, problem.data.Xtrain, problem.data.ytrain,
                                  problem.hyper.beta);
    const bool sgd = std::any_of(methods.begin(), methods.end(), isSgdMethod);
    if (sgd && problem.target != TargetKind::Linear)
        throw std::invalid_argument("SGD + online EM, SGD + online SGA and SWAG follow the SGD "
                                    "iterates of linear regression; the " +
                                    problem.dataset + " target is not linear regression");
    if (sgd) {
        SgdOptions s = options.sgd;
        s.lambda = options.lambdaOverride.value_or(problem.hyper.alpha / problem.hyper.beta);
        s.seed = deriveSeed(seed, SeedStream::PosteriorSgd);
        m_sgd = std::make_unique<SgdTrainer>(problem.data.Xtrain, problem.data.ytrain, s);
    }
    const double alpha = problem.hyper.alpha;
    for (const PosteriorMethod method : methods) {
        if (isSgdMethod(method)) {
            std::unique_ptr<StreamFit> stream = iterateFit(method, dim, options, seed);
            m_onIterates.push_back(stream.get());
            m_fits.push_back(std::move(stream));
        } else if (method == PosteriorMethod::ViFull || method == PosteriorMethod::ViMeanField) {
            addGaussianVi(gaussianViOptions(method, options, alpha, seed));
        } else { // VIFA, VIPPCA
            auto vifa =
                std::make_unique<Vifa>(*m_likelihood, vifaOptions(method, options, alpha, seed));
            m_epochFits.push_back(vifa.get());
            m_fits.push_back(std::move(vifa));
        }
    }
}

void PosteriorTrial::addGaussianVi(const GaussianViOptions& g) {
    auto vi = std::make_unique<GaussianVi>(*m_likelihood, g);
    if (!m_compared) {
        m_compared = vi.get();
        for (const GradientEstimator other : {GradientEstimator::Reparam, GradientEstimator::Score,
                                              GradientEstimator::ScoreBaseline}) {
            if (!m_options.compareEstimators || other == g.estimator ||
                (other == GradientEstimator::ScoreBaseline && g.samples < 2))
                continue;
            GaussianViOptions shadow = g;
            shadow.estimator = other;
            m_shadows.push_back(std::make_unique<GaussianVi>(*m_likelihood, shadow));
        }
    }
    m_epochFits.push_back(vi.get());
    m_fits.push_back(std::move(vi));
}

PosteriorTrial::~PosteriorTrial() = default;

void PosteriorTrial::abandonOn(const std::atomic<bool>* flag) {
    for (EpochFit* fit : m_epochFits)
        fit->abandonOn(flag);
    for (const auto& shadow : m_shadows)
        shadow->abandonOn(flag);
    if (m_sgd)
        m_sgd->abandonOn(flag);
}

void PosteriorTrial::runEpoch() {
    for (EpochFit* fit : m_epochFits)
        fit->runEpoch();
    for (const auto& shadow : m_shadows)
        shadow->runEpoch();
    if (m_sgd) {
        const bool feed = m_sgd->epoch() >= m_options.warmupEpochs;
        m_sgd->runEpoch([&](const Vector& theta) {
            if (m_options.recentIterates > 0) {
                if (m_recent.size() < m_options.recentIterates) {
                    m_recent.push_back(theta);
                } else { // full: recycle the oldest vector's storage, no allocation per step
                    Vector oldest = std::move(m_recent.front());
                    m_recent.pop_front();
                    oldest = theta;
                    m_recent.push_back(std::move(oldest));
                }
            }
            if (!feed)
                return;
            for (StreamFit* f : m_onIterates)
                f->observe(theta);
        });
    }
    ++m_epoch;
}

std::vector<PosteriorTrial::Estimate> PosteriorTrial::estimates() const {
    std::vector<Estimate> out;
    for (std::size_t k = 0; k < m_methods.size(); ++k) {
        const PosteriorMethod method = m_methods[k];
        const bool sgdDiverged = isSgdMethod(method) && m_sgd->diverged();
        out.push_back(
            {method, m_fits[k]->model(), sgdDiverged ? FitStatus::Diverged : m_fits[k]->status()});
    }
    return out;
}

PosteriorScore PosteriorTrial::score(PosteriorMethod method, const FAModel& model, bool kl) const {
    PosteriorScore s;
    const Matrix cov = model.denseCovariance();
    if (!std::isfinite(cov.sum() + model.c.sum())) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan, nan, nan};
    }
    const GaussianPosterior& exact = m_problem.exactFor(method);
    // Relative to the exact mean's norm, or to the posterior's spread sqrt(tr S) where the mean
    // is smaller than that (the bimodal target's exact mean is 0 by symmetry).
    s.relMeanDist =
        (model.c - exact.mean).norm() / std::max(exact.mean.norm(), std::sqrt(exact.cov.trace()));
    s.relCovDist = relativeCovarianceDistance(cov, exact.cov);
    s.w2 = (methodPrior(method) == PriorKind::Laplace ? m_w2Laplace : m_w2).distance(model.c, cov);
    s.w2OverDim = s.w2 / static_cast<double>(model.c.size());
    if (const GridPosterior* grid = m_problem.gridFor(method); kl && grid && model.c.size() == 2)
        s.kl = klByQuadrature(*grid, model.c, cov);
    return s;
}

std::vector<std::pair<GradientEstimator, FAModel>> PosteriorTrial::estimatorRuns() const {
    std::vector<std::pair<GradientEstimator, FAModel>> out;
    if (m_compared)
        out.emplace_back(m_compared->options().estimator, m_compared->model());
    for (const auto& shadow : m_shadows)
        out.emplace_back(shadow->options().estimator, shadow->model());
    return out;
}

double PosteriorTrial::klToExact(PosteriorMethod method, const FAModel& model) const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (const GridPosterior* grid = m_problem.gridFor(method); grid && model.c.size() == 2) {
        const Matrix S = model.denseCovariance();
        return std::isfinite(S.sum() + model.c.sum()) ? klByQuadrature(*grid, model.c, S) : nan;
    }
    if (m_problem.target != TargetKind::Linear || methodPrior(method) != PriorKind::Gaussian)
        return nan;
    // KL(N(c, S) || N(mu, P^-1)) = 1/2 [tr(P S) + (mu - c)^T P (mu - c) - D + log|P^-1| - log|S|]
    const Matrix S = model.denseCovariance();
    const Eigen::LLT<Matrix> q(S), p(m_problem.exact.cov);
    if (q.info() != Eigen::Success || p.info() != Eigen::Success)
        return nan;
    const Vector d = m_problem.exact.mean - model.c;
    const double logDet = [](const Eigen::LLT<Matrix>& l) {
        return 2.0 * l.matrixLLT().diagonal().array().log().sum();
    }(p)-2.0 * q.matrixLLT().diagonal().array().log().sum();
    return 0.5 * (p.solve(S).trace() + d.dot(p.solve(d)) - double(S.rows()) + logDet);
}

void PosteriorTrial::setSgdLearningRate(double eta) {
    if (m_sgd)
        m_sgd->setLearningRate(eta);
}

void PosteriorTrial::setLambda(double lambda) {
    if (m_sgd)
        m_sgd->setLambda(lambda);
}

double PosteriorTrial::sgdLearningRate() const {
    return m_sgd ? m_sgd->options().learningRate : 0.0;
}

double PosteriorTrial::lambda() const {
    return m_sgd ? m_sgd->options().lambda : 0.0;
}

namespace {
/// One trial's rows (those finished, when cancelled).
std::vector<PosteriorRow>
runPosteriorTrial(const PosteriorConfig& config, int trial,
                  const std::function<void(const PosteriorProgress&)>& progress,
                  const std::atomic<bool>* cancel) {
    std::vector<PosteriorRow> rows;
    {
        const std::uint64_t trialSeed = deriveSeed(config.seed, static_cast<std::uint64_t>(trial));
        const PosteriorProblem problem = preparePosteriorProblem(config.setup, trialSeed);
        for (const PosteriorMethod method : config.methods) {
            PosteriorRunOptions run = config.run;
            run.recentIterates = 0;
            PosteriorTrial t(problem, run, {method}, trialSeed);
            double seconds = 0.0;
            for (long epoch = 1; epoch <= config.epochs; ++epoch) {
                if (cancel && cancel->load())
                    return rows;
                const auto start = std::chrono::steady_clock::now();
                t.runEpoch();
                seconds +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                if (epoch % config.every != 0 && epoch != config.epochs)
                    continue;
                const auto e = t.estimates().front();
                const PosteriorScore score = t.score(method, e.model, epoch == config.epochs);
                // A running fit whose numbers are not finite is not "ok": the row says it failed.
                const bool finite = std::isfinite(score.relMeanDist) &&
                                    std::isfinite(score.relCovDist) && std::isfinite(score.w2);
                const FitStatus status =
                    e.status == FitStatus::Running && !finite ? FitStatus::Failed : e.status;
                PosteriorRow row{
                    problem.dataset, methodName(method), config.run.latent, trial, epoch, score,
                    seconds,         csvWord(status)};
                rows.push_back(std::move(row));
                if (progress)
                    progress({trial, config.trials, methodName(method), epoch, config.epochs});
            }
        }
    }
    return rows;
}
} // namespace

std::vector<PosteriorRow>
runPosterior(const PosteriorConfig& config,
             const std::function<void(const PosteriorProgress&)>& progress,
             const std::atomic<bool>* cancel) {
    checkParams(posteriorParams(), config); // core/posterior/PosteriorParams.h
    return runShardTrials<PosteriorRow>(
        config.trials, config.shard, config.threads, progress,
        [&](int trial, const auto& report) {
            return runPosteriorTrial(config, trial, report, cancel);
        },
        cancel);
}

void markDivergedRows(std::vector<PosteriorRow>& rows, double beyond) {
    const std::string ok = csvWord(FitStatus::Running), diverged = csvWord(FitStatus::Diverged);
    std::set<std::pair<int, std::string>> gone; // (trial, method) that diverged
    for (PosteriorRow& row : rows) {
        if (row.status == ok && (row.score.relMeanDist > beyond || row.score.relCovDist > beyond ||
                                 gone.count({row.trial, row.method})))
            row.status = diverged;
        if (row.status == diverged)
            gone.insert({row.trial, row.method});
    }
}

} // namespace fa
