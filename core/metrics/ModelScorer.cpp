#include "core/metrics/ModelScorer.h"

#include "core/metrics/DenseMetrics.h"
#include "core/metrics/StructuredMetrics.h"

namespace fa {

ModelScorer::ModelScorer(const FAModel& truth, bool dense) : m_truth(truth), m_dense(dense) {
    if (dense) {
        m_cov = truth.denseCovariance();
        m_w2 = std::make_unique<DenseW2>(truth.c, m_cov);
    }
}

ModelScorer::~ModelScorer() = default;

Scores ModelScorer::score(const FAModel& estimate) const {
    Scores s{};
    s.relMeanDist = relativeMeanDistance(estimate.c, m_truth.c);
    if (m_dense) {
        const Matrix cov = estimate.denseCovariance();
        s.relCovDist = relativeCovarianceDistance(cov, m_cov);
        s.w2 = m_w2->distance(estimate.c, cov);
    } else {
        s.relCovDist = structuredRelativeCovarianceDistance(estimate, m_truth);
        s.w2 = structuredW2(estimate, m_truth);
    }
    s.w2OverDim = s.w2 / static_cast<double>(m_truth.dim());
    return s;
}

} // namespace fa
