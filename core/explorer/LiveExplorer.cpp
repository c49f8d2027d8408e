#include "core/explorer/LiveExplorer.h"
#include "core/explorer/ExplorerParams.h"

#include "core/fa/BatchFA.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/Checkpoints.h"
#include "core/lab/TrialRunner.h"
#include "core/lab/WorkPool.h"
#include "core/metrics/DenseMetrics.h"
#include "core/metrics/StructuredMetrics.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <stdexcept>

namespace fa {

namespace {
using Clock = std::chrono::steady_clock;
constexpr Eigen::Index kStepHead = 8; // coordinates a step trace keeps

struct BatchOutcome {
    CurvePoint point;
    FAModel model;
};
} // namespace

void validate(const ExplorerConfig& c) {
    checkParams(explorerParams(), c);
    validate(c.generator);
    if (c.fitLatent < 1 || c.fitLatent >= c.generator.dim)
        throw std::invalid_argument("fitted K must satisfy 1 <= K < D");
    checkLearningRate(c.learningRate);
    if (c.warmup < 0)
        throw std::invalid_argument("warm-up must not be negative");
    if (c.totalSamples < 1)
        throw std::invalid_argument("total samples must be positive");
    if (c.pointsPerDecade < 1)
        throw std::invalid_argument("points per decade must be positive");
    for (std::size_t i = 0; i < c.learningRateChanges.size(); ++i) {
        const auto& [at, eta] = c.learningRateChanges[i];
        if (at < 0 || at > c.totalSamples || (i > 0 && at < c.learningRateChanges[i - 1].first))
            throw std::invalid_argument(
                "learning-rate changes must be at ascending sample counts within the run");
        checkLearningRate(eta);
    }
    const int fitters = (c.runEm ? 1 : 0) + (c.runSga ? 1 : 0);
    const double state = faStateBytes(c.generator.dim, c.generator.latent, c.fitLatent, fitters);
    if (state > kMaxModelBytes)
        throw std::invalid_argument(modelTooLarge(state));
    const double bytes = 8.0 * c.generator.dim * static_cast<double>(c.totalSamples);
    if (c.runBatch && c.generator.dim <= kBatchMaxDim && bytes > kMaxStoredBytes)
        throw std::invalid_argument(storedSamplesTooLarge(c.totalSamples, bytes));
}

struct LiveExplorer::State {
    FAModel truth;
    std::unique_ptr<FASampler> sampler;
    Rng sampleRng{0};
    std::vector<std::unique_ptr<OnlineFitter>> fitters;
    std::vector<double> fitSeconds;
    std::vector<AlgorithmTrace> traces;
    std::vector<long> checkpoints;
    std::size_t nextCheckpoint = 0;
    std::size_t nextRateChange = 0; // into config.learningRateChanges
    // Every sample, one per column, when batch refits need them; shared with a running refit,
    // which may outlive this run (it is dropped, not waited for, when the run ends).
    std::shared_ptr<Matrix> storedData = std::make_shared<Matrix>();
    Matrix& stored = *storedData;
    Matrix chunk; // otherwise a small reused buffer
    std::uint64_t batchSeed = 0;

    ViewOptions view;
    std::vector<Eigen::Vector2d> ring; // recent observations (2D view)
    std::size_t ringHead = 0, ringCount = 0;
    std::optional<StepTrace> lastStep;

    std::deque<long> batchQueue; // sample counts waiting for a refit
    std::optional<FAModel> latestBatch;
    /// On the process's pool (core/lab/WorkPool.h): dropped, not waited for, at the end.
    std::optional<PoolTask<BatchOutcome>> batchRunning;

    void pushRecent(double a, double b) {
        if (ring.empty())
            return;
        ring[ringHead] = Eigen::Vector2d(a, b);
        ringHead = (ringHead + 1) % ring.size();
        ringCount = std::min(ringCount + 1, ring.size());
    }
};

LiveExplorer::LiveExplorer(const ExplorerConfig& config, AbandonFlag abandon)
    : LiveRun(std::move(abandon)), m_config(config), m_state(std::make_unique<State>()) {
    validate(config);
    State& s = *m_state;
    const TrialSeeds seeds = trialSeeds(config.seed, 0);
    s.truth = generateModel(config.generator, seeds.model);
    s.sampler = std::make_unique<FASampler>(s.truth);
    s.sampleRng = Rng(seeds.samples);
    s.batchSeed = seeds.batch;
    OnlineOptions o;
    o.latent = config.fitLatent;
    o.warmup = config.warmup;
    o.learningRate = config.learningRate;
    o.initSeed = seeds.init;
    const Eigen::Index D = config.generator.dim;
    if (config.runEm)
        s.fitters.push_back(std::make_unique<OnlineEM>(D, o));
    if (config.runSga)
        s.fitters.push_back(std::make_unique<OnlineSGA>(D, o));
    s.fitSeconds.assign(s.fitters.size(), 0.0);
    for (const auto& f : s.fitters) { // both cores on one stream from D = 32768 (docs/threads.md)
        f->setPassThreads(resolveThreads(0, 2));
        s.traces.push_back({f->name(), FitStatus::WarmUp, 0, {}});
    }
    if (config.runBatch) {
        s.traces.push_back({"batch", FitStatus::Running, 0, {}});
        if (D <= kBatchMaxDim)
            s.stored.resize(D, config.totalSamples);
    }
    // Chunks of at most ~16 MB, so D = 1e6 streams one sample at a time.
    s.chunk.resize(D, std::clamp<Eigen::Index>(2'000'000 / D, 1, 256));
    s.checkpoints = logSpacedCheckpoints(config.totalSamples, config.pointsPerDecade);
    ViewOptions view;
    view.blockSize = static_cast<int>(std::min<Eigen::Index>(view.blockSize, D));
    setView(view);
}

// A running refit is abandoned: it stops at its next check and frees its own data, so ending a
// run (reset, close, quit) never waits for a matrix product of seconds.
LiveExplorer::~LiveExplorer() = default;

void LiveExplorer::setLearningRate(double eta) {
    if (!(eta > 0.0) || !std::isfinite(eta))
        throw std::invalid_argument("learning rate must be positive");
    for (auto& f : m_state->fitters)
        f->setLearningRate(eta);
    // Replayed changes still ahead are superseded by this live one.
    auto& changes = m_config.learningRateChanges;
    changes.resize(m_state->nextRateChange);
    changes.emplace_back(m_samples, eta);
    m_state->nextRateChange = changes.size();
}

void LiveExplorer::applyRateChanges() {
    State& s = *m_state;
    const auto& changes = m_config.learningRateChanges;
    for (; s.nextRateChange < changes.size() && changes[s.nextRateChange].first <= m_samples;
         ++s.nextRateChange)
        for (auto& f : s.fitters)
            f->setLearningRate(changes[s.nextRateChange].second);
}

std::pair<Eigen::Index, Eigen::Index> LiveExplorer::mostCorrelatedPair() const {
    return fa::mostCorrelatedPair(m_state->truth);
}

void LiveExplorer::setView(const ViewOptions& view) {
    const int D = m_config.generator.dim;
    if (view.coordI < 0 || view.coordJ < 0 || view.coordI >= D || view.coordJ >= D)
        throw std::invalid_argument("2D view coordinates must lie in 1..D");
    if (view.coordI == view.coordJ)
        throw std::invalid_argument("the 2D view needs two different coordinates");
    if (view.blockSize < 1 || view.recent < 0 || view.recent > 100000)
        throw std::invalid_argument("view sizes out of range");
    State& s = *m_state;
    ViewOptions v = view;
    v.blockSize = std::min(v.blockSize, D);
    const bool sameCloud = v.coordI == s.view.coordI && v.coordJ == s.view.coordJ &&
                           static_cast<std::size_t>(v.recent) == s.ring.size();
    s.view = v;
    if (!sameCloud) { // the kept points were in other coordinates
        s.ring.assign(static_cast<std::size_t>(v.recent), Eigen::Vector2d::Zero());
        s.ringHead = s.ringCount = 0;
    }
}

void LiveExplorer::observeChunk(long n) {
    State& s = *m_state;
    Eigen::Ref<Matrix> block = s.stored.size() > 0
                                   ? Eigen::Ref<Matrix>(s.stored.middleCols(m_samples, n))
                                   : Eigen::Ref<Matrix>(s.chunk.leftCols(n));
    for (long j = 0; j < n; ++j) {
        s.sampler->draw(s.sampleRng, block.col(j));
        s.pushRecent(block(s.view.coordI, j), block(s.view.coordJ, j));
    }
    for (std::size_t k = 0; k < s.fitters.size(); ++k) {
        const auto t0 = Clock::now();
        for (long j = 0; j < n; ++j)
            s.fitters[k]->observe(block.col(j));
        s.fitSeconds[k] += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    m_samples += n;
    if (m_samples == s.checkpoints[s.nextCheckpoint]) {
        record();
        ++s.nextCheckpoint;
    }
}

long LiveExplorer::advance(long n) {
    State& s = *m_state;
    long done = 0;
    if (n > 0 && !finished())
        s.lastStep.reset();
    while (done < n && !finished()) {
        applyRateChanges();
        long c = std::min({n - done, s.checkpoints[s.nextCheckpoint] - m_samples,
                           static_cast<long>(s.chunk.cols())});
        if (s.nextRateChange < m_config.learningRateChanges.size())
            c = std::min(c, m_config.learningRateChanges[s.nextRateChange].first - m_samples);
        observeChunk(c);
        done += c;
    }
    poll();
    return done;
}

long LiveExplorer::stepTraced() {
    if (finished())
        return 0;
    State& s = *m_state;
    struct Before {
        Matrix F;
        Vector psi;
    };
    applyRateChanges();
    std::vector<Before> before;
    for (const auto& f : s.fitters)
        before.push_back({f->loadings(), f->psi()});
    observeChunk(1);
    const auto x = s.stored.size() > 0 ? s.stored.col(m_samples - 1) : s.chunk.col(0);

    StepTrace trace;
    trace.t = m_samples;
    trace.xHead = x.head(std::min<Eigen::Index>(kStepHead, x.size()));
    for (std::size_t k = 0; k < s.fitters.size(); ++k) {
        const OnlineFitter& f = *s.fitters[k];
        StepTrace::Fit fit;
        fit.name = f.name();
        fit.warmUp = m_samples <= m_config.warmup;
        // The same E-step the fitter just ran: old F and psi, d = x - updated running mean.
        EStep e;
        e.compute(before[k].F, before[k].psi, Vector(x - f.mean()));
        fit.m = e.m();
        fit.sigma = e.sigma();
        fit.relFChange = (f.loadings() - before[k].F).norm() / before[k].F.norm();
        const Vector dpsi = f.psi() - before[k].psi;
        fit.psiChange = dpsi.norm();
        dpsi.cwiseAbs().maxCoeff(&fit.psiArgMax);
        fit.psiMaxChange = dpsi[fit.psiArgMax];
        trace.fits.push_back(std::move(fit));
    }
    s.lastStep = std::move(trace);
    poll();
    return 1;
}

void LiveExplorer::record() {
    State& s = *m_state;
    const double D = static_cast<double>(m_config.generator.dim);
    for (std::size_t i = 0; i < s.fitters.size(); ++i) {
        AlgorithmTrace& t = s.traces[i];
        const OnlineFitter& f = *s.fitters[i];
        t.status = f.status();
        t.divergedAt = f.divergedAt();
        if (t.status == FitStatus::Diverged)
            continue;
        const FAModel m{f.mean(), f.loadings(), f.psi()};
        // Structured metrics at every D: they agree with the dense ones to 1e-8 and stay
        // O(D K^2), so recording never stalls the stream.
        t.points.push_back({m_samples, structuredRelativeCovarianceDistance(m, s.truth),
                            structuredW2(m, s.truth) / D, relativeMeanDistance(m.c, s.truth.c),
                            s.fitSeconds[i]});
    }
    // Batch refits at each decade (100, 1000, ...) and at the end, as in the thesis figures.
    if (m_config.runBatch && s.stored.size() > 0 && m_samples >= 2) {
        const double lg = std::log10(static_cast<double>(m_samples));
        const bool decade = std::abs(lg - std::round(lg)) < 1e-12 && m_samples >= 100;
        if (decade || m_samples == m_config.totalSamples)
            s.batchQueue.push_back(m_samples);
    }
}

void LiveExplorer::poll() {
    State& s = *m_state;
    if (s.batchRunning && s.batchRunning->ready()) {
        try {
            BatchOutcome out = s.batchRunning->get();
            s.traces.back().points.push_back(out.point);
            s.latestBatch = std::move(out.model);
        } catch (const std::exception&) {
            // a failed refit leaves no point; the stream goes on
        }
        s.batchRunning.reset();
    }
    if (s.batchRunning || s.batchQueue.empty())
        return;
    const long T = s.batchQueue.front();
    s.batchQueue.pop_front();
    BatchFAOptions bo;
    bo.latent = m_config.fitLatent;
    bo.seed = deriveSeed(s.batchSeed, static_cast<std::uint64_t>(T));
    // Columns 0..T-1 never change again and `stored` is never reallocated, so the refit can
    // read them while the stream writes later columns. The refit owns a share of them and a
    // copy of the truth (O(D K)), so it may outlive the run.
    std::shared_ptr<const Matrix> stored = s.storedData;
    const double D = static_cast<double>(m_config.generator.dim);
    s.batchRunning = WorkPool::shared().submit<BatchOutcome>(
        [stored, truth = s.truth, bo, T, D](const std::atomic<bool>& stop) mutable {
            bo.cancel = &stop;
            const auto t0 = Clock::now();
            const BatchFit fit(stored->leftCols(T), bo);
            if (fit.status() == FitStatus::Failed)
                throw std::runtime_error("cancelled");
            const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
            FAModel model = fit.model();
            CurvePoint p{T, structuredRelativeCovarianceDistance(model, truth),
                         structuredW2(model, truth) / D, relativeMeanDistance(model.c, truth.c),
                         seconds};
            return BatchOutcome{p, std::move(model)};
        });
}

bool LiveExplorer::batchPending() const {
    return m_state->batchRunning || !m_state->batchQueue.empty();
}

void LiveExplorer::waitForBatch() {
    while (batchPending()) {
        if (m_state->batchRunning)
            m_state->batchRunning->wait();
        poll();
    }
}

ExplorerSnapshot LiveExplorer::snapshot() const {
    const State& s = *m_state;
    ExplorerSnapshot snap;
    snap.config = m_config;
    snap.samples = m_samples;
    snap.totalSamples = m_config.totalSamples;
    snap.dim = m_config.generator.dim;
    snap.traces = s.traces;
    for (std::size_t i = 0; i < s.fitters.size(); ++i) {
        snap.traces[i].status = s.fitters[i]->status();
        if (snap.traces[i].status == FitStatus::Diverged)
            snap.traces[i].divergedAt = s.fitters[i]->divergedAt();
    }
    snap.view = s.view;
    auto view = [&](const std::string& name, const Vector& c, const Matrix& F, const Vector& psi,
                    bool valid) {
        ModelView v;
        v.name = name;
        v.valid = valid;
        if (valid) {
            v.marginal = marginal2(c, F, psi, s.view.coordI, s.view.coordJ);
            v.block = covarianceBlock(F, psi, s.view.blockSize);
        }
        return v;
    };
    snap.models.push_back(view("truth", s.truth.c, s.truth.F, s.truth.psi, true));
    for (const auto& f : s.fitters)
        snap.models.push_back(fitterView(*f, s.view));
    if (s.latestBatch)
        snap.models.push_back(
            view("batch", s.latestBatch->c, s.latestBatch->F, s.latestBatch->psi, true));
    snap.recent.reserve(s.ringCount);
    for (std::size_t k = 0; k < s.ringCount; ++k)
        snap.recent.push_back(
            s.ring[(s.ringHead + s.ring.size() - s.ringCount + k) % s.ring.size()]);
    snap.lastStep = s.lastStep;
    snap.batchPending = batchPending();
    snap.config = m_config;
    return snap;
}

long LiveExplorer::step(long n) {
    if (n < 1)
        return 0;
    const long done = advance(n - 1);
    return done + stepTraced(); // the display explains the last observation of the step
}

} // namespace fa
