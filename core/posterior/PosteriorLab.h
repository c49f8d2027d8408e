#pragma once
// The posterior lab: a regression problem with its exact posterior, and the FA-shaped
// approximations run against it (VIFA / VIPPCA, and SGD iterates fitted by online EM, online
// SGA or SWAG), scored over epochs. Shared by the CLI (`posterior`) and the window.
#include "core/data/RegressionData.h"
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/fa/OnlineFitter.h"
#include "core/lab/TrialRunner.h"
#include "core/metrics/DenseMetrics.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/GaussianVi.h"
#include "core/vi/GridPosterior.h"
#include "core/vi/SgdTrainer.h"
#include "core/vi/Targets.h"
#include "core/vi/Vifa.h"

#include <atomic>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class PosteriorMethod {
    VifaGauss,
    VifaLaplace,
    Vippca,
    SgdEm,
    SgdSga,
    Swag,
    ViFull,
    ViMeanField
};
/// vifa-gauss, vifa-laplace, vippca, sgd-em, sgd-sga, swag, vi-full, vi-meanfield
std::string methodName(PosteriorMethod method);
std::optional<PosteriorMethod> parseMethod(const std::string& name);
std::vector<PosteriorMethod> allPosteriorMethods();
bool isSgdMethod(PosteriorMethod method);
/// The prior a method's posterior has: Laplace for vifa-laplace, Gaussian for the rest.
PriorKind methodPrior(PosteriorMethod method);

/// Which data and which prior. "Auto" choices: synthetic data keeps every row for training,
/// has no bias column and uses the recipe's alpha and beta; real data gets a bias column, a
/// 50/50 split and alpha, beta by evidence maximisation.
/// The prior and noise precisions every entry point accepts (the controls, sessions, the CLI):
/// beyond these the exact posterior's covariance under- or overflows and no distance is finite.
constexpr double kPrecisionMin = 1e-8;
constexpr double kPrecisionMax = 1e8;

struct PosteriorSetup {
    /// synthetic, logistic-synthetic, bimodal-synthetic, boston, concrete, energy, yacht or a CSV
    std::string dataset = "synthetic";
    std::string target;   ///< CSV target column; empty = last column
    DatasetLoader loader; ///< reads anything but synthetic (fa::io::datasetLoader)
    SyntheticRecipe synthetic;
    double trainFraction = 0.0;      ///< 0 = auto
    std::optional<bool> bias;        ///< unset = auto
    std::optional<HyperMode> hyper;  ///< unset = auto
    double alpha = 0.01, beta = 0.1; ///< used when hyper == Manual (default: the recipe's)
};

/// The generated targets that are not linear regression (docs/maths/posterior.md §5.1): logistic
/// regression (N = 60, x ~ N(0, I), w_true = (1.5, -1), alpha = 1) and the bimodal bad case
/// y = w1 w2 x + eps (N = 20, x ~ N(0, 1), u = w1 w2 = 1, beta = 4, alpha = 1).
struct GeneratedTarget {
    TargetKind kind;
    RegressionData data;
    Hyperparameters hyper;
};
std::optional<GeneratedTarget> generatedTarget(const std::string& dataset, std::uint64_t seed);

struct PosteriorProblem {
    std::string dataset;
    TargetKind target = TargetKind::Linear;
    RegressionProblem data;
    Hyperparameters hyper;
    HyperMode hyperMode = HyperMode::Manual;
    /// The exact posterior's moments under the Gaussian prior: closed form for linear
    /// regression, from the grid otherwise.
    GaussianPosterior exact;
    /// Under the Laplace prior (rate sqrt(2 alpha)), from the grid where D = 2; unset beyond
    /// (no exact reference: Laplace fits are then scored against `exact`).
    std::optional<GaussianPosterior> exactLaplace;
    /// The grids (D = 2): the Gaussian-prior posterior for targets that are not linear
    /// regression, the Laplace-prior posterior for every target.
    std::optional<GridPosterior> grid, gridLaplace;
    Eigen::Index dim() const { return target == TargetKind::Bilinear ? 2 : data.dim(); }
    /// The reference a method is scored against.
    const GaussianPosterior& exactFor(PosteriorMethod method) const;
    /// The grid of a method's posterior, if there is one.
    const GridPosterior* gridFor(PosteriorMethod method) const;
};

/// Loads (or generates, from dataSeed) the data, prepares it, sets alpha and beta and computes
/// the exact posterior on the training part. Throws std::invalid_argument with a clear message.
PosteriorProblem preparePosteriorProblem(const PosteriorSetup& setup, std::uint64_t dataSeed);

/// How the approximations run. The prior precision of VIFA and lambda of SGD come from the
/// problem's alpha, beta unless overridden here.
struct PosteriorRunOptions {
    int latent = 1;
    VifaOptions vifa; ///< latent, prior and precision are set per method; vi-full and
                      ///< vi-meanfield take its batch, samples, optimiser, steps and clipping
    GradientEstimator estimator = GradientEstimator::Reparam; ///< every variational fit
    /// Also run the first vi-full / vi-meanfield fit with the other two estimators (same seed,
    /// not scored), so their KL curves can be compared (the window's gradient tab).
    bool compareEstimators = false;
    double vippcaSigma = 0.01;
    SgdOptions sgd; ///< lambda is alpha / beta unless lambdaOverride is set
    std::optional<double> lambdaOverride;
    int warmupEpochs = 10; ///< SGD epochs before iterates reach the FA fitters
    long faWarmup = 100;   ///< fitter updates during which F and psi stay fixed
    double sgaLearningRate = 0.001;
    std::size_t recentIterates = 300; ///< kept for the window's point cloud
};

struct PosteriorScore {
    double relMeanDist = 0.0, relCovDist = 0.0, w2 = 0.0, w2OverDim = 0.0;
    /// KL(q || p) by quadrature where the exact posterior is a grid (D = 2); NaN elsewhere.
    double kl = std::numeric_limits<double>::quiet_NaN();
};

/// One trial: every chosen method on one problem, advanced an epoch at a time. SGD-fed
/// methods share one SGD trajectory (as in the thesis, where both fitters saw the same iterates).
class PosteriorTrial {
  public:
    PosteriorTrial(const PosteriorProblem& problem, const PosteriorRunOptions& options,
                   const std::vector<PosteriorMethod>& methods, std::uint64_t seed);
    ~PosteriorTrial();

    void runEpoch();
    /// Every fit of the trial (VI, its shadows, SGD) stops at its next mini-batch once flag is
    /// raised (core/math/Abandon.h).
    void abandonOn(const std::atomic<bool>* flag);
    long epoch() const { return m_epoch; }

    struct Estimate {
        PosteriorMethod method;
        FAModel model;
        FitStatus status = FitStatus::Running; ///< SGD-fed fits: Diverged once SGD diverged
    };
    std::vector<Estimate> estimates() const;
    /// Distances of a method's estimate to that method's exact posterior; with kl, also the
    /// KL by quadrature where there is a grid (a few milliseconds: not for every epoch).
    PosteriorScore score(PosteriorMethod method, const FAModel& model, bool kl = false) const;

    /// The last SGD iterates (empty when no SGD method runs), oldest first.
    const std::deque<Vector>& recentIterates() const { return m_recent; }
    /// The compared estimators' fits: the first vi-full / vi-meanfield method with its own
    /// estimator, then the others when compareEstimators is set; empty without such a method.
    std::vector<std::pair<GradientEstimator, FAModel>> estimatorRuns() const;
    /// KL(q || p) to a method's exact posterior where it is known: dense Gaussian KL for
    /// linear regression with the Gaussian prior, quadrature on the grid (D = 2); NaN else.
    double klToExact(PosteriorMethod method, const FAModel& model) const;
    void setSgdLearningRate(double eta);
    void setLambda(double lambda);
    double sgdLearningRate() const;
    double lambda() const;
    const std::vector<PosteriorMethod>& methods() const { return m_methods; }

  private:
    /// Adds a vi-full / vi-meanfield fit; the first is the compared one, and its shadows run the
    /// other estimators when compareEstimators is set.
    void addGaussianVi(const GaussianViOptions& g);

    const PosteriorProblem& m_problem;
    PosteriorRunOptions m_options;
    std::vector<PosteriorMethod> m_methods;
    std::unique_ptr<Likelihood> m_likelihood;
    /// Every method's fit, siblings behind one interface, in the order of m_methods.
    std::vector<std::unique_ptr<GaussianFit>> m_fits;
    std::vector<EpochFit*> m_epochFits;   ///< the fits that run epochs themselves (VI)
    std::vector<StreamFit*> m_onIterates; ///< the fits fed SGD iterates
    GaussianVi* m_compared = nullptr;     ///< the first vi-full / vi-meanfield fit
    std::vector<std::unique_ptr<GaussianVi>> m_shadows; ///< it, with the other estimators
    std::unique_ptr<SgdTrainer> m_sgd;
    std::deque<Vector> m_recent;
    DenseW2 m_w2, m_w2Laplace;
    long m_epoch = 0;
};

/// A whole experiment, as `faexplorer-cli posterior` runs it.
struct PosteriorConfig {
    PosteriorSetup setup;
    PosteriorRunOptions run;
    std::vector<PosteriorMethod> methods = {PosteriorMethod::VifaGauss};
    int epochs = 5000;
    int every = 500; ///< checkpoint period in epochs; the last epoch is always scored
    int trials = 10;
    std::uint64_t seed = 0;
    int threads = 1; ///< trials run side by side (0: every core); the rows do not depend on it
    Shard shard;     ///< the slice of the trials to run (a cluster's job array)
};

struct PosteriorRow {
    std::string dataset, method;
    int latent = 0, trial = 0;
    long epoch = 0;
    PosteriorScore score;
    double seconds = 0.0; ///< compute time of this method in this trial up to the checkpoint
    std::string status;
};

struct PosteriorProgress {
    int trial = 0, trials = 0;
    std::string method;
    long epoch = 0, epochs = 0;
};

/// Trials run side by side on config.threads, each method on its own (so its seconds are its
/// own). The same configuration gives the same rows apart from seconds, for any threads. cancel, if
/// set, stops between epochs and returns the rows so far.
std::vector<PosteriorRow>
runPosterior(const PosteriorConfig& config,
             const std::function<void(const PosteriorProgress&)>& progress = {},
             const std::atomic<bool>* cancel = nullptr);

/// Marks `diverged` every `ok` row whose relative distance to the exact posterior (mean or
/// covariance) is beyond `beyond`: finite but absurd is not ok. Once a trial's method has
/// diverged, its later checkpoints stay `diverged` also where the distance comes back under
/// (rows in epoch order per trial and method, as runPosterior returns them).
void markDivergedRows(std::vector<PosteriorRow>& rows, double beyond);

} // namespace fa
