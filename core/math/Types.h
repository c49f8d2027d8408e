#pragma once
// Shared numeric aliases for the engine. Column vectors and column-major matrices throughout.
#include <Eigen/Dense>
#include <cstdint>
#include <limits>

namespace fa {
using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using ConstVectorRef = Eigen::Ref<const Vector>;
using ConstMatrixRef = Eigen::Ref<const Matrix>;

/// What a figure not (yet) computed holds.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// log(2 pi), a Gaussian density's constant: the double std::log(2.0 * std::numbers::pi) gives
/// (glibc and GCC's folding agree on it; tests/core/test_fa_model.cpp checks it), written as a
/// literal so every file shares one definition.
inline constexpr double kLog2Pi = 0x1.d67f1c864beb4p+0;
} // namespace fa
