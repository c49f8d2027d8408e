#pragma once
// One live run for the explorer window: a true model, a sample stream, online EM and SGA,
// batch refits at decades (on a background thread, so the stream never stalls), and error
// curves recorded at log-spaced checkpoints (so a view's drawing cost does not grow with
// samples seen). Snapshots also carry small views for the 2D and heat-map panels and, in
// step mode, what the last observation did. Qt-free; the GUI's worker thread drives it.
#include "core/explorer/FaSweep.h"
#include "core/fa/ModelGenerator.h"
#include "core/fa/OnlineFitter.h"
#include "core/lab/LiveRun.h"
#include "core/metrics/MarginalViews.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

struct ExplorerConfig {
    GeneratorSpec generator; ///< the true model
    int fitLatent = 10;      ///< K of the fitted models (may differ from the true K)
    std::uint64_t seed = 0;  ///< seeds as trial 0 of fa-sweep with this seed
    bool runEm = true, runSga = true, runBatch = true;
    double learningRate = 0.001;
    long warmup = 100;
    long totalSamples = 100000;
    int pointsPerDecade = 20; ///< curve checkpoints
    /// Learning-rate changes made during the run: (samples seen, new rate), ascending. Kept so
    /// a saved session replays them and reproduces the curves exactly.
    std::vector<std::pair<long, double>> learningRateChanges;
};

/// Throws std::invalid_argument naming the bad value.
void validate(const ExplorerConfig& config);

/// What the 2D and covariance views show; display-only, changeable without a reset.
struct ViewOptions {
    int coordI = 0, coordJ = 1; ///< coordinates of the 2D view (0-based)
    int blockSize = 40;         ///< the heat maps show the leading block of this size
    int recent = 300;           ///< observations kept for the 2D view's point cloud
};

struct CurvePoint {
    long samples = 0;
    double relCovDist = 0, w2OverDim = 0, relMeanDist = 0;
    double seconds = 0; ///< online: cumulative fitting time; batch: this refit's time
};

struct AlgorithmTrace {
    std::string name; ///< em, sga or batch
    FitStatus status = FitStatus::WarmUp;
    long divergedAt = 0;
    std::vector<CurvePoint> points;
};

/// One model as the small views see it.
struct ModelView {
    std::string name;  ///< truth, em, sga or batch
    bool valid = true; ///< false after divergence (nothing to draw)
    Marginal2 marginal;
    Matrix block; ///< leading covariance block
};

/// What one observation did, for the teaching display (step mode).
struct StepTrace {
    long t = 0;
    Vector xHead; ///< the observation's first coordinates
    struct Fit {
        std::string name;
        bool warmUp = false;        ///< F and psi stayed fixed
        Vector m;                   ///< E-step posterior mean m_t = Sigma F^T Psi^-1 (x - mean)
        Matrix sigma;               ///< E-step posterior covariance (I + F^T Psi^-1 F)^-1
        double relFChange = 0;      ///< ||F_t - F_{t-1}||_F / ||F_{t-1}||_F
        double psiChange = 0;       ///< ||psi_t - psi_{t-1}||_2
        Eigen::Index psiArgMax = 0; ///< coordinate whose psi moved most
        double psiMaxChange = 0;    ///< its signed change
    };
    std::vector<Fit> fits;
};

/// Immutable value handed from the worker to the views.
struct ExplorerSnapshot : LabSnapshotOf<ExplorerConfig> {
    long samples = 0;
    long totalSamples = 0;
    long dim = 0;
    std::vector<AlgorithmTrace> traces; ///< online algorithms first, batch last if enabled
    ViewOptions view;
    std::vector<ModelView> models; ///< truth first, then online fitters, then the latest batch fit
    std::vector<Eigen::Vector2d>
        recent; ///< recent observations in the 2D view's coordinates, oldest first
    std::optional<StepTrace> lastStep; ///< set when the newest observation was a traced step
    bool batchPending = false;         ///< a batch refit is running in the background
    ExplorerConfig config;             ///< the run's parameters, with learning-rate changes so far
};

class LiveExplorer : public LiveRun {
  public:
    explicit LiveExplorer(const ExplorerConfig& config,
                          AbandonFlag abandon = {}); ///< throws std::invalid_argument
    ~LiveExplorer() override; ///< cancels a running batch refit and waits for it

    /// Observes up to n more samples (never past totalSamples); returns how many.
    long advance(long n) override;
    /// Observes n samples, the last one traced (StepTrace), as the teaching display steps.
    long step(long n) override;
    /// Observes one sample and records what it did (StepTrace); returns 0 at the end.
    long stepTraced();
    /// True when the stream is done; batch refits may still be running (batchPending).
    bool batchPending() const;
    bool backgroundPending() const override { return batchPending(); }
    /// Collects finished batch refits and starts queued ones; never blocks.
    void poll() override;
    /// Blocks until every queued batch refit has finished (tests, headless runs).
    void waitForBatch();
    long samples() const { return m_samples; }
    long position() const override { return m_samples; }
    long length() const override { return m_config.totalSamples; }
    std::string unit() const override { return "samples"; }
    std::shared_ptr<const LabSnapshot> labSnapshot() const override;
    const ExplorerConfig& config() const { return m_config; }
    /// Takes effect from the next observation and is recorded in config().learningRateChanges.
    void setLearningRate(double eta);
    void setView(const ViewOptions& view); ///< throws std::invalid_argument for bad coordinates
    /// The true model's most correlated pair of coordinates (mostCorrelatedPair in FAModel.h).
    std::pair<Eigen::Index, Eigen::Index> mostCorrelatedPair() const;
    ExplorerSnapshot snapshot() const;

  private:
    struct State;
    void observeChunk(long n);
    void applyRateChanges();
    void record();
    ExplorerConfig m_config;
    long m_samples = 0;
    std::unique_ptr<State> m_state;
};

/// The snapshot's curves as fa-sweep rows (trial 0), ordered as the CLI orders them.
std::vector<FaSweepRow> sweepRows(const ExplorerSnapshot& snapshot, const ExplorerConfig& config);

/// The 2D marginal and leading covariance block of one online fit, formed from a few rows.
ModelView fitterView(const OnlineFitter& fitter, const ViewOptions& view);

} // namespace fa
