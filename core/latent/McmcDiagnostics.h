#pragma once
// Convergence diagnostics of a scalar across Markov chains (BDA3 §11.4–11.5;
// docs/maths/latent.md §2.3–2.4): split-R̂ and the effective sample size with Geyer's initial
// positive sequence. For the Gibbs sampler's covariance entries; any draws will do.
#include <vector>

namespace fa {

/// Split-R̂: M chains of 2n kept draws (any odd last draw dropped) become 2M halves of n;
/// W = mean within-half variance (ddof 1), B = n · variance of the half means (ddof 1),
/// var⁺ = (n - 1)/n W + B/n, R̂ = √(var⁺ / W). Near 1 when the chains agree; flag > 1.01.
/// Throws std::invalid_argument unless there are chains of equal length >= 4.
double splitRhat(const std::vector<std::vector<double>>& chains);

/// Effective sample size M n / τ, τ = -1 + 2 Σ_{t'} (ρ̂_{2t'} + ρ̂_{2t'+1}) summed while the
/// pair sum is positive, ρ̂_t = 1 - (W - mean_m acov_{m,t}) / var⁺ with W and var⁺ of the M
/// unsplit chains and the biased (/n) autocovariances of each chain; τ is bounded below by
/// 1 / log10(M n) (Stan's guard against antithetic chains). One chain is allowed (B = 0).
double effectiveSampleSize(const std::vector<std::vector<double>>& chains);

} // namespace fa
