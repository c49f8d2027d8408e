#pragma once
// Nonlinear factor analysis (slides eqs 30–53; docs/maths/nonlinear.md): z ~ N(0, I_K),
// x | z ~ N(f(z; θ), Ψ) with f an Mlp (no hidden layer: linear FA / PPCA) and Ψ = diag(e^γ)
// learned, σ²I learned (one γ) or σ²I fixed; or, heteroscedastic (NoiseKind::Network, §8),
// x | z ~ N(μ(z), diag σ²(z)) with the network's 2D outputs [μ; log σ²]. ElboPass computes, for a
// batch of rows and a diagonal Gaussian q per row, the one-sample reparameterised ELBO and its
// exact gradients (docs/maths/nonlinear.md §2, §8): to θ and γ by backpropagating (x − f)/ψ (and
// the log-variances' residuals), to q's mean and log-variance through g_z = J_f(z)ᵀ[...].
// Examples are columns (D x n, K x n); buffers are reused, so a pass allocates nothing once sizes
// are set.
#include "core/models/Mlp.h"

#include <string>

namespace fa {

/// Bounds on ℓ = log σ², the log-variance of a row's q(z | x) = N(m, diag e^ℓ): the latent
/// posterior's, never the decoder noise's (γ has its own floor, NlfaModel::gammaFloor). ℓ is
/// exponentiated (variances e^ℓ, draws z = m + e^{ℓ/2} ε), so both ends are bounded: above, q's
/// standard deviations stay below e^5 ≈ 150 (the prior's are 1); below, e^ℓ stays a normal
/// positive number however hard Adam pushes ℓ down on a sharp posterior. The ceiling is one;
/// the floors are two, as docs/maths/nonlinear.md gives them: an encoder's ℓ (the VAE's network
/// output, §4, and the linear VAE's ℓ, §7) stops at −15, a free per-row q's (vEM's E step, §3,
/// and scoring's q*, §6) at −20. One floor would change the results wherever a floor binds, so
/// both stay.
constexpr double kQLogVarMax = 10.0;
constexpr double kEncoderLogVarMin = -15.0; ///< the VAE's and the linear VAE's ℓ
constexpr double kRowQLogVarMin = -20.0;    ///< vEM's per-row ℓ_n and scoring's q*

/// The decoder's noise: Ψ diagonal or σ²I learned, σ²I fixed, or σ_d²(z) from the network's own
/// outputs (heteroscedastic, docs/maths/nonlinear.md §8).
enum class NoiseKind { Diagonal, Isotropic, Fixed, Network };
std::string noiseKindName(NoiseKind kind); ///< "diagonal", "isotropic", "fixed", "network"
/// Throws std::invalid_argument naming the choices.
NoiseKind parseNoiseKind(const std::string& name);

/// NoiseKind::Network: log σ_d²(z) is clamped to [log(kNetworkNoiseFloor v_d),
/// log(kNetworkNoiseCeiling v_d)], v_d the d-th column's variance (docs/maths/nonlinear.md §8):
/// the floor is the learned Ψ's (§1), which keeps the likelihood bounded; the ceiling keeps
/// e^{−log σ²} and the importance weights in range while the decoder is still far off.
constexpr double kNetworkNoiseFloor = 1e-6, kNetworkNoiseCeiling = 1e2;

struct NlfaModel {
    MlpShape shape; ///< latent (inputs) -> dim (outputs; 2 dim for NoiseKind::Network), linear
    Vector theta;   ///< the decoder's weights
    NoiseKind noise = NoiseKind::Diagonal;
    Vector gamma;      ///< log ψ: D entries (diagonal) or one (σ²I); none for Network
    Vector gammaFloor; ///< γ is kept at or above this (same size): ψ_d ≥ 1e-6 v_d
    /// NoiseKind::Network: the bounds of log σ_d²(z), D entries each (kNetworkNoiseFloor v_d,
    /// kNetworkNoiseCeiling v_d); empty otherwise.
    Vector logVarFloor, logVarCeiling;
    int latent() const { return shape.inputs; }
    int dim() const { return noise == NoiseKind::Network ? shape.outputs / 2 : shape.outputs; }
    /// Whether γ is a parameter the fitters move (diagonal or σ²I, learned).
    bool learnsGamma() const {
        return noise == NoiseKind::Diagonal || noise == NoiseKind::Isotropic;
    }
    bool linear() const { return shape.hidden.empty(); }
    double logPsi(Eigen::Index d) const { return gamma.size() == 1 ? gamma(0) : gamma(d); }
    /// Linear decoders: f(z) = W z + b.
    Eigen::Map<const Matrix> W() const { return {theta.data(), shape.outputs, shape.inputs}; }
    Eigen::Map<const Vector> b() const {
        return {theta.data() + Eigen::Index(shape.outputs) * shape.inputs, shape.outputs};
    }
    /// Clamps γ to its floor; returns whether any entry was at the floor.
    bool applyFloor();
};

/// A starting model for rows (D x N, columns): decoder weights from Mlp::initialWeights(seed),
/// output bias = the rows' mean, γ = log of the column variances (their mean for σ²I);
/// fixedVariance sets σ² for NoiseKind::Fixed; NoiseKind::Network starts its log σ² outputs at
/// the log column variances, with zero weights (§8). Throws std::invalid_argument for bad sizes.
NlfaModel initialNlfaModel(int latent, const std::vector<int>& hidden, Activation activation,
                           NoiseKind noise, double fixedVariance, const ConstMatrixRef& rows,
                           std::uint64_t seed);

/// KL(N(m, diag e^ℓ) ‖ N(0, I)) = ½ Σ_k (e^ℓ_k + m_k² − 1 − ℓ_k) for each column.
Eigen::RowVectorXd klToStandard(const ConstMatrixRef& M, const ConstMatrixRef& logVar);

struct ElboGradient {
    Vector theta, gamma; ///< summed over the columns (gamma empty for NoiseKind::Network)
    Matrix mean, logVar; ///< per column: dL_n / dm_n, dL_n / dℓ_n
};

class ElboPass {
  public:
    explicit ElboPass(const MlpShape& decoder) : m_net(decoder) {}
    /// The decoder's large products over fj's two threads (Mlp::setForkJoin); nullptr: one.
    void setForkJoin(ForkJoin* fj) { m_net.setForkJoin(fj); }
    /// The decoder's large products in single precision (Mlp::setFloatProducts).
    void setFloatProducts(bool on) { m_net.setFloatProducts(on); }
    /// For each column n: L_n = log N(x_n; f(z_n), Ψ) − KL(q_n ‖ N(0, I)) at
    /// z_n = m_n + e^{ℓ_n / 2} ⊙ ε_n, into values; with grad, its gradients.
    void run(const NlfaModel& model, const ConstMatrixRef& X, const ConstMatrixRef& M,
             const ConstMatrixRef& logVar, const ConstMatrixRef& eps,
             Eigen::Ref<Eigen::RowVectorXd> values, ElboGradient* grad);
    /// log N(x_n; f(z_n), Ψ) (Network: N(μ(z_n), diag σ²(z_n))) for each column of X and Z.
    void logLik(const NlfaModel& model, const ConstMatrixRef& X, const ConstMatrixRef& Z,
                Eigen::Ref<Eigen::RowVectorXd> out);
    /// The last run's log N(x_n; ·) per column, before the KL is taken off.
    const Eigen::RowVectorXd& lastLogLik() const { return m_logLik; }
    /// f(z) (Network: the mean μ(z)) for each column of Z.
    Matrix decode(const NlfaModel& model, const ConstMatrixRef& Z) {
        return m_net.forward(model.theta, Z).topRows(model.dim());
    }
    /// Network: the clamped log σ²(z) for each column of Z (D x n).
    Matrix decodeLogVar(const NlfaModel& model, const ConstMatrixRef& Z);

  private:
    void logLikOf(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f,
                  Eigen::Ref<Eigen::RowVectorXd> out);
    /// Network: the clamped log-variances of f's lower half into m_S, then the log-likelihoods.
    void networkLogLik(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f,
                       Eigen::Ref<Eigen::RowVectorXd> out);
    /// Network: dL/d[μ; raw log σ²] into m_R (zero where the clamp holds).
    void networkResiduals(const NlfaModel& model, const ConstMatrixRef& X, const Matrix& f);

    Mlp m_net;
    Matrix m_Z, m_R, m_dZ, m_S;
    Vector m_invPsi;
    Eigen::RowVectorXd m_logLik;
};

} // namespace fa
