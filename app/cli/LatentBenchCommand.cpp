// faexplorer-cli latent-bench: the latent-variable and nonlinear-FA labs' fitters timed on the
// issue's sizes (median of R repeats, steady_clock, construction + iterations only; the
// log-likelihood shown beside each figure is computed after the clock stops, as a check that the
// fit ran).
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "core/bench/BenchCsv.h"
#include "core/bench/Benchmark.h"
#include "core/data/LatentData.h"
#include "core/io/AtomicFile.h"
#include "core/io/RegressionCsv.h"
#include "core/latent/FaBatchEm.h"
#include "core/latent/FaGibbs.h"
#include "core/models/Mppca.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeExperiment.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fa::cli {
namespace {

using Clock = std::chrono::steady_clock;

/// Stopped by the fit itself once its parameters are final, before any evaluation.
struct Stopwatch {
    Clock::time_point start = Clock::now(), end = start;
    void stop() { end = Clock::now(); }
    double seconds() const { return std::chrono::duration<double>(end - start).count(); }
};

/// A fit's n steps (an EM iteration, a Gibbs sweep) timed: the watch stopped after them, then the
/// fitted log-likelihood per row.
template <class Fit, class Step> double timedSteps(Stopwatch& w, Fit& fit, int n, Step step) {
    for (int i = 0; i < n; ++i)
        step(fit);
    w.stop();
    return fit.loglikPerRow();
}

struct BenchCase {
    std::string name;
    int dim = 0, latent = 0;
    double target = 0.0; ///< seconds; 0: none (context only)
    /// Fits from scratch, stops the watch, returns the fitted log-likelihood per row.
    std::function<double(Stopwatch&)> fit;
};

LatentData zScoredTable(const std::string& dataset, const TableLoader& loader) {
    LatentDataSpec spec;
    spec.dataset = dataset;
    spec.testFraction = 0.0;
    return makeLatentData(spec, loader);
}

LatentData generated(LatentModel model, int dim, int latent, int samples, int components) {
    LatentDataSpec spec;
    spec.model = model;
    spec.testFraction = 0.0;
    spec.synthetic.dim = dim;
    spec.synthetic.trueLatent = latent;
    spec.synthetic.samples = samples;
    spec.synthetic.components = components;
    return makeLatentData(spec, TableLoader{});
}

/// The nonlinear-FA lab's fitters: one 50-unit tanh layer, K = 2, 100 epochs of batches of 100.
void addNonlinearCases(std::vector<BenchCase>& cases, const std::shared_ptr<const VaeData>& rows) {
    for (const VaeMethod method : {VaeMethod::Vae, VaeMethod::Vem}) {
        const std::string name = vaeMethodName(method);
        cases.push_back({name + "_h50_n10000_d10_100_epochs", 10, 2,
                         method == VaeMethod::Vae ? 10.0 : 0.0, [rows, method](Stopwatch& w) {
                             VaeOptions o;
                             o.latent = 2;
                             o.hidden = {50};
                             auto fit = makeVaeFit(method, rows->rows.train, o);
                             for (int e = 0; e < 100; ++e)
                                 fit->epoch();
                             w.stop();
                             VaeEvalOptions eval;
                             return scoreVaeFit(*fit, Matrix(0, 10), eval, 1).trainElbo;
                         }});
    }
}

std::vector<BenchCase> benchCases(const std::shared_ptr<const LatentData>& boston,
                                  const std::shared_ptr<const LatentData>& faRows,
                                  const std::shared_ptr<const LatentData>& pieces) {
    constexpr int kBostonLatent = 3, kEmIterations = 1000, kSweeps = 1000, kMppcaIterations = 100;
    const int bostonDim = static_cast<int>(boston->train.cols());
    std::vector<BenchCase> cases;
    cases.push_back(
        {"fa_em_boston_1000_iterations", bostonDim, kBostonLatent, 0.050, [boston](Stopwatch& w) {
             FaBatchEm em(boston->train, FaEmOptions{kBostonLatent});
             return timedSteps(w, em, kEmIterations, [](FaBatchEm& f) { (void)f.iterate(); });
         }});
    for (const int chains : {1, 4}) {
        std::string name = "fa_gibbs_n2000_1000_sweeps_";
        name += chains > 1 ? "4_chains" : "1_chain";
        cases.push_back({name, 10, 2, 1.0, [faRows, chains](Stopwatch& w) {
                             FaGibbsOptions o;
                             o.latent = 2;
                             o.chains = chains;
                             FaGibbs gibbs(faRows->train, o);
                             return timedSteps(w, gibbs, kSweeps, [](FaGibbs& f) { f.sweep(); });
                         }});
    }
    cases.push_back({"mppca_5x1_n10000_100_iterations", 3, 1, 1.0, [pieces](Stopwatch& w) {
                         MppcaOptions o;
                         o.components = 5;
                         o.latent = 1;
                         Mppca mixture(pieces->train, o);
                         return timedSteps(w, mixture, kMppcaIterations,
                                           [](Mppca& f) { (void)f.iterate(); });
                     }});
    cases.push_back(
        {"ppca_em_boston_1000_iterations", bostonDim, kBostonLatent, 0.0, [boston](Stopwatch& w) {
             PpcaOptions o;
             o.latent = kBostonLatent;
             PpcaEm em(boston->train, o);
             return timedSteps(w, em, kEmIterations, [](PpcaEm& f) { (void)f.iterate(); });
         }});
    cases.push_back(
        {"ppca_closed_form_boston", bostonDim, kBostonLatent, 0.0, [boston](Stopwatch& w) {
             const PpcaModel model = ppcaClosedForm(boston->train, kBostonLatent);
             w.stop();
             return ppcaLoglikPerRow(model, boston->train);
         }});
    return cases;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

} // namespace

int runLatentBenchCommand(int argc, char** argv) {
    const ArgParser args(argc, argv, 2, {"repeats", "data-dir", "out"});
    const int repeats = args.integerIn("repeats", 5, 1, 100000);
    const TableLoader loader = io::tableLoader(args.text("data-dir", ""));
    // The data are read and generated before the output exists, and outside every timing.
    const auto boston = std::make_shared<const LatentData>(zScoredTable("boston", loader));
    const auto faRows =
        std::make_shared<const LatentData>(generated(LatentModel::Fa, 10, 2, 2000, 1));
    const auto pieces =
        std::make_shared<const LatentData>(generated(LatentModel::Mppca, 3, 1, 10000, 5));
    VaeDataSpec manifold;
    manifold.samples = 10000;
    manifold.testFraction = 0.0;
    const auto nonlinear = std::make_shared<const VaeData>(makeVaeData(manifold, TableLoader{}));
    std::unique_ptr<io::AtomicFile> out;
    if (args.has("out"))
        out = std::make_unique<io::AtomicFile>(args.text("out", ""));

    std::printf("latent-bench: median of %d repeat(s), one thread, fitting only\n", repeats);
    std::vector<BenchRow> rows;
    std::vector<BenchCase> cases = benchCases(boston, faRows, pieces);
    addNonlinearCases(cases, nonlinear);
    for (const BenchCase& c : cases) {
        std::vector<double> seconds;
        double loglik = 0.0;
        for (int r = 0; r < repeats; ++r) {
            Stopwatch watch;
            loglik = c.fit(watch);
            seconds.push_back(watch.seconds());
        }
        const double value = median(seconds);
        char verdict[64] = "context, no target";
        if (c.target > 0.0)
            std::snprintf(verdict, sizeof verdict, "target < %g s: %s", c.target,
                          value < c.target ? "met" : "MISSED");
        std::printf("%-38s D=%-3d K=%d %10.4f s  loglik/row %9.4f  (%s)\n", c.name.c_str(), c.dim,
                    c.latent, value, loglik, verdict);
        std::fflush(stdout);
        rows.push_back({"fit", c.name, c.dim, c.latent, value, "s"});
    }
    if (out) {
        io::writeBenchCsv(out->stream(), rows);
        out->commit();
    }
    return 0;
}

} // namespace fa::cli
