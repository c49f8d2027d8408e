#include "core/posterior/PosteriorLab.h"

#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/Methods.h"
#include "core/math/Rng.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {

// The lab's names for its methods; labels, colours and the order come from the method
// registry (core/lab/Methods.h), which a test keeps in step with this table.
struct MethodName {
    PosteriorMethod method;
    const char* name;
};
constexpr MethodName kMethods[] = {
    {PosteriorMethod::VifaGauss, "vifa-gauss"}, {PosteriorMethod::VifaLaplace, "vifa-laplace"},
    {PosteriorMethod::Vippca, "vippca"},        {PosteriorMethod::SgdEm, "sgd-em"},
    {PosteriorMethod::SgdSga, "sgd-sga"},       {PosteriorMethod::Swag, "swag"},
};

// Fixed stream numbers under a trial's seed: the SGD trajectory and the VIFA draws do not
// depend on which other methods run beside them.
enum Stream : std::uint64_t { DataStream = 1, SgdStream = 2, FitterStream = 3, VifaStream = 4 };

} // namespace

std::string methodName(PosteriorMethod method) {
    for (const auto& m : kMethods)
        if (m.method == method)
            return m.name;
    return "?";
}

std::optional<PosteriorMethod> parseMethod(const std::string& name) {
    if (!findMethod(name, Lab::Posterior))
        return std::nullopt;
    for (const auto& m : kMethods)
        if (name == m.name)
            return m.method;
    return std::nullopt;
}

std::vector<PosteriorMethod> allPosteriorMethods() {
    std::vector<PosteriorMethod> all;
    for (const std::string& id : methodIds(Lab::Posterior))
        if (const auto m = parseMethod(id))
            all.push_back(*m);
    return all;
}

bool isSgdMethod(PosteriorMethod method) {
    return method == PosteriorMethod::SgdEm || method == PosteriorMethod::SgdSga ||
           method == PosteriorMethod::Swag;
}

PosteriorProblem preparePosteriorProblem(const PosteriorSetup& setup, std::uint64_t dataSeed) {
    const bool synthetic = setup.dataset == "synthetic";
    RegressionData raw;
    if (synthetic && !setup.target.empty())
        throw std::invalid_argument(
            "the synthetic data set has no columns; a target column can be chosen for a CSV file "
            "only");
    if (synthetic)
        raw = syntheticRegression(setup.synthetic, deriveSeed(dataSeed, DataStream));
    else if (setup.loader)
        raw = setup.loader(setup.dataset, setup.target);
    else
        throw std::invalid_argument("no data loader for the data set '" + setup.dataset + "'");

    PrepareOptions prep;
    prep.standardise = !synthetic;
    prep.bias = setup.bias.value_or(!synthetic);
    prep.trainFraction = setup.trainFraction > 0.0 ? setup.trainFraction : (synthetic ? 1.0 : 0.5);
    prep.splitSeed = deriveSeed(dataSeed, DataStream);

    PosteriorProblem p;
    p.dataset = synthetic ? setup.dataset : raw.name;
    for (char& ch : p.dataset)
        if (ch == ',' || ch == '"' || ch == '\n')
            ch = '_'; // the name becomes a CSV cell
    p.data = prepareRegression(raw, prep);
    if (p.data.dim() < 2)
        throw std::invalid_argument(
            "the posterior needs at least two parameters (an input and a bias, or two inputs)");
    p.hyperMode = setup.hyper.value_or(synthetic ? HyperMode::Manual : HyperMode::Evidence);
    switch (p.hyperMode) {
    case HyperMode::Thesis:
        p.hyper = thesisHyperparameters(p.data.Xtrain, p.data.ytrain);
        break;
    case HyperMode::Evidence:
        p.hyper = evidenceHyperparameters(p.data.Xtrain, p.data.ytrain).hyper;
        break;
    case HyperMode::Manual:
        p.hyper = setup.hyper ? Hyperparameters{setup.alpha, setup.beta}
                              : Hyperparameters{setup.synthetic.alpha, setup.synthetic.beta};
        for (const double h : {p.hyper.alpha, p.hyper.beta})
            if (!(h >= kPrecisionMin && h <= kPrecisionMax))
                throw std::invalid_argument("alpha and beta must lie within [1e-08, 1e+08]");
        break;
    }
    p.exact = exactPosterior(p.data.Xtrain, p.data.ytrain, p.hyper);
    return p;
}

PosteriorTrial::PosteriorTrial(const PosteriorProblem& problem, const PosteriorRunOptions& options,
                               const std::vector<PosteriorMethod>& methods, std::uint64_t seed)
    : m_problem(problem), m_options(options), m_methods(methods),
      m_w2(problem.exact.mean, problem.exact.cov) {
    if (methods.empty())
        throw std::invalid_argument("choose at least one approximation");
    const Eigen::Index dim = problem.dim();
    if (options.latent < 1 || options.latent >= dim)
        throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D = " +
                                    std::to_string(dim));
    m_likelihood = std::make_unique<LinearGaussianLikelihood>(
        problem.data.Xtrain, problem.data.ytrain, problem.hyper.beta);
    if (std::any_of(methods.begin(), methods.end(), isSgdMethod)) {
        SgdOptions s = options.sgd;
        s.lambda = options.lambdaOverride.value_or(problem.hyper.alpha / problem.hyper.beta);
        s.seed = deriveSeed(seed, SgdStream);
        m_sgd = std::make_unique<SgdTrainer>(problem.data.Xtrain, problem.data.ytrain, s);
    }
    OnlineOptions fit;
    fit.latent = options.latent;
    fit.warmup = options.faWarmup;
    fit.learningRate = options.sgaLearningRate;
    fit.initSeed = deriveSeed(seed, FitterStream);
    for (const PosteriorMethod method : methods) {
        std::unique_ptr<StreamFit> stream;
        switch (method) {
        case PosteriorMethod::SgdEm:
            stream = std::make_unique<OnlineEM>(dim, fit);
            break;
        case PosteriorMethod::SgdSga:
            stream = std::make_unique<OnlineSGA>(dim, fit);
            break;
        case PosteriorMethod::Swag:
            stream = std::make_unique<SwagEstimator>(dim, options.latent);
            break;
        default: { // VIFA, VIPPCA
            VifaOptions v = options.vifa;
            v.latent = options.latent;
            v.precision = problem.hyper.alpha;
            v.prior =
                method == PosteriorMethod::VifaLaplace ? PriorKind::Laplace : PriorKind::Gaussian;
            v.ppca = method == PosteriorMethod::Vippca;
            v.sigma = options.vippcaSigma;
            v.seed = deriveSeed(seed, VifaStream);
            auto vifa = std::make_unique<Vifa>(*m_likelihood, v);
            m_vifa.push_back(vifa.get());
            m_fits.push_back(std::move(vifa));
            continue;
        }
        }
        m_onIterates.push_back(stream.get());
        m_fits.push_back(std::move(stream));
    }
}

PosteriorTrial::~PosteriorTrial() = default;

void PosteriorTrial::runEpoch() {
    for (Vifa* vifa : m_vifa)
        vifa->runEpoch();
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

PosteriorScore PosteriorTrial::score(const FAModel& model) const {
    PosteriorScore s;
    const Matrix cov = model.denseCovariance();
    if (!std::isfinite(cov.sum() + model.c.sum())) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan, nan, nan};
    }
    s.relMeanDist = relativeMeanDistance(model.c, m_problem.exact.mean);
    s.relCovDist = relativeCovarianceDistance(cov, m_problem.exact.cov);
    s.w2 = m_w2.distance(model.c, cov);
    s.w2OverDim = s.w2 / static_cast<double>(model.c.size());
    return s;
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

std::vector<PosteriorRow>
runPosterior(const PosteriorConfig& config,
             const std::function<void(const PosteriorProgress&)>& progress,
             const std::atomic<bool>* cancel) {
    if (config.epochs < 1 || config.every < 1 || config.trials < 1)
        throw std::invalid_argument("epochs, checkpoint period and trials must be at least 1");
    std::vector<PosteriorRow> rows;
    for (int trial = 0; trial < config.trials; ++trial) {
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
                const PosteriorScore score = t.score(e.model);
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

} // namespace fa
