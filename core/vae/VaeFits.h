#pragma once
// The nonlinear-FA lab's fitters, siblings behind one interface (docs/maths/nonlinear.md §3–§4,
// §7): variational EM (a Gaussian q per training row, k Adam steps on it per E step, then one
// Adam step on the decoder), the VAE (an encoder network gives q(z | x); joint reparameterised
// gradients) and the linear VAE (linear encoder mean, free diagonal variances, linear decoder,
// noise σ²I: the closed-form ELBO, so its gradients are exact). The VAE's encoder gradient is
// pathwise by default, or by the score function with or without a baseline (§9). Each makes one
// pass over the
// training rows per epoch in shuffled mini-batches; the decoder is an NlfaModel. Deterministic
// given the seed.
#include "core/lab/NameTable.h"
#include "core/math/Abandon.h"
#include "core/math/ForkJoin.h"
#include "core/math/Rng.h"
#include "core/vae/NlfaModel.h"
#include "core/vae/VaeObjectives.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class VaeMethod { Vem, Vae, LinearVae, Ppca };
std::string vaeMethodName(VaeMethod method); ///< "vem", "vae", "linear-vae", "ppca"
std::optional<VaeMethod> parseVaeMethod(const std::string& name);

struct VaeOptions {
    int latent = 2;
    std::vector<int> hidden{50}; ///< the decoder's (and the encoder's) hidden layers
    Activation activation = Activation::Tanh;
    NoiseKind noise = NoiseKind::Diagonal;        ///< vem and vae (the linear VAE: linearNoise)
    NoiseKind linearNoise = NoiseKind::Isotropic; ///< never Network (a closed form, §7)
    double fixedVariance = 0.1;                   ///< σ² of NoiseKind::Fixed
    int batch = 100;   ///< rows per mini-batch (a smaller set is used whole)
    double lr = 3e-3;  ///< Adam's step on θ, γ, φ
    int eSteps = 5;    ///< vEM: Adam steps on each q_n per E step
    double eLr = 0.02; ///< vEM: their step size
    /// The VAE: how φ's gradient of E_q[log p(x | z)] is estimated (§9).
    GradientEstimator encoderGradient = GradientEstimator::Reparam;
    int encoderSamples = 1; ///< the VAE: draws of z per row in each step (the baseline: ≥ 2)
    std::uint64_t seed = 0;
    /// The VAE: threads for a batch's large products (1, or 2: core/math/ForkJoin.h); the
    /// numbers do not depend on it. Not a parameter of the schema: runVae sets it from
    /// --threads when one trial runs.
    int batchThreads = 1;
    /// The VAE: its networks' large products in single precision while training (the CLI's
    /// --precision float; core/math/ForkJoin.h: splitProductFloat); scoring stays in double.
    bool floatProducts = false;
};

/// The words of VaeOptions::floatProducts: the CLI's --precision, the sessions' run.precision
/// and the window's choice.
inline constexpr Named<bool> kPrecisionNames[] = {{false, "double"}, {true, "float"}};

/// Throws std::invalid_argument naming the first bad option: among the rules, a noise from the
/// network needs a hidden layer and the linear VAE's noise is never the network's (closed forms,
/// §8), and the leave-one-out baseline needs two draws per row.
void validate(const VaeOptions& options);
/// The VAE's encoder gradient from its word (reparam, score or score-baseline); throws
/// std::invalid_argument naming the choices for another word.
GradientEstimator parseEncoderGradient(const std::string& name);

class VaeFit : public Abandonable {
  public:
    virtual ~VaeFit() = default;
    /// One pass over the training rows in shuffled mini-batches.
    void epoch();
    long epochs() const { return m_epochs; }
    const NlfaModel& model() const { return m_model; }
    /// Whether an encoder gives q(z | x) (VAE, linear VAE); vEM's q's are per training row.
    virtual bool amortised() const = 0;
    /// The encoder's q for rows (columns). Throws std::logic_error without an encoder.
    virtual void encode(const ConstMatrixRef& X, Matrix& M, Matrix& logVar) const = 0;
    /// q of the training rows: vEM's stored q_n, else the encoder's.
    virtual void trainPosterior(Matrix& M, Matrix& logVar) const = 0;
    /// The VAE's encoder network and weights; none for vEM and the linear VAE.
    virtual std::optional<NetworkEncoder> networkEncoder() const { return std::nullopt; }
    const VaeOptions& options() const { return m_options; }
    bool floored() const { return m_floored; }   ///< some ψ_d sits at its floor
    bool diverged() const { return m_diverged; } ///< a non-finite parameter appeared
    const Matrix& rows() const { return m_X; }   ///< the training rows as columns

  protected:
    VaeFit(const ConstMatrixRef& trainRows, const VaeOptions& options, NoiseKind noise);
    /// One update from the mini-batch m_batch (columns m_index of m_X).
    virtual void update() = 0;
    /// One Adam step on param against `descent`, the negated (and batch-averaged) gradient of
    /// the objective the fit ascends; the step count is the fit's update count. The fits negate
    /// their gradient buffers in place (-(g / b) == g / -b and -(g · s) == g · -s exactly), so a
    /// step allocates no copy of θ or φ.
    void descend(Eigen::Ref<Vector> param, const Vector& descent, Vector& m, Vector& v, double lr);

    VaeOptions m_options;
    Matrix m_X; ///< D x N
    NlfaModel m_model;
    Rng m_rng;
    std::vector<Eigen::Index> m_order, m_index;
    Matrix m_batch;
    long m_epochs = 0, m_updates = 0;
    bool m_floored = false, m_diverged = false;
};

/// Builds a fitter for rows (N x D). Throws std::invalid_argument for bad options or sizes, and
/// for VaeMethod::Ppca (a closed form, no fitter).
std::unique_ptr<VaeFit> makeVaeFit(VaeMethod method, const ConstMatrixRef& trainRows,
                                   const VaeOptions& options);

} // namespace fa
