#pragma once
// Distances between two FA Gaussians S_i = Psi_i + F_i F_i^T in O(D K^2), never forming D x D.
#include "core/fa/FAModel.h"

namespace fa {

/// ||S1 - S2||_F / ||S2||_F from K x K Gram matrices (docs/maths/explorer.md §5.1); model 2 is the
/// reference.
double structuredRelativeCovarianceDistance(const FAModel& estimate, const FAModel& truth);

struct W2QuadratureOptions {
    double step = 0.4;   ///< trapezoid step in s = log t; error ~ exp(-pi^2 / step)
    double margin = 9.0; ///< nodes extend this far (in s) beyond the spread of sqrt(psi1 psi2)
    /// Above this D, rows are binned by log(psi1 psi2) with a Taylor expansion per bin,
    /// so a quadrature node costs O(bins K^2) instead of O(D K^2).
    Eigen::Index binAboveDim = 20000;
    double binWidth = 0.01; ///< bin width in log(psi1 psi2)
    /// 0 to 5; per-weight relative error <= (binWidth / 2)^(order + 1) ~ 6e-10
    int taylorOrder = 3;
};

/// 2-Wasserstein distance between N(c1, S1) and N(c2, S2).
///
/// W2^2 = ||c1 - c2||^2 + sum (sqrt psi1 - sqrt psi2)^2 + ||F1||^2 + ||F2||^2 - 2 X, with
/// X = tr sqrt(S1 S2) - sum sqrt(psi1 psi2) = (1/pi) int_0^inf l(t) dt and
/// l(t) = log det(t^2 I + S1 S2) - log det(t^2 I + Psi1 Psi2) (integration by parts of the
/// trace identity in docs/maths/explorer.md §5.2). By Woodbury, l(t) = log det(I + F1^T Psi1^-1 F1)
/// + log det(I + J Z^T (t^2 + Lambda)^-1 Z) with Z = [sqrt(psi1) F2, F1 / sqrt(psi1)],
/// J = diag(I, -t^2 (I + F1^T Psi1^-1 F1)^-1), Lambda = Psi1 Psi2: one symmetric 2K x 2K Gram
/// per node. The c / t^2 tail of l is subtracted in closed form; trapezoid rule on t = e^s.
double structuredW2(const FAModel& a, const FAModel& b, const W2QuadratureOptions& options = {});

} // namespace fa
