#include "core/vi/BoundHyper.h"

#include <stdexcept>

namespace fa {

std::vector<BoundStep> fitHyperByBound(const ConstMatrixRef& X, const ConstVectorRef& y,
                                       ViFamily family, Hyperparameters h, int iterations) {
    if (iterations < 0)
        throw std::invalid_argument("the iteration count must not be negative");
    const auto n = static_cast<double>(X.rows()), d = static_cast<double>(X.cols());
    std::vector<BoundStep> steps;
    for (int it = 0; it <= iterations; ++it) {
        // q given (alpha, beta): exact within its family.
        const GaussianPosterior post = exactPosterior(X, y, h);
        Matrix S = post.cov;
        if (family == ViFamily::MeanField) {
            Matrix lambda = h.beta * (X.transpose() * X);
            lambda.diagonal().array() += h.alpha;
            S = lambda.diagonal().cwiseInverse().asDiagonal();
        }
        const Vector& m = post.mean;
        // (alpha, beta) given q, from E_q|w|^2 and E_q|y - X w|^2 in closed form.
        if (it > 0) {
            const double w2 = m.squaredNorm() + S.trace();
            const double r2 = (y - X * m).squaredNorm() + (X * S).cwiseProduct(X).sum();
            h = {d / w2, n / r2};
            if (!(h.alpha > 0.0) || !(h.beta > 0.0) || !std::isfinite(h.alpha + h.beta))
                throw std::invalid_argument("the hyperparameters left (0, inf)");
        }
        steps.push_back({it, h, gaussianElbo(X, y, h, m, S), logEvidence(X, y, h)});
    }
    return steps;
}

} // namespace fa
