#pragma once
// Inverse of a small symmetric positive-definite matrix (the K x K systems of the online
// fitters). Flat loops over a column-major buffer: for K ~ 10, Eigen's blocked triangular solves
// cost several times more in call overhead than the ~K^3 flops themselves.
#include "core/math/Types.h"

namespace fa {

/// out = A^-1 for symmetric A by Gauss-Jordan elimination without pivoting. Returns false
/// (out unspecified) when A is not positive definite or not finite. Allocation-free once out
/// has A's size.
bool invertSpd(const Matrix& A, Matrix& out);

/// out = T^T Y T for square n x n T and Y (tmp is scratch); allocation-free once sized.
void congruence(const Matrix& T, const Matrix& Y, Matrix& out, Matrix& tmp);

} // namespace fa
