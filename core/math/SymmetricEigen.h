#pragma once
// The symmetric eigen-decomposition, compiled once: Eigen's SelfAdjointEigenSolver costs about
// six seconds of compiler time in every file that names it (measured with GCC 12), so the files
// of core/ that need one call this instead.
#include "core/math/Types.h"

namespace fa {

struct SymmetricEigen {
    Vector values;  ///< ascending
    Matrix vectors; ///< one orthonormal column per value, in the same order; empty if not asked
};

/// Eigen's SelfAdjointEigenSolver of S (only its lower triangle is read); vectors optional.
SymmetricEigen symmetricEigen(const ConstMatrixRef& S, bool withVectors = true);

} // namespace fa
