#pragma once
// Exact Gaussian-process regression (docs/maths/gp.md): four kernels — squared exponential
// with one length scale per input, linear (Bayesian linear regression with a bias), and the
// kernels of an infinitely wide one-hidden-layer network with erf units (Williams 1997) or ReLU
// units (arc-cosine of order 1, Cho and Saul 2009) — the predictive by a Cholesky factor, the
// log marginal likelihood and its gradient in the log hyperparameters, and their optimisation
// by L-BFGS from a few seeded starts.
#include "core/math/Types.h"

#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class GpKernel { SquaredExp, Linear, NnErf, NnRelu };
std::string gpKernelName(GpKernel kernel); ///< se, linear, nn-erf, nn-relu
std::optional<GpKernel> parseGpKernel(const std::string& name);
std::vector<GpKernel> allGpKernels();
std::string gpKernelChoices(); ///< "se, linear, nn-erf, nn-relu"

/// A kernel and its hyperparameters, every one a logarithm (docs/maths/gp.md §2), the noise's
/// last:
///   se:      log s_f, log l_1 ... log l_D, log sigma_n     (D + 2)
///   linear:  log alpha, log beta (prior and noise precisions; sigma_n^2 = 1 / beta)
///   nn-erf, nn-relu: log sigma_b, log sigma_v, log sigma_b0, log sigma_w, log sigma_n
struct GpHyper {
    GpKernel kernel = GpKernel::SquaredExp;
    Vector logParams;
};
Eigen::Index gpParamCount(GpKernel kernel, Eigen::Index inputs);
/// The optimiser's first start for standardised data (docs/maths/gp.md §5).
GpHyper defaultGpHyper(GpKernel kernel, Eigen::Index inputs);
/// sigma_n^2 of the hyperparameters.
double gpNoiseVariance(const GpHyper& h);
/// Throws std::invalid_argument when the parameter count does not fit the kernel and inputs.
void checkGpHyper(const GpHyper& h, Eigen::Index inputs);

/// k(a_i, b_j) for the rows of A and B (no noise).
Matrix gpKernelMatrix(const GpHyper& h, const ConstMatrixRef& A, const ConstMatrixRef& B);
/// k(a_i, a_i) for the rows of A.
Vector gpKernelDiagonal(const GpHyper& h, const ConstMatrixRef& A);

/// (1/2) sum_ij W_ij dK_ij / d logParams[p] for every kernel parameter p (all but the noise), with
/// K = k(X, X): the kernel's part of the log marginal likelihood's gradient for
/// W = a a^T - (K + sigma_n^2 I)^-1 (docs/maths/gp.md §4). W must be symmetric.
Vector gpKernelGradient(const GpHyper& h, const ConstMatrixRef& X, const ConstMatrixRef& W);

/// log p(y | X, hyperparameters) and its gradient in the log hyperparameters
/// (docs/maths/gp.md §4); ok is false (value -inf) when K + sigma_n^2 I has no Cholesky factor.
struct GpEvidence {
    double value = 0.0;
    Vector gradient;
    bool ok = false;
};
GpEvidence gpLogMarginal(const GpHyper& h, const ConstMatrixRef& X, const ConstVectorRef& y,
                         bool withGradient = true);

/// The predictive at test inputs: the mean, the variance of f and of a new y (f's plus the noise).
struct GpPrediction {
    Vector mean, varF, varY;
};

/// A Gaussian process conditioned on training data (docs/maths/gp.md §3): one Cholesky factor
/// of K + sigma_n^2 I, then any number of predictions. ok() is false when the factor fails.
class GpRegression {
  public:
    GpRegression(const Matrix& X, const Vector& y, const GpHyper& h);
    bool ok() const { return m_ok; }
    const GpHyper& hyper() const { return m_hyper; }
    double logMarginal() const { return m_logMarginal; }
    GpPrediction predict(const ConstMatrixRef& Xs) const;

  private:
    Matrix m_X;
    GpHyper m_hyper;
    Eigen::LLT<Matrix> m_chol;
    Vector m_alpha; ///< (K + sigma_n^2 I)^-1 y
    double m_logMarginal = 0.0;
    bool m_ok = false;
};

/// Type-II maximum likelihood: L-BFGS on -log p(y | X) over the log hyperparameters, from the
/// default start and restarts - 1 starts drawn around it with the seed (docs/maths/gp.md §5);
/// the best is kept. Every log parameter stays within [-kGpLogBound, kGpLogBound].
inline constexpr double kGpLogBound = 12.0;
struct GpOptimiseOptions {
    int restarts = 3;
    int iterations = 100;
};
struct GpTrained {
    GpHyper hyper;
    double logMarginal = 0.0;
    int evaluations = 0;
    bool ok = false; ///< some start reached a finite log marginal likelihood
};
GpTrained optimiseGp(const Matrix& X, const Vector& y, GpKernel kernel,
                     const GpOptimiseOptions& options, std::uint64_t seed);

} // namespace fa
