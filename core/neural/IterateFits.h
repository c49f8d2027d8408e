#pragma once
// Posteriors over a network's weights built from the SGD iterates (docs/maths/neural.md §8):
// the MAP network, SWA-FA (online EM or SGA of the iterates, mean the running average), SWAG,
// and their ensembles (M independent runs: a deep ensemble, MultiSWAG, multi-SWA-FA). One run
// holds M members, each a MapSgd from its own initialisation with, after a warm-up, a StreamFit
// fed every iterate; it advances an epoch at a time and gives the posterior as M equally
// weighted Gaussians (a MAP member is a point mass).
#include "core/fa/GaussianFit.h"
#include "core/lab/ScoringPoll.h"
#include "core/neural/MlpLikelihood.h"
#include "core/neural/NeuralPredictive.h"
#include "core/vi/MapSgd.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class IterateMethod { Map, SwaFaEm, SwaFaSga, Swag, Ensemble, MultiSwag, MultiSwaFaEm };
/// map, swa-fa-em, swa-fa-sga, swag, ensemble, multiswag, multi-swa-fa-em
std::string iterateMethodName(IterateMethod method);
std::optional<IterateMethod> parseIterateMethod(const std::string& name);
/// The seven, in the order above.
std::vector<IterateMethod> allIterateMethods();
/// Ensemble, MultiSWAG and multi-SWA-FA: M independent runs.
bool isMultiMethod(IterateMethod method);
/// Whether a method fits a Gaussian to the iterates (all but map and ensemble).
bool collectsIterates(IterateMethod method);
/// M when the options leave it at 0: 5 for the multi methods, 1 for the rest.
int defaultMembers(IterateMethod method);

/// Where online EM / SGA start (docs/maths/neural.md §8.8): the thesis's start (F0 a random
/// orthonormal frame, psi = 1) or one at the iterates' own scale (s the per-weight standard
/// deviation of the SGD iterates over the epoch before the SWA start: F0 = diag(s) frame,
/// psi = s^2).
enum class FaStart { Thesis, Iterates };
std::string faStartName(FaStart start); ///< thesis, iterates
std::optional<FaStart> parseFaStart(const std::string& name);

struct IterateFitOptions {
    IterateMethod method = IterateMethod::SwaFaEm;
    std::vector<int> hidden{50}; ///< the network's hidden layers (none: linear regression)
    int members = 0;             ///< M; 0 = defaultMembers(method); above 1 only for multi methods
    int rank = 20;               ///< K of the online FA fitters and of SWAG's deviation matrix
    int swaStart = 60;           ///< SGD epochs before the iterates are collected
    int epochs = 120;            ///< the run's length: runEpoch does nothing beyond it
    double learningRate = 0.01;  ///< constant SGD step
    int batch = 32;
    double priorPrecision = 1.0;  ///< alpha: the prior N(0, I / alpha), weight decay alpha / N
    double noisePrecision = 10.0; ///< beta of y | x, theta on the standardised target
    long faWarmup = 100;          ///< collected iterates during which F and psi stay at their start
    double sgaLearningRate = 0.001;    ///< online SGA's step (swa-fa-sga)
    FaStart faStart = FaStart::Thesis; ///< Iterates needs swaStart >= 1 (an epoch to measure)
    std::uint64_t seed = 0;
};

/// M networks trained by SGD with weight decay, each with the Gaussian its iterates give.
class IterateFit {
  public:
    /// On standardised training data X (N x inputs), y. starts: one weight vector per member to
    /// start SGD from; empty: member m starts at Mlp::initialWeights under its seed
    /// (deriveSeed(deriveSeed(seed, IterateMemberBase, m), NeuralNetworkStart), the neural fits'
    /// LeCun start). Throws std::invalid_argument for bad options.
    IterateFit(const Matrix& X, const Vector& y, const IterateFitOptions& options,
               std::vector<Vector> starts = {});
    ~IterateFit();

    /// One epoch of every member in turn; from epoch swaStart on, every iterate is fed to the
    /// member's fit. Does nothing once the run is finished; an abandoned epoch ends at the next
    /// mini-batch and is not counted.
    void runEpoch();
    /// Every member's SGD stops at its next mini-batch once flag is raised (core/math/Abandon.h);
    /// the flag must outlive the run.
    void abandonOn(const std::atomic<bool>* flag);
    /// Sees every iterate of every member (collected or not), after each mini-batch: the window's
    /// trajectory view. Set it between epochs.
    void onIterate(std::function<void(int member, const Vector& theta)> observer);

    long epoch() const { return m_epoch; }
    bool finished() const { return m_epoch >= m_options.epochs; }
    /// A live change of the run's length (the window's run length field); never below the
    /// epoch reached.
    void setLength(int epochs) { m_options.epochs = std::max<long>(epochs, m_epoch); }
    /// Diverged if any member's SGD or fit diverged; WarmUp while a member that collects
    /// iterates is still a point mass (before swaStart, or its fitter's warm-up); else Running.
    FitStatus status() const;
    bool diverged() const { return status() == FitStatus::Diverged; }
    /// The M members' Gaussians, equally weighted. A MAP member is a point mass at its weights;
    /// a collecting member is a point mass at its weights before the first collected iterate
    /// and at its running mean (SWA) while its fitter warms up, its fit's N(c, F F^T + Psi) after.
    std::vector<FAModel> posterior() const;
    /// The mixture predictive of posterior() (NeuralPredictive.h).
    Predictive evaluate(const ConstMatrixRef& X, const ConstVectorRef& yOriginal, double yMean,
                        double yScale, int samples, std::uint64_t seed,
                        const ScoringPoll& poll = {}) const;

    int members() const { return static_cast<int>(m_members.size()); }
    const Vector& weights(int member) const; ///< member m's current SGD iterate
    long collected(int member) const;        ///< iterates fed to member m's fit
    const MlpLikelihood& network() const { return *m_net; }
    const IterateFitOptions& options() const { return m_options; }

  private:
    struct Member;
    FAModel memberPosterior(const Member& member) const;
    /// A member's start scale: the per-weight sd over the epoch before the SWA start.
    Vector spreadScale(const Member& member) const;
    static constexpr double kSpreadFloor = 1e-12; ///< on the measured variances

    IterateFitOptions m_options;
    std::unique_ptr<MlpLikelihood> m_net;
    std::vector<std::unique_ptr<Member>> m_members;
    std::function<void(int, const Vector&)> m_observer;
    const std::atomic<bool>* m_abandon = nullptr;
    long m_epoch = 0;
};

} // namespace fa
