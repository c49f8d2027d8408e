#include "core/posterior/PosteriorLive.h"
#include "core/posterior/PosteriorParams.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace fa {
namespace {

constexpr std::size_t kMaxCurvePoints = 1000; // per method; older points thin out beyond this

void upperTriangle(const Matrix& S, Vector& out) {
    const Eigen::Index d = S.rows();
    out.resize(d * (d - 1) / 2);
    Eigen::Index k = 0;
    for (Eigen::Index i = 0; i < d; ++i)
        for (Eigen::Index j = i + 1; j < d; ++j)
            out(k++) = S(i, j);
}

bool positiveDefinite(const Eigen::Matrix2d& S) {
    return std::isfinite(S.sum()) && S(0, 0) > 0.0 && S.determinant() > 0.0;
}

/// The configuration, checked against its schema before its problem is prepared.
const PosteriorLiveConfig& checked(const PosteriorLiveConfig& config) {
    checkParams(posteriorLiveParams(), config); // core/posterior/PosteriorParams.h
    return config;
}

} // namespace

PosteriorLive::PosteriorLive(const PosteriorLiveConfig& config, AbandonFlag abandon)
    : LiveRun(std::move(abandon)), m_config(checked(config)),
      m_problem(
          preparePosteriorProblem(config.setup, deriveSeed(config.seed, SeedStream::FirstTrial))) {
    m_trial = std::make_unique<PosteriorTrial>(m_problem, config.run, config.methods,
                                               deriveSeed(config.seed, SeedStream::FirstTrial));
    m_trial->abandonOn(abandonFlag());
    checkRunLength(config.length);
    m_lr = config.run.sgd.learningRate;
    m_lambda = config.run.lambdaOverride.value_or(m_problem.hyper.alpha / m_problem.hyper.beta);
    for (const auto& c : config.changes)
        if (c.epoch < 0 || !(c.sgdLearningRate > 0.0) || !(c.lambda >= 0.0))
            throw std::invalid_argument(
                "a recorded learning-rate or lambda change is out of range");
    applyChangesAt(0);
    // The grid posteriors' contours, once: they do not change while the run goes on.
    const auto contours = [](const GridPosterior& g) {
        auto c = std::make_shared<ExactContours>();
        for (std::size_t l = 0; l < c->size(); ++l)
            (*c)[l] = contourLines(g, g.hpdDensity[l]);
        return c;
    };
    if (m_problem.grid)
        m_exactContours = contours(*m_problem.grid);
    const bool laplace =
        std::any_of(config.methods.begin(), config.methods.end(),
                    [](PosteriorMethod m) { return methodPrior(m) == PriorKind::Laplace; });
    // alpha, beta through the bound: 200 exact sweeps, each O(N D^2 + D^3); skipped where that
    // would hold up the start of the run (a large CSV file).
    const double work =
        double(m_problem.data.Xtrain.rows()) * double(m_problem.dim()) * double(m_problem.dim());
    if (m_problem.target == TargetKind::Linear && work <= 1e7) {
        try {
            const auto bound = [&](ViFamily f) {
                return std::make_shared<const std::vector<BoundStep>>(fitHyperByBound(
                    m_problem.data.Xtrain, m_problem.data.ytrain, f, {1.0, 1.0}, 200));
            };
            m_boundFull = bound(ViFamily::Full);
            m_boundMeanField = bound(ViFamily::MeanField);
        } catch (const std::invalid_argument&) { // alpha or beta left (0, inf): no curves
            m_boundFull.reset(), m_boundMeanField.reset();
        }
    }
    if (m_problem.gridLaplace && laplace)
        m_laplaceContours = contours(*m_problem.gridLaplace);
}

void PosteriorLive::applyChangesAt(long epoch) {
    while (m_nextChange < m_config.changes.size() &&
           m_config.changes[m_nextChange].epoch <= epoch) {
        const auto& c = m_config.changes[m_nextChange++];
        m_lr = c.sgdLearningRate;
        m_lambda = c.lambda;
        m_trial->setSgdLearningRate(m_lr);
        m_trial->setLambda(m_lambda);
    }
}

long PosteriorLive::advance(long epochs) {
    epochs = std::min(epochs, m_config.length - m_trial->epoch());
    for (long e = 0; e < epochs; ++e) {
        applyChangesAt(m_trial->epoch());
        const auto start = std::chrono::steady_clock::now();
        m_trial->runEpoch();
        if (abandoned()) // the window closed mid-epoch: nothing more is shown
            return e;
        m_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (m_trial->epoch() % m_stride == 0)
            record();
        if (m_trial->epoch() % m_klStride == 0)
            recordKl();
    }
    return std::max(0L, epochs);
}

void PosteriorLive::setLength(long length) {
    checkRunLength(length);
    m_config.length = std::max(length, m_trial->epoch());
}

void PosteriorLive::setCoordinates(int coordI, int coordJ) {
    const Eigen::Index dim = m_problem.dim();
    if (coordI < 0 || coordJ < 0 || coordI >= dim || coordJ >= dim || coordI == coordJ)
        throw std::invalid_argument("choose two different parameters between 1 and " +
                                    std::to_string(dim));
    m_coordI = coordI;
    m_coordJ = coordJ;
}

// The first full or mean-field VI fit, the one the gradient panel studies.
static const PosteriorMethod* studiedMethod(const std::vector<PosteriorMethod>& methods) {
    const auto vi = std::find_if(methods.begin(), methods.end(), [](PosteriorMethod m) {
        return m == PosteriorMethod::ViFull || m == PosteriorMethod::ViMeanField;
    });
    return vi == methods.end() ? nullptr : &*vi;
}

bool PosteriorLive::studyStale() const {
    return studiedMethod(m_config.methods) &&
           (m_studyEpoch != epoch() || m_studyI != m_coordI || m_studyJ != m_coordJ);
}

void PosteriorLive::renewStudy() const {
    const PosteriorMethod* vi = studiedMethod(m_config.methods);
    m_studyEpoch = epoch(), m_studyI = m_coordI, m_studyJ = m_coordJ;
    m_studyAt = std::chrono::steady_clock::now();
    for (const auto& e : m_trial->estimates())
        if (vi && e.method == *vi && e.status == FitStatus::Running) {
            try {
                auto study = std::make_shared<GradientStudy>(
                    studyGradients(m_problem, m_config.run, *vi, e.model, m_coordI, m_coordJ, 60,
                                   deriveSeed(m_config.seed, SeedStream::PosteriorLiveStudyBase,
                                              std::uint64_t(epoch()))));
                study->epoch = epoch();
                m_study = std::move(study);
            } catch (const std::invalid_argument&) { // q no longer proper: keep the last study
            }
        }
}

void PosteriorLive::poll() {
    if (studyStale())
        renewStudy();
}

std::shared_ptr<const LabSnapshot> PosteriorLive::labSnapshot() const {
    auto s = std::make_shared<PosteriorLiveSnapshot>(snapshot(m_coordI, m_coordJ));
    const bool viewMoved = m_studyI != m_coordI || m_studyJ != m_coordJ;
    if (studyStale() && (!m_study || viewMoved ||
                         std::chrono::steady_clock::now() - m_studyAt >= std::chrono::seconds(2)))
        renewStudy();
    s->gradients = m_study;
    s->estimatorCurves = m_klCurves;
    s->boundFull = m_boundFull;
    s->boundMeanField = m_boundMeanField;
    s->position = s->epoch;
    s->length = length();
    for (const auto& a : s->approximations)
        if (a.status != FitStatus::Running)
            s->status += (s->status.empty() ? "" : "   ") + methodName(a.method) + ": " +
                         statusName(a.status);
    if (s->status.empty())
        s->status = "all approximations ok";
    return s;
}

void PosteriorLive::record() {
    for (const auto& e : m_trial->estimates()) {
        auto& curve = m_curves[e.method];
        curve.push_back({m_trial->epoch(), m_trial->score(e.method, e.model), m_seconds, e.status});
    }
    if (m_curves.begin()->second.size() <= kMaxCurvePoints)
        return;
    m_stride *= 2; // keep every other point: the curve keeps its shape at half the density
    for (auto& [method, curve] : m_curves) {
        std::vector<PosteriorCurvePoint> kept;
        for (const auto& p : curve)
            if (p.epoch % m_stride == 0)
                kept.push_back(p);
        curve = std::move(kept);
    }
}

void PosteriorLive::recordKl() {
    const auto runs = m_trial->estimatorRuns();
    if (runs.empty())
        return;
    if (m_klCurves.empty())
        for (const auto& [estimator, model] : runs)
            m_klCurves.push_back({estimator, {}});
    bool any = false;
    for (std::size_t k = 0; k < runs.size() && k < m_klCurves.size(); ++k) {
        // Both VI families have the Gaussian prior: ViFull names that posterior.
        const double kl = m_trial->klToExact(PosteriorMethod::ViFull, runs[k].second);
        if (std::isfinite(kl)) {
            m_klCurves[k].kl.emplace_back(m_trial->epoch(), kl);
            any = true;
        }
    }
    std::size_t longest = 0;
    for (const auto& c : m_klCurves)
        longest = std::max(longest, c.kl.size());
    if (!any || longest <= 200)
        return;
    m_klStride *= 2; // as the distance curves: every other point goes
    for (auto& c : m_klCurves) {
        std::vector<std::pair<long, double>> kept;
        for (const auto& p : c.kl)
            if (p.first % m_klStride == 0)
                kept.push_back(p);
        c.kl = std::move(kept);
    }
}

void PosteriorLive::setSgdLearningRate(double eta) {
    if (!(eta > 0.0) || !std::isfinite(eta))
        throw std::invalid_argument("the SGD learning rate must be positive");
    m_lr = eta;
    m_trial->setSgdLearningRate(eta);
    m_config.changes.push_back({m_trial->epoch(), m_lr, m_lambda});
    m_nextChange = m_config.changes.size();
}

void PosteriorLive::setLambda(double lambda) {
    if (!(lambda >= 0.0) || !std::isfinite(lambda))
        throw std::invalid_argument("lambda must not be negative");
    m_lambda = lambda;
    m_trial->setLambda(lambda);
    m_config.changes.push_back({m_trial->epoch(), m_lr, m_lambda});
    m_nextChange = m_config.changes.size();
}

PosteriorLiveSnapshot PosteriorLive::snapshot(int coordI, int coordJ) const {
    const Eigen::Index dim = m_problem.dim();
    if (coordI < 0 || coordJ < 0 || coordI >= dim || coordJ >= dim || coordI == coordJ)
        throw std::invalid_argument("choose two different parameters between 1 and " +
                                    std::to_string(dim));
    PosteriorLiveSnapshot s;
    s.config = m_config;
    s.epoch = m_trial->epoch();
    s.dataset = m_problem.dataset;
    s.parameterNames = m_problem.data.parameterNames;
    s.hyper = m_problem.hyper;
    s.hyperMode = m_problem.hyperMode;
    s.trainRows = m_problem.data.Xtrain.rows();
    s.coordI = coordI;
    s.coordJ = coordJ;
    const GaussianPosterior& exact = m_problem.exact;
    const Eigen::Index i = coordI, j = coordJ;
    s.exactMarginal.mean = {exact.mean(i), exact.mean(j)};
    s.exactMarginal.cov << exact.cov(i, i), exact.cov(i, j), exact.cov(j, i), exact.cov(j, j);
    // Grid contours are in (w1, w2): shown when the view is (w1, w2); (w2, w1) swaps them.
    const auto oriented = [&](const std::shared_ptr<const ExactContours>& c) {
        if (!c || i == j || std::max(i, j) > 1 || i == 0)
            return c;
        auto swapped = std::make_shared<ExactContours>(*c);
        for (auto& level : *swapped)
            for (auto& line : level)
                for (auto& p : line)
                    std::swap(p(0), p(1));
        return std::shared_ptr<const ExactContours>(swapped);
    };
    s.exactContours = oriented(m_exactContours);
    s.laplaceContours = oriented(m_laplaceContours);
    if (m_problem.exactLaplace) {
        const GaussianPosterior& l = *m_problem.exactLaplace;
        s.laplaceMarginal.mean = {l.mean(i), l.mean(j)};
        s.laplaceMarginal.cov << l.cov(i, i), l.cov(i, j), l.cov(j, i), l.cov(j, j);
    }
    s.exactMean = exact.mean;
    s.exactVariances = exact.cov.diagonal();
    upperTriangle(exact.cov, s.exactCovariances);
    for (const auto& e : m_trial->estimates()) {
        PosteriorLiveSnapshot::Approximation a;
        a.method = e.method;
        a.status = e.status;
        const Matrix cov = e.model.denseCovariance(); // D is a regression's parameter count: small
        a.marginal = marginal2(e.model.c, e.model.F, e.model.psi, i, j);
        a.valid = std::isfinite(e.model.c.sum()) && positiveDefinite(a.marginal.cov);
        a.score = m_trial->score(e.method, e.model); // no KL: not shown, and ms per frame
        a.mean = e.model.c;
        a.variances = cov.diagonal();
        upperTriangle(cov, a.covariances);
        s.approximations.push_back(std::move(a));
    }
    for (const Vector& theta : m_trial->recentIterates())
        s.iterates.emplace_back(theta(i), theta(j));
    s.curves = m_curves;
    s.rows = rows();
    s.sgdLearningRate = m_lr;
    s.lambda = m_lambda;
    return s;
}

std::vector<PosteriorRow> PosteriorLive::rows() const {
    std::vector<PosteriorRow> out;
    for (const auto method : m_config.methods) {
        const auto it = m_curves.find(method);
        if (it == m_curves.end())
            continue;
        for (const auto& p : it->second)
            out.push_back({m_problem.dataset, methodName(method), m_config.run.latent, 0, p.epoch,
                           p.score, p.seconds, csvWord(p.status)});
    }
    return out;
}

} // namespace fa
