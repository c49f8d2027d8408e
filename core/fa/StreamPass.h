#pragma once
// One streaming pass over the D rows per observation for online EM and online SGA: the pending
// M step of observation t and the E-step reductions of observation t + 1 over the same block of
// 256 rows (the block's rows updated first, then its sums formed while they are in L1), so the
// fitter's D x K state is read and written once per observation (issue 15). Plain pointers
// (column-major, leading dimension D) and no Eigen, so this file alone can be compiled for the
// widest vectors the machine has. The maths is the fitters' (OnlineEM.h, OnlineSGA.h); only the
// order of the loops differs.
#include <cstdint>

namespace fa::stream {

/// What every pass (or part of one: the rows [first, last)) returns: the next E step's sums over
/// rows y_i of the current F,
///   yy = sum_i y_i^T y_i / psi_i (K x K, lower triangle, column-major),
///   yd = sum_i y_i^T d_i / psi_i (K),
/// the number of psi entries clamped, and sums whose finiteness says whether the updated state
/// (stateSum) and the running mean (meanSum) are free of NaN and Inf.
struct PassOut {
    double* yy = nullptr;
    double* yd = nullptr;
    long clamps = 0;
    double stateSum = 0.0, meanSum = 0.0;
};

/// What both fitters' passes share: the shape, the running mean, d (the last observation's
/// deviation) and psi; whether an M step is pending and its clamp of psi; the next observation x
/// (null: settle the pending step only), its index t (the mean's weight is 1 / t), and the
/// pending step's E-step mean m.
struct RowsPass {
    long dim = 0;
    int latent = 0;
    double *mean = nullptr, *d = nullptr, *psi = nullptr;
    bool pending = false;
    double psiFloor = 0.0;
    const double* m = nullptr;
    const double* x = nullptr;
    double t = 1.0;
};

/// Online EM. State: the running mean, d (the last observation's deviation), A (D x K running
/// mean of d m^T), d2 (running mean of d^2), psi, and F0 (the initial frame, F during warm-up).
/// After warm-up F = A G with G = (Sigma + B)^-1 symmetric, so F is never stored; nor is psi by
/// a pass with an observation (the M step it leaves pending writes psi when it is settled).
struct EmPass : RowsPass {
    double *A = nullptr, *d2 = nullptr;
    const double* F0 = nullptr;
    // The pending M step: A <- (1 - w) A + w d m^T, d2 <- (1 - w) d2 + w d^2 and, unless fixed
    // (warm-up), psi <- max(d2 - rowsum(A G .* A), psiFloor). Gs holds G with its off-diagonal
    // entries doubled (K x K column-major; the upper triangle is read: g[k], k < j, of column j).
    bool fixed = true;
    double w = 0.0;
    const double* Gs = nullptr;
    // With the next observation: mean += (x - mean) / t, d = x - mean, and the sums over
    // y_i = F0 row i (useF0) or A row i (then F = A G).
    bool useF0 = true;
};
void run(const EmPass& pass, PassOut& out);

/// Online SGA. State: the running mean, d, F (D x K), beta = log psi, psi. The pending step:
/// F += eta psi^-1 (d m^T - F M), beta += eta (1/2 psi^-1 (d^2 - 2 d F m + rowsum(F M .* F))
/// - 1/2), psi = exp(beta) clamped at psiFloor (beta = log psiFloor where clamped); M = Sigma +
/// m m^T. expBlock computes out = exp(in) for n entries (vectorised, by the caller's library).
struct SgaPass : RowsPass {
    double *F = nullptr, *beta = nullptr;
    double eta = 0.0, logPsiFloor = 0.0;
    const double* M = nullptr;
    void (*expBlock)(const double* in, double* out, long n) = nullptr;
    bool reduce = true; ///< form the next E step's sums (not during warm-up)
};
void run(const SgaPass& pass, PassOut& out);

/// The pass over rows [first, last) alone: out receives those rows' share of yy and yd, their
/// clamps and their finiteness sums (core/fa/PassThreads.h adds the parts of a split pass). The
/// rows of a pass are independent of each other, so parts may run on different threads. The
/// 256-row blocks (SGA: its step, exp of beta, then the clamp and the sums) start at `first`.
void run(const EmPass& pass, PassOut& out, long first, long last);
void run(const SgaPass& pass, PassOut& out, long first, long last);

} // namespace fa::stream
