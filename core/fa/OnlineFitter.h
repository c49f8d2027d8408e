#pragma once
// The online FA algorithms (online EM, online SGA): stream fits that observe a sample, give a
// snapshot, report a status. Shared here: the running mean, warm-up, the E-step and divergence
// checks.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"

#include <string>
#include <vector>

namespace fa {

/// The SGA learning rates every entry point accepts (the controls, sessions, the CLI).
constexpr double kLearningRateMin = 1e-7;
constexpr double kLearningRateMax = 10.0;
/// Throws std::invalid_argument unless kLearningRateMin <= eta <= kLearningRateMax.
void checkLearningRate(double eta);

struct OnlineOptions {
    int latent = 10;
    long warmup = 100;           ///< observations during which only running averages update
    double learningRate = 0.001; ///< used by SGA only
    double psiFloor = 1e-8;      ///< psi is clamped here from below; clamps are counted
    std::uint64_t initSeed = 0;  ///< seed of the random orthonormal initial F
};

/// Plain value handed to views and experiment runners.
struct FitSnapshot {
    long step = 0;
    FAModel model; ///< c is the running mean
    FitStatus status = FitStatus::WarmUp;
    long divergedAt = 0; ///< observation at which NaN/Inf appeared, 0 if never
    long psiClamps = 0;
};

/// The E-step for one observation (thesis eq. 4.23): Sigma = (I + F^T Psi^-1 F)^-1,
/// m = Sigma F^T Psi^-1 d. Buffers are reused, so no allocation per observation.
class EStep {
  public:
    void compute(const Matrix& F, const Vector& psi, const Vector& d);
    const Matrix& sigma() const { return m_sigma; }
    const Vector& m() const { return m_m; }

  private:
    Matrix m_scaledF; // F .* psi^-1/2
    Matrix m_inner;   // I + F^T Psi^-1 F
    Matrix m_sigma;
    std::vector<double> m_work;
    Vector m_invSqrtPsi, m_scaledD, m_proj, m_m;
};

class OnlineFitter : public StreamFit {
  public:
    OnlineFitter(Eigen::Index dim, const OnlineOptions& options);
    virtual ~OnlineFitter() = default;

    virtual std::string name() const = 0;
    /// Consumes one observation. Never throws on numerical trouble: sets status Diverged.
    void observe(const ConstVectorRef& theta) final;
    FitSnapshot snapshot() const;
    FitStatus status() const override { return m_status; }
    FAModel model() const override { return {m_mean, m_F, m_psi}; }
    long step() const { return m_t; }
    long divergedAt() const { return m_divergedAt; }
    virtual void setLearningRate(double) {}
    /// Read-only views of the current state, for cheap sub-block and 2D views (no D x K copy).
    const Vector& mean() const { return m_mean; }
    const Matrix& loadings() const { return m_F; }
    const Vector& psi() const { return m_psi; }

  protected:
    /// d = theta - running mean at step t; warm says whether F and psi must stay fixed.
    virtual void update(const Vector& d, bool warm) = 0;
    long clampPsi(Eigen::Ref<Vector> psi) const;

    Eigen::Index m_dim;
    OnlineOptions m_options;
    Vector m_mean, m_d;
    Matrix m_F;
    Vector m_psi;
    EStep m_estep;
    long m_t = 0;
    long m_psiClamps = 0;
    FitStatus m_status = FitStatus::WarmUp;
    long m_divergedAt = 0;
};

} // namespace fa
