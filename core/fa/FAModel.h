#pragma once
// A factor-analysis Gaussian N(c, F F^T + diag(psi)), kept in its O(D K) form.
#include "core/math/Rng.h"
#include "core/math/Types.h"

#include <utility>

namespace fa {

struct FAModel {
    Vector c;   ///< mean, D
    Matrix F;   ///< factor loadings, D x K
    Vector psi; ///< diagonal noise variances, D

    Eigen::Index dim() const { return F.rows(); }
    Eigen::Index latent() const { return F.cols(); }

    /// log N(x; c, F F^T + Psi) by the Woodbury identity and the determinant lemma: O(D K^2).
    double logDensity(const ConstVectorRef& x) const;
    /// F F^T + Psi as a dense D x D matrix: for checks, views and small D only.
    Matrix denseCovariance() const;
    /// Throws std::invalid_argument unless the shapes agree, psi > 0 and all entries are finite.
    void validate() const;
};

/// The pair (i < j) of the first `among` coordinates whose correlation under N(c, F F^T + Psi)
/// is largest in magnitude (the smallest such pair on ties): the 2D view's default, where a
/// marginal shows the most structure. O(among^2 K).
std::pair<Eigen::Index, Eigen::Index> mostCorrelatedPair(const FAModel& model,
                                                         Eigen::Index among = 400);

/// Draws theta = F h + c + sqrt(psi) .* eps without forming the covariance; allocation-free
/// per draw.
class FASampler {
  public:
    explicit FASampler(const FAModel& model);
    void draw(Rng& rng, Eigen::Ref<Vector> out);

  private:
    const FAModel& m_model;
    Vector m_sqrtPsi;
    Vector m_h, m_eps;
};

} // namespace fa
