#include "core/posterior/NetworkPrior.h"

#include "core/math/Rng.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fa {
namespace {

void checkPrior(const NetworkPrior& prior, int hidden) {
    if (prior.units != GpKernel::NnErf && prior.units != GpKernel::NnRelu)
        throw std::invalid_argument("a network prior's units are nn-erf or nn-relu");
    if (hidden < 1)
        throw std::invalid_argument("a network needs at least one hidden unit");
}

/// One random network's values at the rows of X (docs/maths/gp.md §7): b + sum_h v_h g(a_h).
Vector networkValues(const NetworkPrior& prior, int hidden, const ConstMatrixRef& X, Rng& rng) {
    const double vScale = prior.sigmaV / std::sqrt(static_cast<double>(hidden));
    Vector f = Vector::Constant(X.rows(), prior.sigmaB * rng.normal());
    Vector w(X.cols());
    for (int h = 0; h < hidden; ++h) {
        const double bias = prior.sigmaB0 * rng.normal();
        rng.fillNormal(w);
        w *= prior.sigmaW;
        const double v = vScale * rng.normal();
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            const double a = bias + X.row(i).dot(w);
            f(i) += v * (prior.units == GpKernel::NnErf ? std::erf(a) : std::max(a, 0.0));
        }
    }
    return f;
}

} // namespace

GpHyper networkKernel(const NetworkPrior& prior, double noiseSd) {
    GpHyper h{prior.units, Vector(5)};
    h.logParams << std::log(prior.sigmaB), std::log(prior.sigmaV), std::log(prior.sigmaB0),
        std::log(prior.sigmaW), std::log(noiseSd);
    return h;
}

Matrix drawNetworkFunctions(const NetworkPrior& prior, int hidden, const ConstMatrixRef& X,
                            int draws, std::uint64_t seed) {
    checkPrior(prior, hidden);
    if (draws < 1)
        throw std::invalid_argument("at least one draw");
    Rng rng(deriveSeed(seed, SeedStream::NetworkWeights));
    Matrix F(X.rows(), draws);
    for (int d = 0; d < draws; ++d)
        F.col(d) = networkValues(prior, hidden, X, rng);
    return F;
}

Matrix drawGpFunctions(const GpHyper& hyper, const ConstMatrixRef& X, int draws,
                       std::uint64_t seed) {
    if (draws < 1)
        throw std::invalid_argument("at least one draw");
    Matrix K = gpKernelMatrix(hyper, X, X);
    K.diagonal().array() += 1e-10 * K.diagonal().maxCoeff();
    const Eigen::LLT<Matrix> chol(K);
    if (chol.info() != Eigen::Success)
        throw std::invalid_argument("the kernel matrix has no Cholesky factor");
    Rng rng(deriveSeed(seed, SeedStream::GpPriorDraws));
    return chol.matrixL() * rng.normalMatrix(X.rows(), draws);
}

CovarianceCheck networkCovariance(const NetworkPrior& prior, int hidden, const ConstVectorRef& x1,
                                  const ConstVectorRef& x2, long draws, std::uint64_t seed) {
    checkPrior(prior, hidden);
    if (draws < 2 || x1.size() != x2.size())
        throw std::invalid_argument("at least two draws at two inputs of one dimension");
    Matrix X(2, x1.size());
    X.row(0) = x1.transpose();
    X.row(1) = x2.transpose();
    Rng rng(deriveSeed(seed, SeedStream::NetworkWeights));
    double sum = 0.0, sumSq = 0.0, m2 = 0.0, m4 = 0.0;
    for (long d = 0; d < draws; ++d) {
        const Vector f = networkValues(prior, hidden, X, rng);
        const double p = f(0) * f(1);
        sum += p;
        sumSq += p * p;
        m2 += f(0) * f(0);
        m4 += f(0) * f(0) * f(0) * f(0);
    }
    const double n = static_cast<double>(draws);
    CovarianceCheck c;
    c.hidden = hidden;
    c.draws = draws;
    c.empirical = sum / n;
    c.stdErr = std::sqrt(std::max(0.0, (sumSq / n - c.empirical * c.empirical) / (n - 1.0)));
    c.kernel = gpKernelMatrix(networkKernel(prior), X.topRows(1), X.bottomRows(1))(0, 0);
    c.excessKurtosis = (m4 / n) / ((m2 / n) * (m2 / n)) - 3.0;
    return c;
}

} // namespace fa
