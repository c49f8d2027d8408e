#pragma once
// The posterior lab as the window runs it: one trial of several approximations side by side,
// advanced a few epochs at a time, with error curves kept over epochs and small immutable
// snapshots (2D marginals, the iterate cloud, the comparison scatter data) for the views.
// Live changes of the SGD learning rate and lambda are recorded with their epoch, so a saved
// session replays them exactly.
#include "core/lab/LiveRun.h"
#include "core/metrics/MarginalViews.h"
#include "core/posterior/GradientStudy.h"
#include "core/posterior/PosteriorLab.h"
#include "core/vi/BoundHyper.h"

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <vector>

namespace fa {

struct PosteriorLiveConfig {
    PosteriorSetup setup;
    PosteriorRunOptions run;
    std::vector<PosteriorMethod> methods = {PosteriorMethod::VifaGauss,
                                            PosteriorMethod::VifaLaplace, PosteriorMethod::SgdEm,
                                            PosteriorMethod::Swag};
    std::uint64_t seed = 0;
    struct Change {
        long epoch = 0; ///< applies before this epoch runs (0 = from the start)
        double sgdLearningRate = 0.0, lambda = 0.0;
    };
    std::vector<Change> changes; ///< live slider changes, in epoch order
    long length = 5000;          ///< epochs in the run (the CLI's default --epochs)
};

struct PosteriorCurvePoint {
    long epoch = 0;
    PosteriorScore score;
    double seconds = 0.0; ///< compute time of the whole trial up to this epoch
    FitStatus status = FitStatus::Running;
};

/// A grid posterior's highest-density contours at 39 / 86 / 99 % mass (kHpdMasses), in the
/// view's coordinates; each level one or more polylines.
using ExactContours = std::array<std::vector<Polyline2>, 3>;

struct PosteriorLiveSnapshot : LabSnapshotOf<PosteriorLiveConfig> {
    long epoch = 0;
    std::string dataset;
    std::vector<std::string> parameterNames;
    Hyperparameters hyper;
    HyperMode hyperMode = HyperMode::Manual;
    Eigen::Index trainRows = 0;
    int coordI = 0, coordJ = 1;
    Marginal2 exactMarginal;
    /// Where the exact posterior is a grid (D = 2): its contours, drawn instead of the ellipse;
    /// and the Laplace prior's posterior when a Laplace fit runs. Shared by every snapshot.
    std::shared_ptr<const ExactContours> exactContours, laplaceContours;
    Marginal2 laplaceMarginal; ///< moments of the Laplace posterior (valid with its contours)
    Vector exactMean, exactVariances,
        exactCovariances; ///< covariances: strict upper triangle, row-major
    struct Approximation {
        PosteriorMethod method;
        FitStatus status = FitStatus::Running;
        bool valid = false; ///< finite and positive definite
        Marginal2 marginal;
        PosteriorScore score;
        Vector mean, variances, covariances;
    };
    std::vector<Approximation> approximations;
    std::vector<Eigen::Vector2d> iterates; ///< recent SGD iterates in (coordI, coordJ)
    std::map<PosteriorMethod, std::vector<PosteriorCurvePoint>> curves;
    std::vector<PosteriorRow> rows; ///< the curves in the CLI's columns (PosteriorLive::rows)
    double sgdLearningRate = 0.0, lambda = 0.0;
    /// The gradient panel's study of the first full or mean-field VI fit (labSnapshot only,
    /// renewed at most every 2 s of wall time); null without such a fit.
    std::shared_ptr<const GradientStudy> gradients;
    /// KL(q || p) over epochs of the first vi-full / vi-meanfield fit and, with
    /// compareEstimators, of the same fit driven by the other estimators (at most 200 points
    /// each, thinned as the run grows); empty where the KL is not known.
    struct EstimatorCurve {
        GradientEstimator estimator;
        std::vector<std::pair<long, double>> kl;
    };
    std::vector<EstimatorCurve> estimatorCurves;
    /// Linear regression: alpha and beta learned through the bound from alpha = beta = 1 with a
    /// full-covariance and a mean-field q (200 iterations each, computed once per run).
    std::shared_ptr<const std::vector<BoundStep>> boundFull, boundMeanField;
};

class PosteriorLive : public LiveRun {
  public:
    /// Prepares the problem (loads or generates data) and the approximations; throws
    /// std::invalid_argument with a message for the user.
    explicit PosteriorLive(const PosteriorLiveConfig& config, AbandonFlag abandon = {});
    PosteriorLive(const PosteriorLive&) = delete; // the trial refers to m_problem
    PosteriorLive& operator=(const PosteriorLive&) = delete;

    long advance(long epochs) override; ///< up to the run's length
    long epoch() const { return m_trial->epoch(); }
    long position() const override { return epoch(); }
    long length() const override { return m_config.length; }
    /// A live change of the run's length, in [1, kMaxRunLength]; never below the epoch reached.
    void setLength(long length);
    std::string unit() const override { return "epochs"; }
    PosteriorLiveSnapshot snapshot(int coordI, int coordJ) const;
    /// The snapshot at the coordinates set by setCoordinates (default the first two).
    std::shared_ptr<const LabSnapshot> labSnapshot() const override;
    /// The 2D view's parameters; throws std::invalid_argument unless two different ones < dim.
    void setCoordinates(int coordI, int coordJ);

    /// Live changes, recorded in config().changes.
    void setSgdLearningRate(double eta);
    void setLambda(double lambda);
    const PosteriorLiveConfig& config() const { return m_config; }
    /// The gradient panel's study is renewed while playing at most every 2 s; when the run
    /// stops, the worker polls until it is renewed for the last epoch.
    void poll() override;
    bool backgroundPending() const override { return studyStale(); }
    const PosteriorProblem& problem() const { return m_problem; }
    /// Every recorded curve point as CSV rows (trial 0, seconds = time at that epoch).
    std::vector<PosteriorRow> rows() const;

  private:
    void record();
    void recordKl();
    void applyChangesAt(long epoch);

    PosteriorLiveConfig m_config;
    PosteriorProblem m_problem;
    std::unique_ptr<PosteriorTrial> m_trial;
    std::map<PosteriorMethod, std::vector<PosteriorCurvePoint>> m_curves;
    std::size_t m_nextChange = 0;
    long m_stride = 1, m_klStride = 1;
    std::vector<PosteriorLiveSnapshot::EstimatorCurve> m_klCurves;
    std::shared_ptr<const std::vector<BoundStep>> m_boundFull, m_boundMeanField;
    double m_seconds = 0.0;
    double m_lr = 0.0, m_lambda = 0.0; // SGD's current settings, also when no SGD method runs
    int m_coordI = 0, m_coordJ = 1;
    std::shared_ptr<const ExactContours> m_exactContours, m_laplaceContours;
    bool studyStale() const;
    void renewStudy() const;
    mutable std::shared_ptr<const GradientStudy> m_study;
    mutable std::chrono::steady_clock::time_point m_studyAt;
    mutable long m_studyEpoch = -1; // where the last study was attempted
    mutable int m_studyI = -1, m_studyJ = -1;
};

} // namespace fa
