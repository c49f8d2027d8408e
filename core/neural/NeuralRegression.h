#pragma once
// VIFA / VIPPCA over all the weights of a small network (report §3, docs/maths/neural.md §1): one
// fit, its Monte Carlo predictive distribution (core/neural/NeuralPredictive.h: test NMLL and
// RMSE on the original target scale), the seeded 90/10 splits, a random-search tuner with k-fold
// validation run on several threads, and the whole split protocol as `faexplorer-cli neural` runs
// it.
#include "core/data/RegressionData.h"
#include "core/lab/ScoringPoll.h"
#include "core/lab/TrialRunner.h"
#include "core/neural/IterateFits.h"
#include "core/neural/MlpLikelihood.h"
#include "core/neural/NeuralPredictive.h"
#include "core/neural/SearchRanges.h"
#include "core/vi/Vifa.h"

#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class NeuralMethod { VifaGauss, VifaLaplace, VippcaGauss, VippcaLaplace };
std::string
neuralMethodName(NeuralMethod method); ///< vifa-gauss, vifa-laplace, vippca-gauss, vippca-laplace
std::optional<NeuralMethod> parseNeuralMethod(const std::string& name);
/// Every method the neural lab offers, in the method registry's order.
std::vector<NeuralMethod> allNeuralMethods();
bool isPpca(NeuralMethod method);
PriorKind neuralPrior(NeuralMethod method);

/// The hyperparameters the tuner searches. Noise precision is on the standardised target
/// (beta_std = beta_original x var(y_train)).
struct NeuralHyper {
    double priorPrecision = 1.0; ///< Gaussian precision; the Laplace rate is sqrt(2 x this)
    double noisePrecision = 10.0;
    double sigma = 0.1; ///< VIPPCA's Psi = sigma I
};

/// Defaults: the report's small-network settings (its code's params file): K = 1, M = 10,
/// L = 4, 120 epochs, Adam with learning rate 0.01 for c, F and log psi, clip norm 10,
/// 100 samples for the predictive distribution.
struct NeuralFitOptions {
    std::vector<int> hidden{50};
    int latent = 1;
    int batch = 10;
    int samples = 4;
    int epochs = 120;
    double learningRate = 0.01;
    OptimiserKind optimiser = OptimiserKind::Adam;
    double maxGradNorm = 10.0;
    int predictiveSamples = 100;
    /// Start of q. Report: the published code's (c = 0, F a random orthonormal frame, psi = 1;
    /// VIPPCA psi = sigma). Scaled: c at a network initialisation scaled by 1/fan_in (LeCun's), F x
    /// 0.1, psi = 0.01, so the sampled networks start at a sensible scale (our variant, see
    /// docs/results.md).
    bool reportInit = true;
};

/// One VIFA / VIPPCA fit over a network's weights on standardised training data, advanced an
/// epoch at a time.
class NeuralFit final : public GaussianFit {
  public:
    NeuralFit(const Matrix& X, const Vector& y, NeuralMethod method, const NeuralHyper& hyper,
              const NeuralFitOptions& options, std::uint64_t seed);
    void runEpoch() { m_vifa->runEpoch(); }
    void abandonOn(const std::atomic<bool>* flag) { m_vifa->abandonOn(flag); }
    long epoch() const { return m_vifa->epoch(); }
    FitStatus status() const override { return m_vifa->status(); }
    FAModel model() const override { return m_vifa->model(); }
    const MlpLikelihood& network() const { return *m_net; }
    Predictive evaluate(const ConstMatrixRef& X, const ConstVectorRef& yOriginal, double yMean,
                        double yScale, int samples, std::uint64_t seed,
                        const ScoringPoll& poll = {}) const;

  private:
    std::unique_ptr<MlpLikelihood> m_net;
    std::unique_ptr<Vifa> m_vifa;
};

/// Random search (log-uniform in SearchRanges: prior precision [0.01, 10], noise precision of
/// the standardised target [1, 100], VIPPCA's sigma [0.01, 1]) scored by the mean validation NMLL
/// over k contiguous folds of the training rows; trials run on `threads` threads and the result
/// does not depend on how many. A raised cancel is seen within an epoch or a validation draw; the
/// result is then partial, for the caller to drop.
struct TuneResult {
    NeuralHyper best;
    double validationNmll = 0.0;
    int trials = 0;
};
TuneResult tuneNeural(const RegressionProblem& train, NeuralMethod method,
                      const NeuralFitOptions& options, int searchTrials, int folds,
                      std::uint64_t seed, int threads, const std::atomic<bool>* cancel = nullptr,
                      const SearchRanges& ranges = {});

struct NeuralConfig;
/// The same search for a posterior from the SGD iterates (iterateOptions below): each
/// candidate's prior and noise precisions train the method's networks on k - 1 folds.
TuneResult tuneIterates(const RegressionProblem& train, const NeuralConfig& config,
                        IterateMethod method, std::uint64_t seed,
                        const std::atomic<bool>* cancel = nullptr);

struct NeuralConfig {
    std::string dataset = "boston"; ///< a bundled set or a CSV path
    std::string target;             ///< CSV target column; empty = last
    DatasetLoader loader;           ///< fa::io::datasetLoader
    std::vector<NeuralMethod> methods{NeuralMethod::VifaGauss};
    /// The posteriors from the SGD iterates (map, swa-fa-em, ...), run after `methods`, each
    /// with its own search of the prior and noise precisions (tuneIterates); their run length
    /// is fit.epochs.
    std::vector<IterateMethod> iterateMethods;
    /// Their settings: members M (the multi methods'), rank K, SWA start, SGD rate and batch.
    IterateFitOptions iterate{.members = 5, .learningRate = 0.1};
    NeuralFitOptions fit;
    int splits = 20;
    double trainFraction = 0.9;
    int searchTrials = 10;
    int folds = 5;
    SearchRanges ranges;
    std::uint64_t seed = 0;
    int threads = 2; ///< the tuner's candidates run side by side
    Shard shard;     ///< the slice of the splits to run (a cluster's job array)
};

struct NeuralRow {
    std::string dataset, method, hidden;
    int split = 0;
    double nmll = 0.0, rmse = 0.0, seconds = 0.0;
    double coverage95 = std::numeric_limits<double>::quiet_NaN(); ///< of the test targets
    std::string status;                                           ///< csvWord: ok, diverged
    NeuralHyper hyper;
};

struct NeuralProgress {
    int split = 0, splits = 0;
    std::string method, stage; ///< "tuning", "final fit" or "evaluating on the test rows"
};

/// Split s: rows shuffled with deriveSeed(seed, s), the first 90 % for training (inputs and
/// target standardised with its statistics, no bias column: the network has its own), the rest
/// for testing. Per split and method: tune on the training part, refit on all of it with the
/// best hyperparameters, score the test part. onRow sees each finished row; cancel stops
/// within an epoch's time or a predictive draw's and returns the rows finished so far (an
/// unfinished split gives none). While the test part is scored its stage is reported before the
/// first draw and then at most every 0.1 s.
std::vector<NeuralRow> runNeural(const NeuralConfig& config,
                                 const std::function<void(const NeuralRow&)>& onRow = {},
                                 const std::function<void(const NeuralProgress&)>& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

/// The names of the run's methods in the order its rows come: the VIFA fits, then the
/// posteriors from SGD iterates.
std::vector<std::string> methodNames(const NeuralConfig& config);

/// The options of an iterate method's fit (runNeural and the window's run): `settings` with the
/// method, fit's network and run length, M for the multi methods (1 for the rest), the
/// precisions, the seed, and SGD's step rate / beta (the rate is on the squared error).
IterateFitOptions iterateOptions(const IterateFitOptions& settings, const NeuralFitOptions& fit,
                                 IterateMethod method, const NeuralHyper& hyper,
                                 std::uint64_t seed);

} // namespace fa
