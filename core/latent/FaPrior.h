#pragma once
// The priors on each row's (f_d, c_d, ψ_d) that FA's batch EM and its Gibbs sampler share: one
// word, one prior, whichever method uses it (docs/maths/latent.md §1.7, §2.1, §2.5; PPCA's EM
// reads "independent" as its MAP prior, §3.5).

namespace fa {

/// None: no prior (EM's maximum likelihood; no sampler draws from it). Jeffreys: the slides'
/// eq 4, p ∝ Π_d ψ_d⁻¹, flat in F and c (EM: MAP with ψ's divisor N + 2; Gibbs: the joint
/// normal-inverse-χ² draw of §2.5; the CLI also calls it "improper"). Conjugate: f_d | ψ_d ~
/// N(0, ψ_d/λ₀ I_K), c_d flat, ψ_d ~ Inv-χ²(ν₀, τ₀ S_dd) (EM: MAP; Gibbs: the same joint draw).
/// Independent: the sampler's semi-conjugate default of §2.1 (not FA's EM); for PPCA's EM, its
/// MAP prior of §3.5 (w_k ~ N(0, α⁻¹ I), σ² ~ IG(1, 0.1 v̄): the same form).
enum class FaPrior { None, Jeffreys, Conjugate, Independent };

/// The conjugate prior's hyperparameters, the same for EM and Gibbs (§1.7): ν₀, τ₀² as a share
/// of S_dd (the column's variance, ddof 0), λ₀.
struct ConjugateHyper {
    double nu0 = 1.0;
    double tau0 = 0.1;
    double lambda0 = 1.0;
};

} // namespace fa
