#include "core/bench/Benchmark.h"

#include "core/bench/HostInfo.h"

#include "core/explorer/FaSweep.h"
#include "core/fa/BatchFA.h"
#include "core/fa/ModelGenerator.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/fa/SampledFeed.h"
#include "core/metrics/DenseMetrics.h"
#include "core/metrics/StructuredMetrics.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <sys/resource.h>
#include <vector>

namespace fa {
namespace {
/// From this D on, bench measures the triad over a working set as large as the fitter's.
constexpr int kBoundMinDim = 100000;
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Observations per second, sampling included, over at least minSeconds and 200 observations.
/// A fitter whose pass is split draws each next observation beside the pass
/// (core/fa/SampledFeed.h). `whole` times a fresh fitter, its warm-up included; `steady`, if
/// asked for, the same fitter fed as long again once past its warm-up (the bound's 24 D K bytes
/// are a pass after it: online EM's warm-up pass also reads the initial frame, 32 D K bytes).
struct Rates {
    double whole = 0.0, steady = 0.0;
};
Rates throughput(OnlineFitter& fitter, const FAModel& model, std::uint64_t seed, double minSeconds,
                 bool steady = false) {
    SampledFeed feed(model);
    Rng rng(seed);
    const auto timed = [&](long atLeast) {
        long n = 0;
        const auto t0 = Clock::now();
        double elapsed = 0.0;
        while (elapsed < minSeconds || n < atLeast) {
            feed.feed(fitter, rng, 16);
            n += 16;
            elapsed = since(t0);
        }
        return static_cast<double>(n) / elapsed;
    };
    Rates r;
    r.whole = timed(200); // past the default warm-up of 100 observations (OnlineOptions)
    if (steady)
        r.steady = timed(200);
    return r;
}

/// Draws per second of the true model's sampler alone: the part of an observation the fitters'
/// rates include that is not the fitter's pass.
double samplerThroughput(const FAModel& model, double minSeconds) {
    FASampler sampler(model);
    Rng rng(1);
    Vector x(model.dim());
    long n = 0;
    const auto t0 = Clock::now();
    while (since(t0) < minSeconds || n < 200)
        for (int i = 0; i < 16; ++i, ++n)
            sampler.draw(rng, x);
    return static_cast<double>(n) / since(t0);
}

/// Calibration: online EM written the straightforward way (temporaries every step, explicit
/// inverses), the "for scale" baseline of the issue. Measured in the same run as the real
/// fitters, the ratio stays meaningful on a machine whose speed drifts.
double naiveEmThroughput(const FAModel& model, int K, double minSeconds) {
    const Eigen::Index D = model.dim();
    FASampler sampler(model);
    Rng rng(1), init(0);
    Matrix F = randomOrthonormalFrame(D, K, init), A = Matrix::Zero(D, K), B = Matrix::Zero(K, K);
    Vector psi = Vector::Ones(D), mean = Vector::Zero(D), d2 = Vector::Zero(D), x(D);
    long n = 0;
    const auto t0 = Clock::now();
    double elapsed = 0.0;
    while (elapsed < minSeconds || n < 200) {
        for (int i = 0; i < 16; ++i) {
            sampler.draw(rng, x);
            ++n;
            mean += (x - mean) / static_cast<double>(n);
            const Vector d = x - mean;
            const Matrix C = (F.array().colwise() / psi.array()).matrix().transpose();
            const Matrix Sigma = (Matrix::Identity(K, K) + C * F).inverse();
            const Vector m = Sigma * C * d;
            B += (m * m.transpose() - B) / static_cast<double>(n);
            A += (d * m.transpose() - A) / static_cast<double>(n);
            d2 += (d.cwiseProduct(d) - d2) / static_cast<double>(n);
            if (n > 100) {
                const Matrix H = Sigma + B;
                F = A * H.inverse();
                psi = (d2 + ((F * H).cwiseProduct(F) - 2.0 * F.cwiseProduct(A)).rowwise().sum())
                          .cwiseMax(1e-8);
            }
        }
        elapsed = since(t0);
    }
    return static_cast<double>(n) / elapsed;
}

/// The one-thread fitters' rates (Rates), handed to the bound's rows.
struct OneThreadRates {
    Rates em, sga;
};

template <class F> double timeOnce(F&& f) {
    const auto t0 = Clock::now();
    f();
    return since(t0);
}
} // namespace

double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

void validate(const BenchConfig& config) {
    if (config.dims.empty())
        throw std::invalid_argument("at least one dimension is needed");
    for (const int d : config.dims)
        if (config.latent < 1 || config.latent >= d)
            throw std::invalid_argument("latent K must satisfy 1 <= K < D for every D");
    if (!(config.minSeconds > 0.0))
        throw std::invalid_argument("minimum seconds must be positive");
}

/// The host (docs/benchmarks.md): a text cell in the unit column, the figure in value; and for
/// reference the triad over a working set that stays in cache (3 x 8 MB).
template <class Add> void addHostRows(const Add& add, double minSeconds) {
    const HostInfo host = hostInfo();
    add("host", "cpu_model", 0, 0.0, host.cpuModel.c_str());
    // Machines of one model name differ (AMD EPYC of family 25 and 26): family, then model.
    const std::string model = "model " + std::to_string(host.cpuModelNumber);
    add("host", "cpu_family", 0, host.cpuFamily, model.c_str());
    add("host", "cores", 0, host.cores, "threads");
    add("host", "vector_bits_build", 0, host.buildVectorBits, "bits");
    add("host", "vector_bits_stream_pass", 0, host.streamPassBits, "bits");
    add("host", "vector_bits_normals", 0, host.normalVectorBits, host.normalPath.c_str());
    add("bandwidth", "triad_in_cache", 0, triadBandwidth(1'000'000, minSeconds), "GB/s");
    add("bandwidth", "triad_in_cache_2threads", 0, triadBandwidth(1'000'000, minSeconds, 2),
        "GB/s");
}

/// The bandwidth bound at D (docs/benchmarks.md): an observation must at least read the true F
/// (sampling) and read and write the fitter's D x K state, 24 D K bytes; the triad over three
/// D x K arrays moves the same bytes over a working set of that size. Each rate against the
/// bound of one thread and of two (both cores streaming), and the fitters again with their pass
/// split over two threads (OnlineFitter::setPassThreads, docs/threads.md), each next
/// observation drawn beside the pass on its second thread (core/fa/SampledFeed.h).
template <class Add>
void addBoundRows(const Add& add, const FAModel& truth, const BenchConfig& config,
                  const OneThreadRates& rates) {
    const double emRate = rates.em.whole, sgaRate = rates.sga.whole;
    const int D = static_cast<int>(truth.dim());
    const double bytes = 24.0 * D * config.latent;
    const long words = static_cast<long>(D) * config.latent;
    const double gbs = triadBandwidth(words, config.minSeconds);
    add("bandwidth", "triad", D, gbs, "GB/s");
    add("bound", "triad_obs_per_s", D, gbs * 1e9 / bytes, "obs/s");
    add("bound", "em_fraction", D, emRate * bytes / (gbs * 1e9), "of bound");
    add("bound", "sga_fraction", D, sgaRate * bytes / (gbs * 1e9), "of bound");
    const double gbs2 = triadBandwidth(words, config.minSeconds, 2);
    add("bandwidth", "triad_2threads", D, gbs2, "GB/s");
    add("bound", "triad_obs_per_s_2threads", D, gbs2 * 1e9 / bytes, "obs/s");
    add("bound", "em_fraction_2threads", D, emRate * bytes / (gbs2 * 1e9), "of bound");
    add("bound", "sga_fraction_2threads", D, sgaRate * bytes / (gbs2 * 1e9), "of bound");
    add("throughput", "sampler_only", D, samplerThroughput(truth, config.minSeconds), "obs/s");
    OnlineOptions opts;
    opts.latent = config.latent;
    OnlineEM em(D, opts);
    em.setPassThreads(2);
    const Rates em2 = throughput(em, truth, 1, config.minSeconds, true);
    add("throughput", "em_2threads", D, em2.whole, "obs/s");
    add("bound", "em_2threads_fraction_2threads", D, em2.whole * bytes / (gbs2 * 1e9), "of bound");
    OnlineSGA sga(D, opts);
    sga.setPassThreads(2);
    const Rates sga2 = throughput(sga, truth, 1, config.minSeconds, true);
    add("throughput", "sga_2threads", D, sga2.whole, "obs/s");
    add("bound", "sga_2threads_fraction_2threads", D, sga2.whole * bytes / (gbs2 * 1e9),
        "of bound");
    // Past the warm-up (the same fitters fed on; see Rates): one thread, then the split pass.
    add("bound", "em_after_warmup_fraction", D, rates.em.steady * bytes / (gbs * 1e9), "of bound");
    add("bound", "sga_after_warmup_fraction", D, rates.sga.steady * bytes / (gbs * 1e9),
        "of bound");
    add("throughput", "em_2threads_after_warmup", D, em2.steady, "obs/s");
    add("bound", "em_2threads_after_warmup_fraction_2threads", D, em2.steady * bytes / (gbs2 * 1e9),
        "of bound");
    add("throughput", "sga_2threads_after_warmup", D, sga2.steady, "obs/s");
    add("bound", "sga_2threads_after_warmup_fraction_2threads", D,
        sga2.steady * bytes / (gbs2 * 1e9), "of bound");
}

std::vector<BenchRow> runBench(const BenchConfig& config,
                               const std::function<void(const BenchRow&)>& onRow) {
    validate(config);
    std::vector<BenchRow> rows;
    auto add = [&](const char* kind, const char* name, int dim, double value, const char* unit) {
        rows.push_back({kind, name, dim, config.latent, value, unit});
        if (onRow)
            onRow(rows.back());
    };
    addHostRows(add, config.minSeconds);
    for (const int D : config.dims) {
        GeneratorSpec spec;
        spec.dim = D;
        spec.latent = config.latent;
        spec.kind = GeneratorKind::Haar;
        const FAModel truth =
            generateModel(spec, deriveSeed(config.seed, static_cast<std::uint64_t>(D)));
        OnlineOptions opts;
        opts.latent = config.latent;
        {
            const bool bound = D >= kBoundMinDim;
            OneThreadRates rates;
            OnlineEM em(D, opts);
            rates.em = throughput(em, truth, 1, config.minSeconds, bound);
            add("throughput", "em", D, rates.em.whole, "obs/s");
            OnlineSGA sga(D, opts);
            rates.sga = throughput(sga, truth, 1, config.minSeconds, bound);
            add("throughput", "sga", D, rates.sga.whole, "obs/s");
            if (bound) {
                add("throughput", "em_after_warmup", D, rates.em.steady, "obs/s");
                add("throughput", "sga_after_warmup", D, rates.sga.steady, "obs/s");
            }
            if (D <= 10000)
                add("throughput", "em_naive_reference", D,
                    naiveEmThroughput(truth, config.latent, config.minSeconds), "obs/s");
            if (bound)
                addBoundRows(add, truth, config, rates);
        }
        // An estimate to score: online EM after a short run, as the sweep would score it.
        OnlineEM em(D, opts);
        FASampler sampler(truth);
        Rng rng(2);
        Vector x(D);
        for (int i = 0; i < 300; ++i) {
            sampler.draw(rng, x);
            em.observe(x);
        }
        const FAModel estimate = em.snapshot().model;
        if (D <= kDenseMetricsMaxDim) {
            Matrix X(D, config.batchSamples);
            for (Eigen::Index j = 0; j < X.cols(); ++j)
                sampler.draw(rng, X.col(j));
            BatchFAOptions bo;
            bo.latent = config.latent;
            add("fit", "batch", D, timeOnce([&] { fitBatchFA(X, bo); }), "s");

            const Matrix trueCov = truth.denseCovariance();
            std::unique_ptr<DenseW2> ref;
            add("metric", "w2_dense_setup", D,
                timeOnce([&] { ref = std::make_unique<DenseW2>(truth.c, trueCov); }), "s");
            add("metric", "w2_dense", D,
                timeOnce([&] { ref->distance(estimate.c, estimate.denseCovariance()); }), "s");
            add("metric", "rel_cov_dense", D,
                timeOnce([&] { relativeCovarianceDistance(estimate.denseCovariance(), trueCov); }),
                "s");
        }
        add("metric", "w2_structured", D, timeOnce([&] { structuredW2(estimate, truth); }), "s");
        add("metric", "rel_cov_structured", D,
            timeOnce([&] { structuredRelativeCovarianceDistance(estimate, truth); }), "s");
        add("memory", "peak_rss_so_far", D, peakRssMiB(), "MiB");
    }
    return rows;
}

} // namespace fa
