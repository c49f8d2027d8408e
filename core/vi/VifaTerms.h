#pragma once
// The exact (not sampled) parts of the VIFA objective -ELBO = E_q[-log p(D|theta)]
// + E_q[-log p(theta)] - H[q] for q = N(c, F F^T + diag(psi)), gamma = log psi, and their
// gradients (docs/maths/posterior.md §2, report eqs. 1-9). O(D K^2); no D x D matrix.
#include "core/math/Types.h"

namespace fa {

/// Gradients of a scalar with respect to (c, F, gamma = log psi).
struct VifaGradients {
    Vector c;
    Matrix F;
    Vector gamma;
    void resize(Eigen::Index dim, Eigen::Index latent);
    void setZero();
};

/// -H[q] up to its constant: -1/2 log det(F F^T + Psi) (determinant lemma).
double negEntropy(const ConstMatrixRef& F, const ConstVectorRef& psi);
/// Adds the gradient of -H: dF = -A + C B, dgamma = -1/2 + 1/2 rowsum(C .* A) .* psi,
/// with A = Psi^-1 F, B = F^T A, C = A (I + B)^-1.
void addNegEntropyGradients(const ConstMatrixRef& F, const ConstVectorRef& psi, VifaGradients& g);

/// E_q[-log N(theta; 0, alpha^-1 I)] up to its constant: alpha/2 (|c|^2 + |F|_F^2 + sum psi).
double gaussianPriorTerm(const ConstVectorRef& c, const ConstMatrixRef& F,
                         const ConstVectorRef& psi, double alpha);
void addGaussianPriorGradients(const ConstVectorRef& c, const ConstMatrixRef& F,
                               const ConstVectorRef& psi, double alpha, VifaGradients& g);

/// E|X| for X ~ N(mu, var): mu (2 Phi(mu/s) - 1) + 2 s phi(mu/s), s = sqrt(var) (report Theorem).
double expectedAbs(double mu, double var);
/// E_q[-log Laplace(theta; 0, b)] up to its constant, rate = 1/b: rate sum_d E|theta_d|, where
/// theta_d ~ N(c_d, zz_d) and zz = psi + rowsum(F .* F).
double laplacePriorTerm(const ConstVectorRef& c, const ConstMatrixRef& F, const ConstVectorRef& psi,
                        double rate);
/// Adds dc = rate (2 Phi(c/sqrt zz) - 1), dF = 2 rate ww .* F, dgamma = rate ww .* psi, with
/// ww = phi(c/sqrt zz)/sqrt zz.
void addLaplacePriorGradients(const ConstVectorRef& c, const ConstMatrixRef& F,
                              const ConstVectorRef& psi, double rate, VifaGradients& g);

/// Standard normal cdf and pdf.
double normalCdf(double x);
double normalPdf(double x);

} // namespace fa
