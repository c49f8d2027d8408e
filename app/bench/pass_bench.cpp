// faexplorer-pass-bench: online EM's and SGA's pass on one thread against the same pass split
// over its rows on N threads (core/fa/PassThreads.h), in the same run (docs/threads.md). A few
// observations of a generated model are drawn first and fed again and again, so the figures are
// the fitter's alone, without the sampler. The two fitters take turns, round by round, and
// their numbers are compared at the end (they saw the same observations).
#include "app/cli/ArgParser.h"
#include "core/fa/ModelGenerator.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace fa;

namespace {

// Observations drawn once and fed in turn: more than K of them, so the fits stay well posed
// and the two fitters' numbers can be compared at the end.
constexpr int kDrawn = 32;

std::string loadAverage() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a.empty() ? "?" : a + " " + b + " " + c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double relMax(const Matrix& a, const Matrix& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

struct Settings {
    int latent = 10, threads = 2, rounds = 5, obs = 20;
    long minRows = 0, blockRows = stream::kSumBlockRows;
};

/// Seconds to feed `n` observations (cycling through X) to the fitter, from observation `next`.
double feedTimed(OnlineFitter& f, const Matrix& X, int n, long& next) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int j = 0; j < n; ++j, ++next)
        f.observe(X.col(next % X.cols()));
    (void)f.status(); // the last pending M step belongs to this round
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Fitter> void measure(const char* name, const Matrix& X, const Settings& s) {
    const auto D = X.rows();
    OnlineOptions o;
    o.latent = s.latent;
    o.warmup = 100; // fa-sweep's; the rounds time the full pass (M step and E step)
    o.initSeed = 3;
    Fitter one(D, o), split(D, o);
    one.setPassThreads(1, s.minRows, s.blockRows);
    split.setPassThreads(s.threads, s.minRows, s.blockRows); // by default below the threshold too
    long nextOne = 0, nextSplit = 0;
    feedTimed(one, X, static_cast<int>(o.warmup) + 1, nextOne);
    feedTimed(split, X, static_cast<int>(o.warmup) + 1, nextSplit);
    std::vector<double> rateOne, rateSplit, ratio;
    for (int r = 0; r < s.rounds; ++r) {
        // Alternate which goes first, so neither always follows the other's cache state.
        double t1 = 0.0, tn = 0.0;
        if (r % 2 == 0) {
            t1 = feedTimed(one, X, s.obs, nextOne);
            tn = feedTimed(split, X, s.obs, nextSplit);
        } else {
            tn = feedTimed(split, X, s.obs, nextSplit);
            t1 = feedTimed(one, X, s.obs, nextOne);
        }
        rateOne.push_back(s.obs / t1);
        rateSplit.push_back(s.obs / tn);
        ratio.push_back(t1 / tn);
    }
    const FAModel a = one.model(), b = split.model();
    const double agree = std::max({relMax(b.F, a.F), relMax(b.psi, a.psi), relMax(b.c, a.c)});
    std::printf("%8ld  %-3s  %6d  %12.1f  %12.1f  %6.2f  %9.1e  %s\n", static_cast<long>(D), name,
                split.passParts(), median(rateOne), median(rateSplit), median(ratio), agree,
                split.diverged() ? "diverged" : "ok");
    std::fflush(stdout);
}

int run(int argc, char** argv) {
    const cli::ArgParser args(
        argc, argv, 1,
        {"dim", "dims", "latent", "threads", "rounds", "obs", "algorithms", "min-rows", "block"});
    Settings s;
    s.latent = args.integerIn("latent", 10, 1, 100);
    s.threads = args.integerIn("threads", 2, 1, 64);
    s.rounds = args.integerIn("rounds", 5, 1, 1000);
    s.obs = args.integerIn("obs", 20, 1, 100000);
    s.minRows = args.integerIn("min-rows", 0, 0, 100000000);
    s.blockRows = args.integerIn("block", stream::kSumBlockRows, 64, 100000000);
    const long dim = args.integerIn("dim", 1000000, 2, 100000000);
    const std::vector<long> dims = args.integerList("dims", {dim});
    const std::vector<std::string> algorithms = args.distinctList("algorithms", {"em", "sga"});
    std::printf("pass on 1 vs %d threads, K = %d, %d rounds of %d observations each (medians); "
                "split from D >= %ld in blocks of %ld rows (the fitters' default: D >= %ld)\n"
                "load average before: %s\n",
                s.threads, s.latent, s.rounds, s.obs, s.minRows, s.blockRows, stream::kSplitMinRows,
                loadAverage().c_str());
    std::printf("%8s  %-3s  %6s  %12s  %12s  %6s  %9s  %s\n", "D", "alg", "parts", "obs/s 1",
                "obs/s N", "ratio", "rel diff", "status");
    for (const long D : dims) {
        if (D <= s.latent)
            throw std::invalid_argument("--dims: every D must exceed --latent");
        GeneratorSpec g;
        g.dim = static_cast<int>(D);
        g.latent = s.latent;
        g.kind = GeneratorKind::Haar;
        const FAModel truth = generateModel(g, 1);
        FASampler sampler(truth);
        Rng rng(2);
        Matrix X(D, kDrawn);
        for (int j = 0; j < kDrawn; ++j)
            sampler.draw(rng, X.col(j));
        for (const std::string& a : algorithms) {
            if (a == "em")
                measure<OnlineEM>("em", X, s);
            else if (a == "sga")
                measure<OnlineSGA>("sga", X, s);
            else
                throw std::invalid_argument("--algorithms: em or sga (got '" + a + "')");
        }
    }
    std::printf("load average after: %s\n", loadAverage().c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "faexplorer-pass-bench: " << e.what() << "\n";
        return 2;
    }
}
