#pragma once
// Gradient-norm clipping, shared by the variational fits (the report's published code clips
// each averaged gradient at norm 10).

namespace fa {

/// Scales x down to norm `limit` when its norm is above it; a limit of 0 (or below) leaves it.
/// x is a vector, a matrix (its Frobenius norm) or a block of one, written in place.
template <typename Gradient> void clipNorm(Gradient&& x, double limit) {
    if (!(limit > 0.0))
        return;
    const double norm = x.norm();
    if (norm > limit)
        x *= limit / norm;
}

} // namespace fa
