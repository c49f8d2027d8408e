#include "core/posterior/PosteriorLab.h"

#include "core/math/Rng.h"

#include <cmath>
#include <stdexcept>

// The posterior lab's problems: data loaded or generated, alpha and beta, the exact posterior in
// closed form or on a grid (docs/maths/posterior.md §5).
namespace fa {
namespace {

constexpr int kGridCells = 400;

// The MAP of logistic regression by Newton's method and the Laplace approximation's covariance
// there: the grid's first box.
GaussianPosterior logisticLaplace(const Matrix& X, const Vector& y, double alpha) {
    Vector w = Vector::Zero(X.cols());
    Matrix H(X.cols(), X.cols());
    for (int it = 0; it < 100; ++it) {
        Vector g = -alpha * w;
        H = alpha * Matrix::Identity(X.cols(), X.cols());
        for (Eigen::Index n = 0; n < X.rows(); ++n) {
            const double p = std::exp(logSigmoid(X.row(n).dot(w)));
            g += (y(n) - p) * X.row(n).transpose();
            H += p * (1.0 - p) * X.row(n).transpose() * X.row(n);
        }
        const Vector step = H.llt().solve(g);
        w += step;
        if (step.norm() < 1e-12 * (1.0 + w.norm()))
            break;
    }
    return {w, H.inverse()};
}

GaussianPosterior momentsOf(const GridPosterior& g) {
    return {g.mean, g.cov};
}

/// The setup's data: generated, synthetic, or loaded.
RegressionData rawData(const PosteriorSetup& setup, std::uint64_t dataSeed,
                       const std::optional<GeneratedTarget>& generated, bool synthetic) {
    if (synthetic && !setup.target.empty())
        throw std::invalid_argument(
            "the generated data sets have no columns; a target column can be chosen for a CSV "
            "file only");
    if (generated)
        return generated->data;
    if (synthetic)
        return syntheticRegression(setup.synthetic,
                                   deriveSeed(dataSeed, SeedStream::PosteriorData));
    if (setup.loader)
        return setup.loader(setup.dataset, setup.target);
    throw std::invalid_argument("no data loader for the data set '" + setup.dataset + "'");
}

/// How the data are prepared: standardised, a bias column and a split for a loaded data set.
PrepareOptions prepareOptions(const PosteriorSetup& setup, std::uint64_t dataSeed, bool generated,
                              bool synthetic) {
    PrepareOptions prep;
    prep.standardise = !synthetic;
    prep.bias = setup.bias.value_or(!synthetic);
    prep.trainFraction = setup.trainFraction > 0.0 ? setup.trainFraction : (synthetic ? 1.0 : 0.5);
    prep.splitSeed = deriveSeed(dataSeed, SeedStream::PosteriorData);
    if (generated && (prep.bias || prep.trainFraction < 1.0))
        throw std::invalid_argument(setup.dataset +
                                    ": a generated target keeps its two parameters and every "
                                    "row (no bias column, no split)");
    return prep;
}

/// Sets p's hyperparameter mode and alpha and beta (chosen, the thesis' or the evidence's).
void setHyperparameters(PosteriorProblem& p, const PosteriorSetup& setup,
                        const std::optional<GeneratedTarget>& generated, bool synthetic) {
    p.hyperMode = setup.hyper.value_or(synthetic ? HyperMode::Manual : HyperMode::Evidence);
    if (generated && p.hyperMode != HyperMode::Manual)
        throw std::invalid_argument(setup.dataset +
                                    ": a generated target takes alpha and beta as given (manual "
                                    "hyperparameters)");
    switch (p.hyperMode) {
    case HyperMode::Thesis:
        p.hyper = thesisHyperparameters(p.data.Xtrain, p.data.ytrain);
        break;
    case HyperMode::Evidence:
        p.hyper = evidenceHyperparameters(p.data.Xtrain, p.data.ytrain).hyper;
        break;
    case HyperMode::Manual:
        p.hyper = setup.hyper ? Hyperparameters{setup.alpha, setup.beta}
                  : generated ? generated->hyper
                              : Hyperparameters{setup.synthetic.alpha, setup.synthetic.beta};
        for (const double h : {p.hyper.alpha, p.hyper.beta})
            if (!(h >= kPrecisionMin && h <= kPrecisionMax))
                throw std::invalid_argument("alpha and beta must lie within [1e-08, 1e+08]");
        break;
    }
}

/// Sets p's exact posterior: in closed form, or on a grid, and with the Laplace prior at D = 2.
void setExactPosteriors(PosteriorProblem& p) {
    const Matrix& X = p.data.Xtrain;
    const Vector& y = p.data.ytrain;
    // The first box of every grid: 8 sd of a Gaussian guess (docs/maths/posterior.md §5.5),
    // enlarged until the outer ring holds < 1e-10 of the mass; the bimodal target's box covers both
    // modes.
    GridBox box;
    switch (p.target) {
    case TargetKind::Linear: // closed form; a grid (below) only for the Laplace prior at D = 2
        p.exact = exactPosterior(X, y, p.hyper);
        break;
    case TargetKind::Logistic: {
        const GaussianPosterior laplace = logisticLaplace(X, y, p.hyper.alpha);
        box = boxAround(laplace.mean, laplace.cov, 8.0, kGridCells);
        break;
    }
    case TargetKind::Bilinear:
        box = {{-7.0, -7.0}, {7.0, 7.0}, kGridCells};
        break;
    }
    if (p.target != TargetKind::Linear) {
        p.grid = adaptiveGridPosterior(
            logJoint2(p.target, X, y, p.hyper.beta, PriorKind::Gaussian, p.hyper.alpha), box);
        p.exact = momentsOf(*p.grid);
    }
    if (p.dim() == 2) {
        p.gridLaplace = adaptiveGridPosterior(
            logJoint2(p.target, X, y, p.hyper.beta, PriorKind::Laplace, p.hyper.alpha),
            p.target == TargetKind::Bilinear
                ? box
                : boxAround(p.exact.mean, p.exact.cov, 8.0, kGridCells));
        p.exactLaplace = momentsOf(*p.gridLaplace);
    }
}

} // namespace

std::optional<GeneratedTarget> generatedTarget(const std::string& dataset, std::uint64_t seed) {
    Rng rng(seed);
    GeneratedTarget t;
    if (dataset == "logistic-synthetic") {
        t.kind = TargetKind::Logistic;
        t.hyper = {1.0, 1.0};
        t.data.X.resize(60, 2);
        t.data.y.resize(60);
        const Eigen::Vector2d truth(1.5, -1.0);
        for (Eigen::Index n = 0; n < 60; ++n) {
            t.data.X(n, 0) = rng.normal();
            t.data.X(n, 1) = rng.normal();
            t.data.y(n) = rng.uniform() < std::exp(logSigmoid(t.data.X.row(n).dot(truth))) ? 1 : 0;
        }
        t.data.inputNames = {"x1", "x2"};
    } else if (dataset == "bimodal-synthetic") {
        t.kind = TargetKind::Bilinear;
        t.hyper = {1.0, 4.0};
        t.data.X.resize(20, 1);
        t.data.y.resize(20);
        for (Eigen::Index n = 0; n < 20; ++n) {
            t.data.X(n, 0) = rng.normal();
            t.data.y(n) = t.data.X(n, 0) + rng.normal() / std::sqrt(t.hyper.beta);
        }
        t.data.inputNames = {"x"};
    } else {
        return std::nullopt;
    }
    t.data.targetName.assign(1, 'y'); // not = "y": GCC 12 warns falsely (-Wrestrict)
    t.data.name = dataset;
    return t;
}

const GaussianPosterior& PosteriorProblem::exactFor(PosteriorMethod method) const {
    return methodPrior(method) == PriorKind::Laplace && exactLaplace ? *exactLaplace : exact;
}

const GridPosterior* PosteriorProblem::gridFor(PosteriorMethod method) const {
    const auto& g = methodPrior(method) == PriorKind::Laplace ? gridLaplace : grid;
    return g ? &*g : nullptr;
}

PosteriorProblem preparePosteriorProblem(const PosteriorSetup& setup, std::uint64_t dataSeed) {
    const auto generated =
        generatedTarget(setup.dataset, deriveSeed(dataSeed, SeedStream::PosteriorData));
    const bool synthetic = setup.dataset == "synthetic" || generated;
    const RegressionData raw = rawData(setup, dataSeed, generated, synthetic);
    const PrepareOptions prep = prepareOptions(setup, dataSeed, generated.has_value(), synthetic);

    PosteriorProblem p;
    p.dataset = synthetic ? setup.dataset : raw.name;
    for (char& ch : p.dataset)
        if (ch == ',' || ch == '"' || ch == '\n')
            ch = '_'; // the name becomes a CSV cell
    p.target = generated ? generated->kind : TargetKind::Linear;
    p.data = prepareRegression(raw, prep);
    if (p.target == TargetKind::Bilinear)
        p.data.parameterNames = {"w1", "w2"};
    if (p.dim() < 2)
        throw std::invalid_argument(
            "the posterior needs at least two parameters (an input and a bias, or two inputs)");
    setHyperparameters(p, setup, generated, synthetic);
    setExactPosteriors(p);
    return p;
}

} // namespace fa
