#include "core/explorer/TrialBands.h"

#include <algorithm>
#include <limits>
#include <map>

namespace fa {

std::vector<AlgorithmBand> trialBands(const std::vector<FaSweepRow>& rows) {
    struct Values {
        std::vector<double> cov, w2;
    };
    std::vector<std::string> order;
    std::map<std::string, std::map<long, Values>> grouped;
    for (const auto& r : rows) {
        if (!grouped.contains(r.algorithm))
            order.push_back(r.algorithm);
        Values& v = grouped[r.algorithm][r.samples];
        const bool ok = r.status == "ok";
        v.cov.push_back(ok ? r.relCovDist : kNaN);
        v.w2.push_back(ok ? r.w2OverDim : kNaN);
    }
    std::vector<AlgorithmBand> bands;
    for (const auto& name : order) {
        AlgorithmBand band{name, {}};
        for (const auto& [samples, v] : grouped[name]) // std::map: ascending samples
            band.points.push_back({samples, meanStdErr(v.cov), meanStdErr(v.w2)});
        bands.push_back(std::move(band));
    }
    return bands;
}

std::vector<long> trialCheckpoints(long total) {
    std::vector<long> points;
    for (long decade = 10; decade <= total; decade *= 10)
        for (long m : {1L, 2L, 5L})
            if (m * decade < total)
                points.push_back(m * decade);
    points.push_back(total);
    return points;
}

FaSweepConfig trialsSweep(const ExplorerConfig& c, int trials) {
    FaSweepConfig s;
    s.generator = c.generator;
    s.checkpoints = trialCheckpoints(c.totalSamples);
    s.trials = trials;
    s.seed = c.seed;
    s.runBatch = c.runBatch;
    s.runEm = c.runEm;
    s.runSga = c.runSga;
    s.fitLatent = c.fitLatent;
    s.learningRate =
        c.learningRateChanges.empty() ? c.learningRate : c.learningRateChanges.back().second;
    s.warmup = c.warmup;
    return s;
}

} // namespace fa
