#pragma once
// Batch EM run to convergence: the point fit the Gibbs suites compare posterior means with.
#include "core/latent/FaBatchEm.h"

namespace fa::test {

/// FA batch EM on rows (one observation per row) under prior, until converged or 3000 iterations.
inline FaBatchEm convergedEm(const Matrix& rows, int latent, FaPrior prior = FaPrior::None) {
    FaEmOptions options;
    options.latent = latent;
    options.prior = prior;
    FaBatchEm em(rows, options);
    for (int t = 0; t < 3000 && !em.converged(); ++t)
        em.iterate();
    return em;
}

} // namespace fa::test
