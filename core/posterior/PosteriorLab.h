#pragma once
// The posterior lab: a regression problem with its exact posterior, and the FA-shaped
// approximations run against it (VIFA / VIPPCA, and SGD iterates fitted by online EM, online
// SGA or SWAG), scored over epochs. Shared by the CLI (`posterior`) and the window.
#include "core/data/RegressionData.h"
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/fa/OnlineFitter.h"
#include "core/metrics/DenseMetrics.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/SgdTrainer.h"
#include "core/vi/Vifa.h"

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class PosteriorMethod { VifaGauss, VifaLaplace, Vippca, SgdEm, SgdSga, Swag };
std::string
methodName(PosteriorMethod method); ///< vifa-gauss, vifa-laplace, vippca, sgd-em, sgd-sga, swag
std::optional<PosteriorMethod> parseMethod(const std::string& name);
std::vector<PosteriorMethod> allPosteriorMethods();
bool isSgdMethod(PosteriorMethod method);

/// Which data and which prior. "Auto" choices: synthetic data keeps every row for training,
/// has no bias column and uses the recipe's alpha and beta; real data gets a bias column, a
/// 50/50 split and alpha, beta by evidence maximisation.
/// The prior and noise precisions every entry point accepts (the controls, sessions, the CLI):
/// beyond these the exact posterior's covariance under- or overflows and no distance is finite.
constexpr double kPrecisionMin = 1e-8;
constexpr double kPrecisionMax = 1e8;

struct PosteriorSetup {
    std::string dataset = "synthetic"; ///< synthetic, boston, concrete, energy, yacht or a CSV path
    std::string target;                ///< CSV target column; empty = last column
    DatasetLoader loader;              ///< reads anything but synthetic (fa::io::datasetLoader)
    SyntheticRecipe synthetic;
    double trainFraction = 0.0;     ///< 0 = auto
    std::optional<bool> bias;       ///< unset = auto
    std::optional<HyperMode> hyper; ///< unset = auto
    double alpha = 0.0, beta = 0.0; ///< used when hyper == Manual
};

struct PosteriorProblem {
    std::string dataset;
    RegressionProblem data;
    Hyperparameters hyper;
    HyperMode hyperMode = HyperMode::Manual;
    GaussianPosterior exact;
    Eigen::Index dim() const { return data.dim(); }
};

/// Loads (or generates, from dataSeed) the data, prepares it, sets alpha and beta and computes
/// the exact posterior on the training part. Throws std::invalid_argument with a clear message.
PosteriorProblem preparePosteriorProblem(const PosteriorSetup& setup, std::uint64_t dataSeed);

/// How the approximations run. The prior precision of VIFA and lambda of SGD come from the
/// problem's alpha, beta unless overridden here.
struct PosteriorRunOptions {
    int latent = 1;
    VifaOptions vifa; ///< latent, prior and precision are set per method
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
};

/// One trial: every chosen method on one problem, advanced an epoch at a time. SGD-fed
/// methods share one SGD trajectory (as in the thesis, where both fitters saw the same iterates).
class PosteriorTrial {
  public:
    PosteriorTrial(const PosteriorProblem& problem, const PosteriorRunOptions& options,
                   const std::vector<PosteriorMethod>& methods, std::uint64_t seed);
    ~PosteriorTrial();

    void runEpoch();
    long epoch() const { return m_epoch; }

    struct Estimate {
        PosteriorMethod method;
        FAModel model;
        FitStatus status = FitStatus::Running; ///< SGD-fed fits: Diverged once SGD diverged
    };
    std::vector<Estimate> estimates() const;
    PosteriorScore score(const FAModel& model) const;

    /// The last SGD iterates (empty when no SGD method runs), oldest first.
    const std::deque<Vector>& recentIterates() const { return m_recent; }
    void setSgdLearningRate(double eta);
    void setLambda(double lambda);
    double sgdLearningRate() const;
    double lambda() const;
    const std::vector<PosteriorMethod>& methods() const { return m_methods; }

  private:
    const PosteriorProblem& m_problem;
    PosteriorRunOptions m_options;
    std::vector<PosteriorMethod> m_methods;
    std::unique_ptr<LinearGaussianLikelihood> m_likelihood;
    /// Every method's fit, siblings behind one interface, in the order of m_methods.
    std::vector<std::unique_ptr<GaussianFit>> m_fits;
    std::vector<Vifa*> m_vifa;            ///< the fits that run epochs themselves
    std::vector<StreamFit*> m_onIterates; ///< the fits fed SGD iterates
    std::unique_ptr<SgdTrainer> m_sgd;
    std::deque<Vector> m_recent;
    DenseW2 m_w2;
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

/// Trials run in turn, each method on its own (so its seconds are its own). The same
/// configuration gives the same rows apart from seconds. cancel, if set, stops between epochs
/// and returns the rows so far.
std::vector<PosteriorRow>
runPosterior(const PosteriorConfig& config,
             const std::function<void(const PosteriorProgress&)>& progress = {},
             const std::atomic<bool>* cancel = nullptr);

} // namespace fa
