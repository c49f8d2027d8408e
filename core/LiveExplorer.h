#pragma once
// One live run for the explorer window: a true model, a sample stream, online EM and SGA,
// batch refits at decades, and error curves recorded at log-spaced checkpoints (so a view's
// drawing cost does not grow with samples seen). Qt-free; the GUI's worker thread drives it.
#include "ModelGenerator.h"
#include "OnlineFitter.h"

#include <memory>
#include <string>
#include <vector>

namespace fa {

struct ExplorerConfig {
    GeneratorSpec generator;  ///< the true model
    int fitLatent = 10;       ///< K of the fitted models (may differ from the true K)
    std::uint64_t seed = 0;   ///< seeds as trial 0 of fa-sweep with this seed
    bool runEm = true, runSga = true, runBatch = true;
    double learningRate = 0.001;
    long warmup = 100;
    long totalSamples = 100000;
    int pointsPerDecade = 20; ///< curve checkpoints
};

void validate(const ExplorerConfig& config);

struct CurvePoint {
    long samples;
    double relCovDist, w2OverDim;
};

struct AlgorithmTrace {
    std::string name; ///< em, sga or batch
    FitStatus status = FitStatus::WarmUp;
    long divergedAt = 0;
    std::vector<CurvePoint> points;
};

/// Immutable value handed from the worker to the views.
struct ExplorerSnapshot {
    long samples = 0;
    long totalSamples = 0;
    std::vector<AlgorithmTrace> traces; ///< online algorithms first, batch last if enabled
};

class LiveExplorer {
public:
    explicit LiveExplorer(const ExplorerConfig& config); ///< throws std::invalid_argument
    ~LiveExplorer();

    /// Observes up to n more samples (never past totalSamples); returns how many.
    long advance(long n);
    bool finished() const { return m_samples >= m_config.totalSamples; }
    long samples() const { return m_samples; }
    void setLearningRate(double eta);
    ExplorerSnapshot snapshot() const;

private:
    struct State;
    void record();
    ExplorerConfig m_config;
    long m_samples = 0;
    std::unique_ptr<State> m_state;
};

/// Checkpoints 1, ..., total at pointsPerDecade per decade (rounded, unique, ascending).
std::vector<long> logSpacedCheckpoints(long total, int pointsPerDecade);

} // namespace fa
