#include "LiveExplorer.h"

#include "BatchFA.h"
#include "FaSweep.h"
#include "OnlineEM.h"
#include "OnlineSGA.h"
#include "StructuredMetrics.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {

std::vector<long> logSpacedCheckpoints(long total, int pointsPerDecade) {
    std::vector<long> points;
    for (int i = 0;; ++i) {
        const long t = std::lround(std::pow(10.0, static_cast<double>(i) / pointsPerDecade));
        if (t > total)
            break;
        if (points.empty() || t > points.back())
            points.push_back(t);
    }
    if (points.empty() || points.back() != total)
        points.push_back(total);
    return points;
}

void validate(const ExplorerConfig& c) {
    validate(c.generator);
    if (c.fitLatent < 1 || c.fitLatent >= c.generator.dim)
        throw std::invalid_argument("fitted K must satisfy 1 <= K < D");
    if (!(c.learningRate > 0.0))
        throw std::invalid_argument("learning rate must be positive");
    if (c.warmup < 0)
        throw std::invalid_argument("warm-up must not be negative");
    if (c.totalSamples < 1)
        throw std::invalid_argument("total samples must be positive");
    if (c.pointsPerDecade < 1)
        throw std::invalid_argument("points per decade must be positive");
}

struct LiveExplorer::State {
    FAModel truth;
    std::unique_ptr<FASampler> sampler;
    Rng sampleRng{0};
    std::vector<std::unique_ptr<OnlineFitter>> fitters;
    std::vector<AlgorithmTrace> traces;
    std::vector<long> checkpoints;
    std::size_t nextCheckpoint = 0;
    Matrix stored; // samples kept for batch refits, one per column
    std::uint64_t batchSeed = 0;
    Vector x;
};

LiveExplorer::LiveExplorer(const ExplorerConfig& config) : m_config(config), m_state(std::make_unique<State>()) {
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
    for (const auto& f : s.fitters)
        s.traces.push_back({f->name(), FitStatus::WarmUp, 0, {}});
    if (config.runBatch) {
        s.traces.push_back({"batch", FitStatus::Running, 0, {}});
        if (config.generator.dim <= kBatchMaxDim)
            s.stored.resize(D, config.totalSamples);
    }
    s.checkpoints = logSpacedCheckpoints(config.totalSamples, config.pointsPerDecade);
    s.x.resize(D);
}

LiveExplorer::~LiveExplorer() = default;

void LiveExplorer::setLearningRate(double eta) {
    for (auto& f : m_state->fitters)
        f->setLearningRate(eta);
    m_config.learningRate = eta;
}

long LiveExplorer::advance(long n) {
    State& s = *m_state;
    long done = 0;
    while (done < n && m_samples < m_config.totalSamples) {
        Eigen::Ref<Vector> x = s.stored.size() > 0 ? Eigen::Ref<Vector>(s.stored.col(m_samples)) : Eigen::Ref<Vector>(s.x);
        s.sampler->draw(s.sampleRng, x);
        for (auto& f : s.fitters)
            f->observe(x);
        ++m_samples;
        ++done;
        if (s.nextCheckpoint < s.checkpoints.size() && m_samples == s.checkpoints[s.nextCheckpoint]) {
            record();
            ++s.nextCheckpoint;
        }
    }
    return done;
}

void LiveExplorer::record() {
    State& s = *m_state;
    const double D = static_cast<double>(m_config.generator.dim);
    auto score = [&](const FAModel& m) {
        // Structured metrics at every D: they agree with the dense ones to 1e-8 and stay
        // O(D K^2), so recording never stalls the stream.
        return CurvePoint{m_samples, structuredRelativeCovarianceDistance(m, s.truth), structuredW2(m, s.truth) / D};
    };
    for (std::size_t i = 0; i < s.fitters.size(); ++i) {
        AlgorithmTrace& t = s.traces[i];
        const FitSnapshot fit = s.fitters[i]->snapshot(); // one copy of the D x K state
        t.status = fit.status;
        t.divergedAt = fit.divergedAt;
        if (t.status != FitStatus::Diverged)
            t.points.push_back(score(fit.model));
    }
    // Batch refits at each decade (100, 1000, ...) and at the end, as in the thesis figures.
    if (m_config.runBatch && s.stored.size() > 0 && m_samples >= 2) {
        const double lg = std::log10(static_cast<double>(m_samples));
        const bool decade = std::abs(lg - std::round(lg)) < 1e-12 && m_samples >= 100;
        if (decade || m_samples == m_config.totalSamples) {
            BatchFAOptions bo;
            bo.latent = m_config.fitLatent;
            bo.seed = deriveSeed(s.batchSeed, static_cast<std::uint64_t>(m_samples));
            s.traces.back().points.push_back(score(fitBatchFA(s.stored.leftCols(m_samples), bo).model));
        }
    }
}

ExplorerSnapshot LiveExplorer::snapshot() const {
    ExplorerSnapshot snap;
    snap.samples = m_samples;
    snap.totalSamples = m_config.totalSamples;
    snap.traces = m_state->traces;
    for (std::size_t i = 0; i < m_state->fitters.size(); ++i)
        snap.traces[i].status = m_state->fitters[i]->status();
    return snap;
}

} // namespace fa
