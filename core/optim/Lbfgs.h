#pragma once
// Limited-memory BFGS (Nocedal and Wright 2006, Algorithm 7.4, the two-loop recursion) with a
// backtracking Armijo line search, for small smooth problems such as a Gaussian process's
// hyperparameters (docs/maths/gp.md §5). Deterministic: no random numbers.
#include "core/math/Types.h"

#include <functional>

namespace fa {

/// The objective: returns f(x) and writes its gradient into `grad` (sized like x). A value that
/// is not finite marks a point the objective cannot evaluate (a failed Cholesky, a parameter
/// beyond its box); the line search then backs off.
using Objective = std::function<double(const Vector& x, Vector& grad)>;

struct LbfgsOptions {
    int iterations = 100;    ///< at most this many accepted steps
    int memory = 10;         ///< curvature pairs kept
    double gradTol = 1e-5;   ///< stop once max |grad_i| is below this
    double valueTol = 1e-10; ///< stop once a step lowers f by less than this times max(1, |f|)
};

struct LbfgsResult {
    Vector x;
    double value = 0.0;
    int iterations = 0, evaluations = 0;
    bool converged = false; ///< a tolerance was met (not the iteration limit or a failed search)
};

/// Minimises f from x0. Throws std::invalid_argument when f(x0) is not finite.
LbfgsResult minimiseLbfgs(const Objective& f, const Vector& x0, const LbfgsOptions& options = {});

} // namespace fa
