// The command table of faexplorer-cli: every command's name, one-line summary, --help and run
// function in one place; the program's usage is generated from it (app/cli/main.cpp).
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"

#include <string>

namespace fa::cli {
namespace {

/// --help of a command whose options are not yet a schema: its summary and option lines.
template <const char* Name, const char* Summary, const char* Options> std::string listed() {
    return std::string("usage: faexplorer-cli ") + Name + " [--option value ...]\n\n" + Summary +
           "\n\noptions:\n" + Options;
}

/// A table row of an experiment command: --help and the run from its description.
template <const CommandSpec& (*Spec)()> Command experiment(const char* name, const char* summary) {
    return {name, summary, [] { return Spec().help(); },
            [](int argc, char** argv) { return Spec().run(argc, argv); }};
}

constexpr char kBench[] = "bench", kBenchSummary[] = "Throughput and metric cost per dimension.",
               kBenchOptions[] =
                   "  --dim 100,1000,10000,100000,1000000 --latent 10 --min-seconds 1\n"
                   "  --batch-samples 10000 --out bench.csv\n";
constexpr char kPosterior[] = "posterior",
               kPosteriorSummary[] =
                   "Bayesian regression: Gaussian approximations against the exact posterior.";
constexpr char kGrad[] = "grad-variance",
               kGradSummary[] = "Spread of the VI gradient estimators at one q "
                                "(docs/maths/posterior.md §4.5).",
               kGradOptions[] =
                   "  --dataset D (as posterior) --method vi-full|vi-meanfield|vifa-gauss|\n"
                   "            vifa-laplace|vippca (--latent K --sigma S for VIFA / VIPPCA)\n"
                   "  --dataset poisson-synthetic --method vi-gamma|vi-exponential, or\n"
                   "  --dataset bernoulli-latent --method vi-bernoulli (score estimators only):\n"
                   "            families beyond the Gaussian, --at optimum|start\n"
                   "  --estimator reparam,score,score-baseline --samples 1,10,100\n"
                   "  --at optimum|start|epoch:N --trials 1000 --seed 0 --out FILE.csv\n"
                   "  (the fit to epoch:N: --batch --fit-samples --lr-c --lr-f --lr-gamma "
                   "--optimizer)\n";
constexpr char kBound[] = "vi-bound",
               kBoundSummary[] =
                   "Alpha, beta through the ELBO of a full or mean-field q, beside the evidence.",
               kBoundOptions[] = "  --dataset D (as posterior) --family full|meanfield "
                                 "--iterations 200\n"
                                 "  --start-alpha 1 --start-beta 1 --seed 0 --out FILE.csv\n";
constexpr char kPosteriorBench[] = "posterior-bench",
               kPosteriorBenchSummary[] =
                   "Exact posterior per UCI set and whole synthetic VIFA/SGD runs, timed.",
               kPosteriorBenchOptions[] = "  --repeats 200 --run-repeats 5 --out "
                                          "posterior-bench.csv\n";
constexpr char kLatentBench[] = "latent-bench",
               kLatentBenchSummary[] =
                   "Batch FA EM, Gibbs sweeps, mixture of PPCA, PPCA, VAE and vEM fits, timed.",
               kLatentBenchOptions[] = "  --repeats 5 --data-dir DIR --out latent-bench.csv\n";
constexpr char kNetworkBench[] = "network-bench",
               kNetworkBenchSummary[] =
                   "Per SGD step of a network: its own step against the online EM, online SGA "
                   "and SWAG updates of its weights, timed.",
               kNetworkBenchOptions[] =
                   "  --dataset concrete --hidden 1000,1000 --rank 20 --batch 32 --epochs 2\n"
                   "  --seed 0 --data-dir DIR --out network-bench.csv\n";

} // namespace

const std::vector<Command>& commands() {
    static const std::vector<Command> table{
        experiment<faSweepCommand>(
            "fa-sweep", "Fit generated FA models with batch FA, online EM and online SGA."),
        {kBench, kBenchSummary, listed<kBench, kBenchSummary, kBenchOptions>, runBenchCommand},
        experiment<posteriorCommand>(kPosterior, kPosteriorSummary),
        {kGrad, kGradSummary, listed<kGrad, kGradSummary, kGradOptions>, runGradVarianceCommand},
        {kBound, kBoundSummary, listed<kBound, kBoundSummary, kBoundOptions>, runBoundCommand},
        {kPosteriorBench, kPosteriorBenchSummary,
         listed<kPosteriorBench, kPosteriorBenchSummary, kPosteriorBenchOptions>,
         runPosteriorBenchCommand},
        experiment<neuralCommand>(
            "neural",
            "VIFA / VIPPCA over a small network's weights: test NMLL and RMSE over splits."),
        experiment<gpCommand>("gp", "Gaussian-process regression with four kernels: test NMLL "
                                    "and RMSE over the neural lab's splits."),
        experiment<latentCommand>(
            "latent", "FA, PPCA and mixture-of-PPCA fitters on generated, bundled or CSV data."),
        experiment<vaeCommand>(
            "vae", "Nonlinear FA: variational EM, the VAE and the linear VAE beside PPCA."),
        {kLatentBench, kLatentBenchSummary,
         listed<kLatentBench, kLatentBenchSummary, kLatentBenchOptions>, runLatentBenchCommand},
        {kNetworkBench, kNetworkBenchSummary,
         listed<kNetworkBench, kNetworkBenchSummary, kNetworkBenchOptions>, runNetworkBenchCommand},
        {"merge", "OUT.csv IN.csv...: the CSVs of a sharded run back into the unsharded one.",
         mergeHelp, runMergeCommand}};
    return table;
}

} // namespace fa::cli
