#pragma once
// Mixture of probabilistic PCA by EM (Tipping and Bishop 1999, Neural Computation; notes
// "Mixture of PCA"; docs/maths/latent.md §3.4): responsibilities from the components' log
// densities by log-sum-exp, then per component the weight, the weighted mean and the exact
// closed-form M step (§3.1 on the weighted covariance S_c). Start: k-means++ centres, Lloyd
// steps, hard responsibilities and one M step. σ_c² is floored at 1e-6 tr(S)/D and a component
// left with fewer than K + 2 points' weight is re-seeded at the worst-fitted point.
// Batch work; S_c is D x D (the lab's mixtures live in 2–3 D; O(N D² + D³) per component).
#include "core/math/Types.h"
#include "core/models/Ppca.h"

#include <cstdint>
#include <vector>

namespace fa {

struct MppcaOptions {
    int components = 3;
    int latent = 1;
    std::uint64_t seed = 0;
    int lloydSteps = 10;
    double sigmaFloor = 1e-6; ///< σ_c² >= sigmaFloor tr(S) / D
    double tolerance = 1e-10; ///< converged when |Δℓ| < tolerance (1 + |ℓ|), ℓ per row
};

struct MppcaComponent {
    double weight = 0.0; ///< π_c
    PpcaModel ppca;      ///< μ_c, W_c (D x K), σ_c²
};

class Mppca {
  public:
    /// Rows are observations (N x D), complete and finite. Throws std::invalid_argument unless
    /// 1 <= K < D, 1 <= C and N >= C (K + 2).
    Mppca(const ConstMatrixRef& rows, const MppcaOptions& options);

    /// One E and M step; returns the log-likelihood per row at the parameters before it.
    double iterate();
    double loglikPerRow() const;
    double loglikPerRow(const ConstMatrixRef& rows) const;
    /// r_nc at the current parameters (N x C of the given rows; each row sums to 1).
    Matrix responsibilities(const ConstMatrixRef& rows) const;
    const std::vector<MppcaComponent>& components() const { return m_components; }
    long iterations() const { return m_iterations; }
    bool converged() const { return m_converged; }
    /// Components re-seeded so far, and whether some σ_c² sits at its floor now.
    int reseeded() const { return m_reseeded; }
    bool floored() const;
    bool diverged() const { return m_diverged; }

    /// The mixture's overall mean and covariance Σ π_c (C_c + μ_c μ_cᵀ) - μ̄ μ̄ᵀ (D x D).
    void moments(Vector& mean, Matrix& covariance) const;

  private:
    /// a_nc = log π_c + log N(x_n; μ_c, C_c) for the given rows (N x C).
    Matrix logJoint(const ConstMatrixRef& rows) const;
    /// Weights, means and the closed form per component; a component with too little weight is
    /// re-seeded at the row of largest badness (the worst fitted).
    void mStep(const Matrix& r, const Vector& badness);
    void kmeansStart();

    MppcaOptions m_options;
    Matrix m_X;
    double m_floor = 0.0;
    std::vector<MppcaComponent> m_components;
    long m_iterations = 0;
    double m_lastLoglik = 0.0;
    int m_reseeded = 0;
    bool m_converged = false, m_diverged = false;
};

/// The overall mean and covariance Σ π_c (C_c + μ_c μ_cᵀ) - μ̄ μ̄ᵀ of mixture components.
void mixtureMoments(const std::vector<MppcaComponent>& components, Vector& mean,
                    Matrix& covariance);

/// Rows of a mixture of C linear pieces in D dimensions (the lab's generated mixture data):
/// piece c has a centre ~ N(0, 9 I), K random directions with lengths between 1 and 3, isotropic
/// noise of variance noise, and weight ∝ 1 + c / C. Returns the rows and fills truth with the
/// generating mixture (its PPCA components are exact).
Matrix mixtureOfPieces(int dim, int components, int latent, int samples, double noise,
                       std::uint64_t seed, std::vector<MppcaComponent>* truth = nullptr);

} // namespace fa
