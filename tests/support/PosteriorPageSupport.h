#pragma once
// Shared by the posterior page suites: run a page to an epoch, and the posterior of the
// synthetic data the lab uses for seed 0, solved from scratch (normal equations).
#include "core/data/RegressionData.h"
#include "core/math/Rng.h"
#include "ui/posterior/PosteriorPage.h"

#include <QSignalSpy>

namespace fa::test {

inline bool runTo(PosteriorPage& page, long epoch) {
    QSignalSpy spy(&page, &LabPage::reached);
    page.runUntil(epoch);
    return spy.wait(30000);
}

struct Reference {
    fa::Vector mean;
    fa::Matrix cov;
};
/// The recipe's generator with the data stream of trial 0's seed
/// (core/posterior/PosteriorProblem.cpp).
inline Reference syntheticPosterior(int rows) {
    fa::SyntheticRecipe r;
    r.samples = rows;
    const fa::RegressionData d =
        fa::syntheticRegression(r, fa::deriveSeed(fa::deriveSeed(0, fa::SeedStream::FirstTrial),
                                                  fa::SeedStream::PosteriorData));
    fa::Matrix A = r.beta * d.X.transpose() * d.X + r.alpha * fa::Matrix::Identity(2, 2);
    const fa::Vector b = r.beta * d.X.transpose() * d.y;
    return {A.inverse() * b, A.inverse()};
}

} // namespace fa::test
