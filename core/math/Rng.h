#pragma once
// Seeded random numbers: xoshiro256++ uniforms and ziggurat normals (Marsaglia & Tsang, 128
// layers). We do not use <random> distributions because their output differs between standard
// libraries; a given seed gives the same numbers with any compiler.
#include "core/math/Types.h"

#include <vector>

namespace fa {

/// Mixes (seed, stream) into an independent seed, so trials and algorithms get their own streams.
/// A trial, split or checkpoint index is passed as the stream itself; fixed streams are named
/// below (SeedStream).
std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t stream);

/// The fixed streams: what each seed derived with a constant stream number feeds. The values are
/// part of every result (a changed value changes the CSVs), so they never change. Each name is
/// used under one parent seed, given in its group's heading; streams under different parents
/// never meet, so labs reuse small numbers and several names share a value (FirstTrial,
/// SweepModel and LatentSyntheticRows, for instance, all feed different draws). A name ending in
/// Base is the first of a run of streams, Base + index, offset by deriveSeed's third argument.
enum class SeedStream : std::uint64_t {
    /// Under a run's --seed: trial 0's seed (deriveSeed(seed, trial) for trial 0), the one the
    /// live pages and sessions reproduce and the CLI checks its data with before a run.
    FirstTrial = 0,

    // The FA sweep and the live explorer (core/explorer/FaSweep.cpp), under a trial's seed.
    SweepModel = 1,   ///< the true model
    SweepSamples = 2, ///< the stream of rows drawn from it
    SweepInit = 3,    ///< the online fitters' start (EM and SGA start from the same F)
    SweepBatch = 4,   ///< the batch refits: checkpoint T's refit takes deriveSeed(batch, T)

    // The posterior lab (core/posterior), under a trial's seed: fixed, so the data, the SGD
    // trajectory and the VI draws do not depend on which other methods run beside them.
    PosteriorData = 1,   ///< the generated data or the train/test split
    PosteriorSgd = 2,    ///< the SGD trajectory (SGD + online EM/SGA, SWAG)
    PosteriorFitter = 3, ///< the online FA fitters' start on the SGD iterates
    PosteriorVi = 4,     ///< VIFA, VIPPCA and Gaussian VI (their draws and start)
    /// Under the run's seed: grad-variance's cell (estimator e, sample count s) takes
    /// GradVarianceCellBase + 64 e + s.
    GradVarianceCellBase = 1000,
    /// Under the run's seed: the live page's gradient study at epoch t takes Base + t.
    PosteriorLiveStudyBase = 5000,

    /// VIFA (core/vi/Vifa.cpp), under the fit's seed: the random orthonormal start of F.
    VifaStartFrame = 1,

    // The latent-variable lab (core/latent).
    LatentSyntheticRows = 1, ///< under a split seed: the synthetic rows' draws from the truth
    SplitOrder = 2,          ///< under a split seed: the shuffle before the test rows are held
                             ///< out (splitRows, also the nonlinear lab's)
    HiddenEntries = 3,       ///< under a split seed: the fitting entries hidden (--hide-fraction)
    HiddenBlocks = 4,        ///< under a split seed: the pictures' hidden squares (--hide-block)
    Dequantise = 5,          ///< under a split seed: the pictures' uniform jitter (ImageData.h)
    /// Under the run's seed: method m of trial t takes LatentMethodBase + 64 t + m (the live
    /// page, trial 0, Base + m).
    LatentMethodBase = 1000,
    OnlineRowOrder = 1, ///< under an online EM/SGA fit's seed: each pass's order of the rows
    OnlineStart = 2,    ///< under an online EM/SGA fit's seed: the fitter's start

    // The nonlinear-FA lab (core/vae).
    VaeTrueModel = 31,     ///< under the model seed: the generated data's true model
    VaeGeneratedRows = 32, ///< under the split seed: the generated rows' latents and noise
    VaeLiveDraws = 41,     ///< under the model seed: the live page's draws from the fitted model
    VaeMethodBase = 100,   ///< under a trial's seed: method m's fit takes Base + m
    VaeScoringBase = 200,  ///< under a trial's seed: method m's scoring takes Base + m
    DecoderStart = 10,     ///< under a fit's seed: the decoder's (the model's) start
    EncoderStart = 11,     ///< under a fit's seed: the encoder's start
    VaeTrainingDraws = 12, ///< under a fit's seed: the minibatch order and the training ELBO's ε
    VaeTestElboDraws = 1,  ///< under a scoring seed: the test rows' ELBO draws ε, shared by the
                           ///< encoder's ELBO and q*'s

    // Bayesian neural regression (core/neural).
    /// Under the run's seed: split s's seed for its methods, Base + s (then the method).
    NeuralSplitBase = 1000,
    /// Under the run's seed: the live page's curve draws after epoch t, Base + t.
    NeuralLiveCurveBase = 5000,
    /// Under the run's seed: the live page's VIFA / VIPPCA fit of method m, Base + m (m its
    /// NeuralMethod), and its fit of SGD-iterate method m, IterateLiveBase + m (IterateMethod).
    NeuralLiveFitBase = 0,
    IterateLiveBase = 100,
    NeuralFinalFit = 1,         ///< under a (split, method) seed: the fit on all training rows
    NeuralTestDraws = 2,        ///< under a (split, method) seed: the test rows' predictive draws
    NeuralValidationDraws = 99, ///< under a (split, method) seed: the folds' predictive draws
    /// Under a (split, method) seed: candidate c's fit on fold f, Base + 100 c + f.
    NeuralTuningFitBase = 1000,
    NeuralNetworkStart = 7, ///< under a network fit's seed: the weights' (LeCun) start
    /// Under an SGD-iterate fit's seed (core/neural/IterateFits.h): member m's seed, Base + m.
    /// Under a member's seed, NeuralNetworkStart is its start, then:
    IterateMemberBase = 100,
    IterateBatchOrder = 8, ///< under a member's seed: the order of its mini-batches
    IterateFitter = 9,     ///< under a member's seed: the online FA fitter's start frame

    // Gaussian processes (core/posterior/GaussianProcess.h, GpExperiment.h, NetworkPrior.h).
    /// Under the run's seed: trial t's kernel k takes deriveSeed(GpTrialBase + t, k); trial t's
    /// rows are split t of the regression labs' protocol (splitRegression), as neural's are.
    GpTrialBase = 2000,
    GpRestarts = 1,     ///< under a (trial, kernel) seed: the optimiser's random starts
    NetworkWeights = 1, ///< under a width lesson's seed: the random networks' weights
    GpPriorDraws = 2,   ///< under a width lesson's seed: the GP prior's function draws
};

/// deriveSeed(seed, stream + offset): a named stream, or the offset-th of a run of them.
inline std::uint64_t deriveSeed(std::uint64_t seed, SeedStream stream, std::uint64_t offset = 0) {
    return deriveSeed(seed, static_cast<std::uint64_t>(stream) + offset);
}

class Rng;
/// Fisher-Yates shuffle of row indices with our Rng (so a seed gives the same order everywhere).
void shuffle(std::vector<Eigen::Index>& order, Rng& rng);

class Rng {
  public:
    explicit Rng(std::uint64_t seed);

    std::uint64_t nextU64();
    /// Uniform on [0, 1) with 53 random bits.
    double uniform();
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    /// Standard normal: about 99% of draws cost one 64-bit number, a multiply and a compare.
    double normal();
    void fillNormal(Eigen::Ref<Vector> out);
    /// Gamma(shape, 1) for shape > 0 (Marsaglia and Tsang 2000, with U^(1/a) boosting below 1);
    /// an inverse-gamma IG(a, b) draw is b / gamma(a).
    double gamma(double shape);
    Matrix normalMatrix(Eigen::Index rows, Eigen::Index cols);

  private:
    double normalSlowPath(std::uint64_t bits, int layer, double x);
    std::uint64_t m_s[4];
};

} // namespace fa
