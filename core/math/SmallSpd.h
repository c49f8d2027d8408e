#pragma once
// Inverse of a small symmetric positive-definite matrix (the K x K systems of the online
// fitters). Flat loops over a row-major buffer: for K ~ 10, Eigen's blocked triangular solves
// cost several times more in call overhead than the ~K^3 flops themselves.
#include "core/math/Types.h"

#include <vector>

namespace fa {

/// out = A^-1 via Cholesky (A = L L^T, A^-1 = L^-T L^-1). Returns false (out unspecified)
/// when A is not positive definite or not finite. work is scratch, reused between calls.
bool invertSpd(const Matrix& A, Matrix& out, std::vector<double>& work);

} // namespace fa
