#include "core/metrics/MixturePredictive.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

double mixtureCdf(const ConstVectorRef& mu, const ConstVectorRef& sd, double t) {
    double sum = 0.0;
    for (Eigen::Index j = 0; j < mu.size(); ++j)
        sum += 0.5 * std::erfc(-(t - mu(j)) / (sd(j) * std::numbers::sqrt2));
    return sum / static_cast<double>(mu.size());
}

double mixtureQuantile(const ConstVectorRef& mu, const ConstVectorRef& sd, double alpha) {
    if (!(alpha > 0.0 && alpha < 1.0))
        throw std::invalid_argument("a quantile's level must lie in (0, 1)");
    double lo = (mu.array() - 12.0 * sd.array()).minCoeff();
    double hi = (mu.array() + 12.0 * sd.array()).maxCoeff();
    for (int step = 0; step < 100; ++step) { // F is strictly increasing: halve the bracket
        const double mid = 0.5 * (lo + hi);
        if (hi - lo <= 1e-12 * std::max(1.0, std::abs(mid)))
            break;
        (mixtureCdf(mu, sd, mid) < alpha ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

MixtureScores scoreMixture(const ConstMatrixRef& mu, const ConstMatrixRef& sd,
                           const ConstVectorRef& y) {
    const Eigen::Index n = mu.rows(), J = mu.cols();
    if (n < 1 || J < 1 || sd.rows() != n || sd.cols() != J || y.size() != n)
        throw std::invalid_argument(
            "a mixture needs N x J means and sds (N, J >= 1) and N targets");
    if (!(sd.array() > 0.0).all())
        throw std::invalid_argument("a mixture's standard deviations must be positive");
    MixtureScores s;
    s.mean = mu.rowwise().mean();
    s.sd.resize(n);
    const double logJ = std::log(static_cast<double>(J));
    const double halfLog2Pi = 0.5 * kLog2Pi;
    double nll = 0.0, sq = 0.0;
    long inside = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        // log (1/J) sum_j N(y_i; mu_ij, s_ij^2) by log-sum-exp (the row as a column throughout).
        const Eigen::ArrayXd m = mu.row(i).transpose().array(), sj = sd.row(i).transpose().array();
        const Eigen::ArrayXd z = (y(i) - m) / sj;
        const Eigen::ArrayXd logs = -halfLog2Pi - sj.log() - 0.5 * z.square();
        const double top = logs.maxCoeff();
        nll -= top + std::log((logs - top).exp().sum()) - logJ;
        const double e = y(i) - s.mean(i);
        sq += e * e;
        // Total variance: the mean of the components' variances plus the spread of their
        // means (the centred form, no cancellation).
        s.sd(i) = std::sqrt(sj.square().mean() + (m - s.mean(i)).square().mean());
        countPit(mixtureCdf(m.matrix(), sj.matrix(), y(i)), inside, s.pit);
    }
    s.nmll = nll / static_cast<double>(n);
    s.rmse = std::sqrt(sq / static_cast<double>(n));
    s.coverage95 = static_cast<double>(inside) / static_cast<double>(n);
    return s;
}

} // namespace fa
