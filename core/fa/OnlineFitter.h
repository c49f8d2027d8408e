#pragma once
// The online FA algorithms (online EM, online SGA): stream fits that observe a sample, give a
// snapshot, report a status. Shared here: the running mean, warm-up, the E-step and divergence
// checks.
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/fa/PassThreads.h"

#include <cmath>
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
    /// The start's scale per coordinate, s (D positive numbers), or empty for the thesis's
    /// start (F0 a random orthonormal frame, psi = 1): F0 = diag(s) frame, psi = s^2 (floored
    /// at psiFloor). FA is equivariant under x -> diag(s)^-1 x, so the fit from this start on x
    /// is diag(s) times the fit from the thesis's start on diag(s)^-1 x (docs/maths/neural.md
    /// §8.8).
    Vector startScale;
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
    Vector m_invSqrtPsi, m_scaledD, m_proj, m_m;
};

/// Online EM and SGA run one streaming pass over the D rows per observation (StreamPass.h):
/// the M step of observation t is finished in the same pass that folds in observation t + 1 and
/// forms its E step. Until the next observation the last M step is pending; every accessor
/// finishes it first (so the state they show is the one after the last observation), which is
/// why the pass state is `mutable`. A fitter is used from one thread at a time.
class OnlineFitter : public StreamFit {
  public:
    OnlineFitter(Eigen::Index dim, const OnlineOptions& options);
    virtual ~OnlineFitter() = default;

    virtual std::string name() const = 0;
    /// Consumes one observation. Never throws on numerical trouble: sets status Diverged.
    void observe(const ConstVectorRef& theta) final;
    FitSnapshot snapshot() const;
    FitStatus status() const override;
    FAModel model() const override;
    long step() const;
    long divergedAt() const;
    virtual void setLearningRate(double) {}
    /// Splits each observation's pass over its D rows on n threads (this one and n - 1 helpers
    /// that sleep between passes; n = 1, the default, is this thread alone). From D >= minRows
    /// (stream::kSplitMinRows by default: below it a split does not pay, docs/threads.md) the
    /// pass is summed in blocks of blockRows rows for any n, so the fit is bitwise the same for
    /// every n (core/fa/PassThreads.h). Throws std::invalid_argument for n < 1 or blockRows not
    /// a positive multiple of 64.
    void setPassThreads(int n, long minRows = stream::kSplitMinRows,
                        long blockRows = stream::kSumBlockRows);
    int passThreads() const { return m_passThreads.threads(); }
    /// The threads each pass runs on: 1 unless D >= minRows and n > 1.
    int passParts() const { return m_passThreads.parts(m_dim); }
    /// Read-only views of the current state, for cheap sub-block and 2D views.
    const Vector& mean() const { return m_mean; }
    const Matrix& loadings() const; ///< online EM forms F = A G on the first call after a step
    const Vector& psi() const;
    /// The given rows of F, without forming all of it.
    virtual Matrix loadingRows(const std::vector<Eigen::Index>& rows) const;

  protected:
    struct PassResult {
        bool stateFinite = true; ///< the finished M step left no NaN or Inf
        bool meanFinite = true;  ///< neither did the new observation's running mean
    };
    /// One pass: finishes the pending M step, if any, and with x (observation m_t) updates the
    /// running mean and d, and forms that observation's E step (leaving its M step pending).
    virtual PassResult pass(const double* x) const = 0;
    /// The part of a pass's description both fitters fill alike (StreamPass.h, RowsPass).
    void describeRows(stream::RowsPass& p, const double* x) const;
    /// Runs a pass on the pass's threads into the next E step's sums (m_yy, m_yd); the pending
    /// step is then done, its clamps counted.
    template <class Pass> PassResult runPass(const Pass& p) const {
        stream::PassOut out;
        out.yy = m_yy.data();
        out.yd = m_yd.data();
        m_passThreads.run(p, out);
        m_pending = false;
        m_psiClamps += out.clamps;
        return {std::isfinite(out.stateSum), std::isfinite(out.meanSum)};
    }
    /// F after the last finished M step.
    virtual const Matrix& currentLoadings() const = 0;
    /// Finishes a pending M step (the accessors call it).
    void settle() const;
    /// The E step from a pass's sums (yy lower triangle): S = T^T yy T, p = T^T yd with T the
    /// map from the pass's rows to F's (null: identity), Sigma = (I + S)^-1, m = Sigma p. A
    /// singular I + S gives NaN (flags divergence).
    void solveEStep(const Matrix* T) const;

    Eigen::Index m_dim;
    OnlineOptions m_options;
    mutable Vector m_mean, m_d, m_psi;
    long m_t = 0;
    mutable bool m_pending = false; ///< observation m_t's M step is still to be done
    mutable long m_psiClamps = 0;
    mutable FitStatus m_status = FitStatus::WarmUp;
    mutable long m_divergedAt = 0;
    // The E step of the pending observation, and the pass's sums.
    mutable Matrix m_yy, m_S, m_sigma, m_tmp;
    mutable Vector m_yd, m_p, m_m;
    mutable stream::PassThreads m_passThreads; // the pass's rows on threads (1 by default)
};

} // namespace fa
