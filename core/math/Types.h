#pragma once
// Shared numeric aliases for the engine. Column vectors and column-major matrices throughout.
#include <Eigen/Dense>
#include <cstdint>

namespace fa {
using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using ConstVectorRef = Eigen::Ref<const Vector>;
using ConstMatrixRef = Eigen::Ref<const Matrix>;
} // namespace fa
