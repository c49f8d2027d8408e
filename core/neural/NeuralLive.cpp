#include "core/neural/NeuralLive.h"
#include "core/lab/Methods.h"
#include "core/neural/NeuralParams.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>

namespace fa {
namespace {
constexpr Eigen::Index kGridPoints = 201;
}

NeuralLive::NeuralLive(const NeuralLiveConfig& config, AbandonFlag abandon)
    : LiveRun(std::move(abandon)), m_config(config) {
    if (config.methods.empty() && config.iterateMethods.empty())
        throw std::invalid_argument("choose at least one method");
    checkRunLength(config.fit.epochs);
    checkParams(neuralLiveParams(), config);
    const RegressionData data = loadRegressionDataset(config.loader, config.dataset, config.target);
    m_split = splitRegression(data, config.trainFraction, config.seed, config.split);
    if (m_split.Xtest.rows() < 1)
        throw std::invalid_argument("the test part is empty: lower the training fraction");
    m_trainY = m_split.ytrain.array() * m_split.yScale + m_split.yMean;
    m_testY = m_split.ytest.array() * m_split.yScale + m_split.yMean;
    m_order.resize(static_cast<std::size_t>(m_testY.size()));
    std::iota(m_order.begin(), m_order.end(), Eigen::Index{0});
    std::sort(m_order.begin(), m_order.end(),
              [&](Eigen::Index a, Eigen::Index b) { return m_testY(a) < m_testY(b); });
    for (const NeuralMethod m : config.methods) {
        LiveFit& fit = m_fits.emplace_back();
        fit.id = neuralMethodName(m);
        fit.vifa = std::make_unique<NeuralFit>(
            m_split.Xtrain, m_split.ytrain, m, config.hyper, config.fit,
            deriveSeed(config.seed, SeedStream::NeuralLiveFitBase, static_cast<std::uint64_t>(m)));
        fit.vifa->abandonOn(abandonFlag());
    }
    for (const IterateMethod m : config.iterateMethods) {
        // As the CLI's protocol builds it (core/neural/NeuralProtocol.cpp), the window's
        // precisions in place of a search, and a run as long as the VIFA fits'.
        LiveFit& fit = m_fits.emplace_back();
        fit.id = iterateMethodName(m);
        fit.iterates = std::make_unique<IterateFit>(
            m_split.Xtrain, m_split.ytrain,
            iterateOptions(config.iterate, config.fit, m, config.hyper,
                           deriveSeed(config.seed, SeedStream::IterateLiveBase,
                                      static_cast<std::uint64_t>(m))));
        fit.iterates->abandonOn(abandonFlag());
    }
    if (m_split.Xtrain.cols() == 1) { // one input: a grid over the rows and a third beyond
        const double lo = std::min(m_split.Xtrain.minCoeff(), m_split.Xtest.minCoeff());
        const double hi = std::max(m_split.Xtrain.maxCoeff(), m_split.Xtest.maxCoeff());
        const double pad = (hi - lo) / 3.0;
        m_grid = Vector::LinSpaced(kGridPoints, lo - pad, hi + pad);
        m_gridX = m_grid.col(0).array() * m_split.xScale(0) + m_split.xMean(0);
    }
    watchTrajectory();
    record();
}

void NeuralLive::watchTrajectory() {
    for (const LiveFit& fit : m_fits) {
        if (!fit.iterates || !collectsIterates(fit.iterates->options().method) ||
            fit.iterates->network().dim() < 2)
            continue;
        IterateFit& watched = *fit.iterates;
        const Eigen::Index dim = watched.network().dim();
        m_trajectory = std::make_unique<IterateTrajectory>(dim, watched.options().rank,
                                                           IterateTrajectory::defaultCapacity(dim));
        m_watched = &fit;
        // Member 0's iterates from the SWA start on: those its fit is fed.
        watched.onIterate([this, &watched](int member, const Vector& theta) {
            if (member == 0 && watched.epoch() >= watched.options().swaStart)
                m_trajectory->observe(theta);
        });
        return;
    }
}

long NeuralLive::advance(long epochs) {
    epochs = std::min(epochs, static_cast<long>(m_config.fit.epochs) - m_epoch);
    for (long e = 0; e < epochs; ++e) {
        for (auto& fit : m_fits)
            if (!fit.diverged())
                fit.runEpoch();
        if (abandoned()) // the window closed mid-epoch: nothing more is shown
            return e;
        ++m_epoch;
        record();
    }
    return std::max(0L, epochs);
}

void NeuralLive::setLength(long length) {
    checkRunLength(length);
    m_config.fit.epochs = static_cast<int>(std::max(length, m_epoch));
    for (LiveFit& fit : m_fits) // the SGD-iterate runs go on as long (the VIFA fits have no end)
        if (fit.iterates)
            fit.iterates->setLength(m_config.fit.epochs);
}

std::shared_ptr<const LabSnapshot> NeuralLive::labSnapshot() const {
    auto s = std::make_shared<NeuralLiveSnapshot>(snapshot());
    s->position = s->epoch;
    s->length = length();
    char cell[96];
    for (const auto& m : s->methods)
        if (!m.curve.empty()) {
            std::snprintf(cell, sizeof cell, "%s: test NMLL %.2f, RMSE %.2f%s",
                          methodShortLabel(m.id, Lab::Neural).c_str(), m.curve.back().testNmll,
                          m.curve.back().testRmse, m.diverged ? " (diverged)" : "");
            s->status += (s->status.empty() ? "" : "   ") + std::string(cell);
        }
    return s;
}

void NeuralLive::record() {
    for (const LiveFit& fit : m_fits) {
        const std::string& method = fit.id;
        if (abandoned()) // the window closed: what the scoring would show is never shown
            return;
        if (fit.diverged())
            continue;
        const std::uint64_t seed = deriveSeed(m_config.seed, SeedStream::NeuralLiveCurveBase,
                                              static_cast<std::uint64_t>(m_epoch));
        // Cut between draws by the abandon flag (a large network's scoring takes seconds).
        const ScoringPoll poll{abandonFlag(), {}};
        const Predictive train = fit.evaluate(m_split.Xtrain, m_trainY, m_split.yMean,
                                              m_split.yScale, m_config.curveSamples, seed, poll);
        const Predictive test = fit.evaluate(m_split.Xtest, m_testY, m_split.yMean, m_split.yScale,
                                             m_config.curveSamples, seed, poll);
        if (m_grid.size() > 0) { // the targets are unknown there: only mean and sd are used
            m_lastGrid[method] = fit.evaluate(m_grid, Vector::Zero(m_grid.rows()), m_split.yMean,
                                              m_split.yScale, m_config.curveSamples, seed, poll);
        }
        if (abandoned())
            return;
        m_curves[method].push_back(
            {m_epoch, train.nmll, train.rmse, test.nmll, test.rmse, test.coverage95});
        m_lastTest[method] = test;
    }
    recordPlane();
}

void NeuralLive::recordPlane() {
    if (!m_watched || m_trajectory->collected() == 0 || m_watched->diverged())
        return; // a diverged fit keeps the last plane it had
    NeuralLiveSnapshot::Trajectory t;
    t.method = m_watched->id;
    FAModel q = m_watched->iterates->posterior().front();
    if (isPointMass(q)) { // the fitter's warm-up: SWAG's plane until it has a Gaussian
        q = m_trajectory->swag().model();
        t.planeOfSwag = true;
    }
    if (!q.c.allFinite() || !q.F.allFinite() || !q.psi.allFinite())
        return;
    t.plane = m_trajectory->plane(q);
    t.plane.directions.resize(0, 0);
    m_plane = std::move(t);
}

NeuralLiveSnapshot NeuralLive::snapshot() const {
    NeuralLiveSnapshot s;
    s.config = m_config;
    s.epoch = m_epoch;
    s.dataset = m_config.dataset;
    MlpShape shape;
    shape.inputs = static_cast<int>(m_split.Xtrain.cols());
    shape.hidden = m_config.fit.hidden;
    s.hidden = shape.name();
    s.parameters = shape.parameterCount();
    s.trainRows = m_split.Xtrain.rows();
    s.testRows = m_split.Xtest.rows();
    s.testTruth.resize(m_testY.size());
    for (std::size_t i = 0; i < m_order.size(); ++i)
        s.testTruth(static_cast<Eigen::Index>(i)) = m_testY(m_order[i]);
    for (const LiveFit& fit : m_fits) {
        NeuralLiveSnapshot::Method m;
        m.id = fit.id;
        m.diverged = fit.diverged();
        if (const auto it = m_lastTest.find(m.id); it != m_lastTest.end()) {
            m.mean.resize(m_testY.size());
            m.sd.resize(m_testY.size());
            for (std::size_t i = 0; i < m_order.size(); ++i) {
                m.mean(static_cast<Eigen::Index>(i)) = it->second.mean(m_order[i]);
                m.sd(static_cast<Eigen::Index>(i)) = it->second.sd(m_order[i]);
            }
        }
        if (const auto it = m_lastGrid.find(m.id); it != m_lastGrid.end())
            m.gridMean = it->second.mean, m.gridSd = it->second.sd;
        if (const auto it = m_curves.find(m.id); it != m_curves.end())
            m.curve = it->second;
        s.methods.push_back(std::move(m));
    }
    if (m_grid.size() > 0) {
        s.gridX = m_gridX;
        s.trainX = m_split.Xtrain.col(0).array() * m_split.xScale(0) + m_split.xMean(0);
        s.trainY = m_trainY;
        s.testX.resize(m_testY.size());
        for (std::size_t i = 0; i < m_order.size(); ++i)
            s.testX(static_cast<Eigen::Index>(i)) =
                m_split.Xtest(m_order[i], 0) * m_split.xScale(0) + m_split.xMean(0);
    }
    s.trajectory = m_plane;
    return s;
}

} // namespace fa
