#pragma once
// The exact posterior of a 2-parameter model on a fine grid (docs/maths/posterior.md §5.2-5.5): the
// log density at cell centres, the cell masses, log Z, mean and covariance (two passes), the
// highest-density levels at 39 / 86 / 99 % (the Mahalanobis-1, 2, 3 masses of a Gaussian, so
// grid contours compare like with like with q's ellipses) and KL(q || p) by quadrature.
#include "core/math/Types.h"

#include <Eigen/Dense>
#include <array>
#include <functional>
#include <vector>

namespace fa {

/// log p~(w) for w in R^2, up to nothing: the grid's log Z is then the log evidence.
using LogDensity2 = std::function<double(const Eigen::Vector2d& w)>;

struct GridBox {
    Eigen::Vector2d lo{-1.0, -1.0}, hi{1.0, 1.0};
    int cells = 400; ///< G per axis
};

/// The HPD masses of the contours drawn: 1 - exp(-r^2 / 2), r = 1, 2, 3.
constexpr std::array<double, 3> kHpdMasses = {0.39346934028736658, 0.86466471676338730,
                                              0.98889100346175773};

struct GridPosterior {
    GridBox box;
    Eigen::Vector2d step;               ///< h, the cell sides
    Matrix logDensity;                  ///< G x G, entry (i, j) at w = lo + (i + 1/2, j + 1/2) .* h
    Matrix mass;                        ///< cell masses P_ij, summing to 1
    double logZ = 0.0;                  ///< log of the integral of p~ over the box
    Eigen::Vector2d mean;               ///< sum P w
    Eigen::Matrix2d cov;                ///< sum P (w - mean)(w - mean)^T
    double ringMass = 0.0;              ///< mass in the outermost ring of cells
    std::array<double, 3> hpdDensity{}; ///< density thresholds enclosing kHpdMasses
    Eigen::Vector2d centre(int i, int j) const;
    double cellArea() const { return step(0) * step(1); }
};

/// Evaluates the grid (rows of cells in parallel when the machine has the cores; the result
/// does not depend on the thread count). Throws std::invalid_argument for an empty box, fewer
/// than 8 cells per axis or a density that is nowhere finite.
GridPosterior gridPosterior(const LogDensity2& logDensity, const GridBox& box);

/// Enlarges the box by 1.5 about its centre until the outer ring holds less than ringTolerance
/// of the mass (at most 8 times; the last grid is returned either way). With zeroOnEdge, the box
/// is shifted by less than one cell so that w_i = 0 falls on a cell edge (the Laplace prior's
/// kink; docs/maths/posterior.md §5.5).
GridPosterior adaptiveGridPosterior(const LogDensity2& logDensity, GridBox box,
                                    double ringTolerance = 1e-10, bool zeroOnEdge = true);

/// The box mean +- halfWidth standard deviations of a Gaussian guess, per axis.
GridBox boxAround(const Eigen::Vector2d& mean, const Eigen::Matrix2d& cov, double halfWidth,
                  int cells);

/// KL(q || p) for q = N(mean, cov) by quadrature on p's grid: sum q(w) dA [log q(w) - log p(w)].
/// qMass, if given, receives sum q(w) dA (near 1 unless q reaches past the box).
double klByQuadrature(const GridPosterior& p, const Eigen::Vector2d& mean,
                      const Eigen::Matrix2d& cov, double* qMass = nullptr);

/// A contour line: closed where it does not leave the grid.
using Polyline2 = std::vector<Eigen::Vector2d>;
/// The curves where the density (mass / cell area, between cell centres bilinear along the
/// edges) crosses `density`, by marching squares; saddle cells are split by their centre value.
std::vector<Polyline2> contourLines(const GridPosterior& p, double density);

} // namespace fa
