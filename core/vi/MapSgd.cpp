#include "core/vi/MapSgd.h"

#include "core/optim/SgdEpoch.h"

#include <cmath>
#include <numeric>
#include <span>
#include <stdexcept>

namespace fa {

MapSgd::MapSgd(const Likelihood& likelihood, Vector start, const MapSgdOptions& options)
    : SgdRun(likelihood.size(), options.seed, std::move(start)), m_likelihood(likelihood),
      m_options(options) {
    if (m_theta.size() != likelihood.dim())
        throw std::invalid_argument("MAP SGD: the start has the wrong number of parameters");
    if (options.batch < 1 || !(options.learningRate > 0.0) ||
        !std::isfinite(options.learningRate) || !(options.priorPrecision >= 0.0))
        throw std::invalid_argument(
            "MAP SGD needs a batch of at least 1, a positive rate and a precision >= 0");
    m_grad.resize(m_theta.size());
}

void MapSgd::runEpoch(const std::function<void(const Vector&)>& onIterate) {
    const double decay = m_options.priorPrecision / static_cast<double>(rowCount());
    runSgdEpoch(
        m_options.batch,
        [&](std::span<const Eigen::Index> rows) -> const Vector& {
            m_likelihood.meanNegLogLik(m_theta, rows, m_grad);
            m_grad.noalias() += decay * m_theta;
            m_theta.noalias() -= m_options.learningRate * m_grad;
            return m_theta;
        },
        onIterate);
}

} // namespace fa
