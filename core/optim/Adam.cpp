#include "core/optim/Adam.h"

#include <cmath>

namespace fa {

void optimiserStep(OptimiserKind kind, Eigen::Ref<Vector> param, const ConstVectorRef& grad,
                   AdamMoments moments, double lr, long t) {
    if (kind == OptimiserKind::Sgd) {
        param -= lr * grad;
        return;
    }
    auto& [m, v] = moments;
    constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    m = b1 * m + (1.0 - b1) * grad;
    v = b2 * v + (1.0 - b2) * grad.cwiseAbs2();
    const double c1 = 1.0 - std::pow(b1, double(t)), c2 = 1.0 - std::pow(b2, double(t));
    param.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
}

} // namespace fa
