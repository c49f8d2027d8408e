#pragma once
// The SGD trajectory of a network's weights in the plane of a fitted Gaussian's two leading
// directions, with that Gaussian's and SWAG's covariances projected on the same plane
// (docs/maths/neural.md §9). It keeps a thinned record of the collected iterates (at most a
// fixed number of weight vectors, preallocated) and a SWAG estimate of the same iterates, so
// that the FA fit of a run and SWAG can be compared on one trajectory.
#include "core/fa/FAModel.h"
#include "core/vi/SgdTrainer.h"

#include <Eigen/Core>

namespace fa {

/// What the window draws: the kept iterates and the two Gaussians, all in the plane
/// spanned by u1, u2 and centred at the fitted Gaussian's mean.
struct TrajectoryPlane {
    long collected = 0;       ///< iterates seen
    Matrix points;            ///< kept iterates, one row each: U^T (theta - mean)
    Eigen::Matrix2d fit;      ///< U^T (F F^T + Psi) U of the fitted Gaussian
    Eigen::Matrix2d swag;     ///< U^T Sigma_SWAG U of SWAG over the same iterates
    Eigen::Vector2d swagMean; ///< U^T (SWAG's mean - mean): 0 when both average the same iterates
    Matrix directions;        ///< U (D x 2), orthonormal
};

/// The two leading directions of a Gaussian N(c, F F^T + Psi): the leading left singular
/// vectors of F (the eigenvectors of F F^T with the two largest eigenvalues), signs fixed so
/// the largest-magnitude entry of each is positive. With one factor (or a second singular
/// value of zero) the second is the coordinate of largest psi, made orthogonal to the first.
/// D x 2, orthonormal; needs D >= 2.
Matrix leadingDirections(const FAModel& q);

class IterateTrajectory {
  public:
    /// dim: weights D; rank: SWAG's K; capacity: the most iterates kept (at least 2).
    IterateTrajectory(Eigen::Index dim, int rank, int capacity);
    /// A collected iterate: fed to SWAG; kept when its index (0, 1, 2, ...) is a multiple of the
    /// stride. When the record is full, every second kept iterate is dropped and the stride
    /// doubles, so the kept ones stay evenly spread over the whole run. No allocation.
    void observe(const ConstVectorRef& theta);
    long collected() const { return m_count; }
    long stride() const { return m_stride; }
    /// The kept iterates, oldest first (D x kept).
    ConstMatrixRef kept() const { return m_kept.leftCols(m_size); }
    const SwagEstimator& swag() const { return m_swag; }
    /// The plane of q's leading directions; q is the fit of the same iterates.
    TrajectoryPlane plane(const FAModel& q) const;

    /// The capacity the window uses for D weights: about 4 million numbers, within [8, 400].
    static int defaultCapacity(Eigen::Index dim);

  private:
    SwagEstimator m_swag;
    Matrix m_kept;
    Eigen::Index m_size = 0;
    long m_count = 0, m_stride = 1;
};

} // namespace fa
