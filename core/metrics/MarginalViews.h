#pragma once
// Small views of a large FA Gaussian for display: a 2D marginal, its probability-mass ellipses,
// and a leading covariance sub-block. All O(B^2 K) or less: never a D x D matrix.
#include "core/math/Types.h"

#include <vector>

namespace fa {

struct Marginal2 {
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    Eigen::Matrix2d cov = Eigen::Matrix2d::Identity();
};

/// The marginal of N(c, F F^T + diag(psi)) over coordinates i and j.
Marginal2 marginal2(const ConstVectorRef& c, const ConstMatrixRef& F, const ConstVectorRef& psi,
                    Eigen::Index i, Eigen::Index j);

/// The leading size x size block of F F^T + diag(psi).
Matrix covarianceBlock(const ConstMatrixRef& F, const ConstVectorRef& psi, Eigen::Index size);

/// Mahalanobis radius r of the ellipse that holds probability mass p of a 2D Gaussian:
/// the squared radius is chi-squared with 2 degrees of freedom, so p = 1 - exp(-r^2 / 2).
double massRadius(double mass);

/// The p-mass ellipse of N(mean, cov) as a closed polyline (last point = first), or empty
/// when cov is not positive definite (a diverged fit).
std::vector<Eigen::Vector2d> massEllipse(const Marginal2& gaussian, double mass, int points = 97);

/// The contour levels the 2D views draw: the masses inside Mahalanobis radius 1, 2 and 3
/// (39.3 %, 86.5 %, 98.9 %).
std::vector<double> standardMassLevels();

} // namespace fa
