#include "core/vi/MapSgd.h"

#include "core/optim/SgdEpoch.h"

#include <cmath>
#include <numeric>
#include <span>
#include <stdexcept>

namespace fa {

MapSgd::MapSgd(const Likelihood& likelihood, Vector start, const MapSgdOptions& options)
    : m_likelihood(likelihood), m_options(options), m_rng(options.seed), m_theta(std::move(start)) {
    if (m_theta.size() != likelihood.dim())
        throw std::invalid_argument("MAP SGD: the start has the wrong number of parameters");
    if (options.batch < 1 || !(options.learningRate > 0.0) ||
        !std::isfinite(options.learningRate) || !(options.priorPrecision >= 0.0))
        throw std::invalid_argument(
            "MAP SGD needs a batch of at least 1, a positive rate and a precision >= 0");
    m_grad.resize(m_theta.size());
    m_order.resize(static_cast<std::size_t>(likelihood.size()));
    std::iota(m_order.begin(), m_order.end(), Eigen::Index{0});
}

void MapSgd::runEpoch(const std::function<void(const Vector&)>& onIterate) {
    if (m_diverged)
        return;
    const double decay = m_options.priorPrecision / static_cast<double>(m_order.size());
    m_diverged = sgdEpoch(
        m_order, m_rng, m_options.batch,
        [&](std::span<const Eigen::Index> rows) -> const Vector& {
            m_likelihood.meanNegLogLik(m_theta, rows, m_grad);
            m_grad.noalias() += decay * m_theta;
            m_theta.noalias() -= m_options.learningRate * m_grad;
            return m_theta;
        },
        [this] { return abandoned(); }, onIterate);
    ++m_epoch;
}

} // namespace fa
