#pragma once
// Scores estimated FA models against a fixed true model, dense for small D (caching the true
// covariance and its square root) and structured above.
#include "core/fa/FAModel.h"

#include <memory>

namespace fa {

class DenseW2;

struct Scores {
    double relCovDist, w2, w2OverDim, relMeanDist;
};

class ModelScorer {
  public:
    ModelScorer(const FAModel& truth, bool dense);
    ~ModelScorer();
    Scores score(const FAModel& estimate) const;

  private:
    FAModel m_truth;
    bool m_dense;
    Matrix m_cov;
    std::unique_ptr<DenseW2> m_w2;
};

} // namespace fa
