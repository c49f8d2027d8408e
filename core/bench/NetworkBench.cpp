#include "core/bench/NetworkBench.h"

#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/neural/MlpLikelihood.h"
#include "core/vi/MapSgd.h"
#include "core/vi/SgdTrainer.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

namespace fa {
namespace {

using Clock = std::chrono::steady_clock;

double micros(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::micro>(to - from).count();
}

double median(std::vector<double> v) {
    if (v.empty())
        return 0.0;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

/// The fitter a row names, built for D weights.
std::unique_ptr<StreamFit> makeFitter(const std::string& name, Eigen::Index dim, int rank,
                                      std::uint64_t seed) {
    if (name == "swag")
        return std::make_unique<SwagEstimator>(dim, rank);
    OnlineOptions o;
    o.latent = rank;
    o.warmup = 0; // every update an M step: the steady cost, not the warm-up's
    o.initSeed = seed;
    if (name == "sga")
        return std::make_unique<OnlineSGA>(dim, o);
    return std::make_unique<OnlineEM>(dim, o);
}

} // namespace

std::vector<BenchRow> runNetworkBench(const NetworkBenchConfig& config,
                                      const std::function<void(const BenchRow&)>& onRow) {
    if (!config.loader)
        throw std::invalid_argument("no data loader for the data set '" + config.dataset + "'");
    if (config.rank < 1 || config.batch < 1 || config.epochs < 1 || config.hidden.empty())
        throw std::invalid_argument("rank, batch, epochs and the hidden layers must be positive");
    PrepareOptions prep;
    prep.bias = false; // the network has its own
    const RegressionProblem p = prepareRegression(config.loader(config.dataset, ""), prep);
    MlpShape shape;
    shape.inputs = static_cast<int>(p.Xtrain.cols());
    shape.hidden = config.hidden;
    const MlpLikelihood net(p.Xtrain, p.ytrain, shape, 10.0);
    const Eigen::Index d = net.dim();
    const int D = static_cast<int>(d), K = config.rank;
    std::vector<BenchRow> rows;
    const auto add = [&](BenchRow r) {
        if (onRow)
            onRow(r);
        rows.push_back(std::move(r));
    };
    add({"network", "weights/" + config.dataset, D, K, static_cast<double>(d), "count"});
    double sgdStep = 0.0;
    for (const std::string name : {"", "em", "sga", "swag"}) {
        // One SGD run per fitter from the same start and batch order; its steps are timed
        // without the fitter, and the fitter's update on each iterate on its own.
        MapSgdOptions o;
        o.learningRate = 1e-3;
        o.batch = config.batch;
        o.seed = config.seed;
        MapSgd sgd(net, MlpLikelihood::initialWeights(shape, config.seed), o);
        const std::unique_ptr<StreamFit> fit =
            name.empty() ? nullptr : makeFitter(name, d, K, config.seed);
        std::vector<double> steps, updates;
        Clock::time_point last = Clock::now();
        for (int e = 0; e < config.epochs; ++e)
            sgd.runEpoch([&](const Vector& theta) {
                const Clock::time_point stepped = Clock::now();
                steps.push_back(micros(last, stepped));
                if (fit) {
                    fit->observe(theta);
                    updates.push_back(micros(stepped, Clock::now()));
                }
                last = Clock::now();
            });
        if (name.empty()) {
            sgdStep = median(steps);
            add({"network", "sgd_step/" + config.dataset, D, K, sgdStep, "us"});
            add({"network", "rss/sgd", D, K, peakRssMiB(), "MiB"});
            continue;
        }
        const double update = median(updates);
        add({"network", name + "_update/" + config.dataset, D, K, update, "us"});
        add({"network", name + "_update_per_sgd_step", D, K, update / sgdStep, "ratio"});
        add({"network", "rss/" + name, D, K, peakRssMiB(), "MiB"});
    }
    return rows;
}

} // namespace fa
