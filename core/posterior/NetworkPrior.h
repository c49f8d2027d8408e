#pragma once
// The "width -> infinity" lesson (docs/maths/gp.md §7): random one-hidden-layer networks
// f(x) = b + sum_h v_h g(u_h . (1, x)) with b ~ N(0, sigma_b^2), u_h ~ N(0, diag(sigma_b0^2,
// sigma_w^2, ...)) and v_h ~ N(0, sigma_v^2 / H), drawn on a grid beside draws from the GP with
// the matching NN kernel; and the empirical covariance of f(x1), f(x2) over many networks
// against the kernel. For a window: both draws on the same inputs, one call each.
#include "core/math/Types.h"
#include "core/posterior/GaussianProcess.h"

namespace fa {

/// The prior of the network's weights; units: GpKernel::NnErf (erf) or GpKernel::NnRelu (ReLU).
struct NetworkPrior {
    GpKernel units = GpKernel::NnErf;
    double sigmaB = 0.5;  ///< output bias b
    double sigmaV = 1.0;  ///< output weights, as v_h ~ N(0, sigmaV^2 / H)
    double sigmaB0 = 1.0; ///< hidden units' biases
    double sigmaW = 1.5;  ///< hidden units' input weights
};

/// The GP hyperparameters of the infinitely wide network (logs, docs/maths/gp.md §2), with a
/// noise standard deviation sigma_n (for GpRegression; the draws below take the noiseless f).
GpHyper networkKernel(const NetworkPrior& prior, double noiseSd = 1e-3);

/// `draws` networks of H hidden units evaluated at the rows of X: X.rows() x draws, column d one
/// network's function. Throws std::invalid_argument for H < 1, draws < 1 or units not NN.
Matrix drawNetworkFunctions(const NetworkPrior& prior, int hidden, const ConstMatrixRef& X,
                            int draws, std::uint64_t seed);

/// `draws` functions from the GP prior N(0, K(X, X)) (noiseless; a jitter of 1e-10 times the
/// largest variance on the diagonal keeps the Cholesky factor defined): X.rows() x draws.
Matrix drawGpFunctions(const GpHyper& hyper, const ConstMatrixRef& X, int draws,
                       std::uint64_t seed);

/// Over `draws` networks of H units: the mean of f(x1) f(x2) (the covariance: f has mean zero)
/// and its standard error, beside the kernel k(x1, x2); and f(x1)'s excess kurtosis (0 for a
/// Gaussian), which is what goes to zero as H grows (docs/maths/gp.md §7).
struct CovarianceCheck {
    int hidden = 0;
    long draws = 0;
    double empirical = 0.0, stdErr = 0.0, kernel = 0.0;
    double excessKurtosis = 0.0;
};
CovarianceCheck networkCovariance(const NetworkPrior& prior, int hidden, const ConstVectorRef& x1,
                                  const ConstVectorRef& x2, long draws, std::uint64_t seed);

} // namespace fa
