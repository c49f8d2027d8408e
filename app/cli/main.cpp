// faexplorer-cli: the headless front end of the FA engine, for sweeps, benchmarks and figures.
#include "app/cli/Commands.h"
#include "core/io/AtomicFile.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>

namespace {
const char* const kUsage =
    "usage: faexplorer-cli COMMAND [--option value ...]\n"
    "\n"
    "commands:\n"
    "  fa-sweep  fit generated FA models with batch FA, online EM and online SGA\n"
    "            --dim 100 --latent 10 --spectrum 1:10 --samples 100,1000,10000,100000\n"
    "            --trials 10 --seed 0 --algorithms batch,em,sga --lr 0.001 --warmup 100\n"
    "            --generator exact|haar --batch-svd randomized|exact --out results.csv\n"
    "  bench     throughput and metric cost per dimension\n"
    "            --dim 100,1000,10000,100000,1000000 --latent 10 --min-seconds 1\n"
    "            --batch-samples 10000 --out bench.csv\n"
    "  posterior Bayesian regression: Gaussian approximations against the exact posterior\n"
    "            --dataset synthetic|logistic-synthetic|bimodal-synthetic|boston|concrete|\n"
    "                      energy|yacht|PATH.csv --target COLUMN\n"
    "            --method vifa-gauss|vifa-laplace|vippca|sgd-em|sgd-sga|swag|vi-full|vi-meanfield\n"
    "                     (comma list) --estimator reparam|score|score-baseline\n"
    "            --latent 1 --epochs 5000 (SGD methods: 1000) --every EPOCHS/10 --trials 10 --seed "
    "0\n"
    "            --hyper auto|thesis|evidence|manual --alpha A --beta B --train-fraction F --bias "
    "yes|no\n"
    "            VIFA: --batch 100 --samples 10 --lr-c 0.01 --lr-f 0.0001 --lr-gamma 0.01\n"
    "                  --optimizer sgd|adam --max-grad-norm 10 --sigma 0.01 (VIPPCA)\n"
    "            SGD:  --sgd-lr 0.01 --sgd-batch 32 --lambda ALPHA/BETA --warmup-epochs 10\n"
    "                  --fa-warmup 100 --sga-lr 0.001\n"
    "            synthetic: --n 1000 --inputs 2 --correlation 0.5; --data-dir DIR --out "
    "posterior.csv\n"
    "  grad-variance  spread of the VI gradient estimators at one q (docs/maths/posterior.md "
    "§4.5)\n"
    "            --dataset D (as posterior) --method vi-full|vi-meanfield|vifa-gauss|\n"
    "                      vifa-laplace|vippca (--latent K --sigma S for VIFA / VIPPCA)\n"
    "            --estimator reparam,score,score-baseline --samples 1,10,100\n"
    "            --at optimum|start|epoch:N --trials 1000 --seed 0 --out FILE.csv\n"
    "            (the fit to epoch:N: --batch --fit-samples --lr-c --lr-f --lr-gamma --optimizer)\n"
    "  vi-bound  alpha, beta through the ELBO of a full or mean-field q, beside the evidence\n"
    "            --dataset D (as posterior) --family full|meanfield --iterations 200\n"
    "            --start-alpha 1 --start-beta 1 --seed 0 --out FILE.csv\n"
    "  posterior-bench  exact posterior per UCI set and whole synthetic VIFA/SGD runs, timed\n"
    "            --repeats 200 --run-repeats 5 --out posterior-bench.csv\n"
    "  neural    VIFA / VIPPCA over a small network's weights: test NMLL and RMSE over splits\n"
    "            --dataset boston|concrete|energy|yacht|PATH.csv --target COLUMN\n"
    "            --method vifa-gauss|vifa-laplace|vippca-gauss|vippca-laplace (comma list)\n"
    "            --hidden 50 | 50,50 --splits 20 --epochs 120 --search-trials 10 --folds 5 --seed "
    "0\n"
    "            --latent 1 --batch 10 --samples 4 --lr 0.01 --optimizer adam --max-grad-norm 10\n"
    "            --predictive-samples 100 --train-fraction 0.9 --init report|scaled --threads 2\n"
    "            --out neural.csv\n"
    "  latent    FA, PPCA and mixture-of-PPCA fitters on generated, bundled or CSV data\n"
    "            --dataset synthetic|boston|concrete|energy|yacht|PATH.csv --model fa|ppca|mppca\n"
    "            --method em,gibbs,svd,online-em,online-sga | closed-form,em | em --latent 2\n"
    "            --components 3 --iterations 100 --trials 1 --seed 0 --test-fraction 0.2\n"
    "            --chains 4 --burn-in ITERATIONS/2 --lr 0.001 --missing refuse|em\n"
    "            --prior none|jeffreys|conjugate (FA batch EM: maximum likelihood or MAP)\n"
    "            synthetic: --dim 10 --true-latent 2 --spectrum 1:10 --samples 1000 --noise 0.05\n"
    "            --data-dir DIR --out latent.csv\n"
    "  vae       nonlinear FA: variational EM, the VAE and the linear VAE beside PPCA\n"
    "            --dataset nonlinear-synthetic|synthetic|two-moons|swiss-roll|pinwheel|boston|\n"
    "                      concrete|energy|yacht|PATH.csv\n"
    "            --method vem,vae,linear-vae,ppca --latent 2 --hidden 50 (0: none) --epochs 100\n"
    "            --trials 1 --seed 0 --test-fraction 0.2 --activation tanh|relu\n"
    "            --noise diagonal|isotropic|fixed (--noise-variance 0.1) --linear-noise isotropic\n"
    "            --lr 0.003 --batch 100\n"
    "            --e-steps 5 --iw-samples 1000 --q-steps 300 --data-dir DIR --out vae.csv\n"
    "            generated: --dim 10 --samples 2000 --data-noise 0.1; synthetic (PPCA) and\n"
    "            nonlinear-synthetic: --true-latent 2; synthetic: --spectrum 1:10\n"
    "  latent-bench  batch FA EM, Gibbs sweeps, mixture of PPCA, PPCA, VAE and vEM fits, timed\n"
    "            --repeats 5 --data-dir DIR --out latent-bench.csv\n"
    "  merge     OUT.csv IN.csv...: the CSVs of a sharded run back into the unsharded one\n"
    "\n"
    "fa-sweep, posterior, latent and vae run their trials side by side on --threads N (default:\n"
    "every core; the output does not depend on N). fa-sweep, posterior, latent, vae and neural\n"
    "take --shard i/n: run only the i-th of n slices of the trials (splits), for a cluster's job\n"
    "array; a shard's CSV ends with two more columns, shard (i/n) and run_trials (run_splits),\n"
    "so that 'merge' sees a missing slice; merge the n CSVs with 'merge'. See docs/cluster.md.\n";
}

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    // Ctrl-C, kill or a closed terminal leave no OUT.tmp-PID behind.
    fa::io::removeTemporariesOnSignals();
    try {
        if (!std::strcmp(argv[1], "fa-sweep"))
            return fa::cli::runFaSweepCommand(argc, argv);
        if (!std::strcmp(argv[1], "posterior"))
            return fa::cli::runPosteriorCommand(argc, argv);
        if (!std::strcmp(argv[1], "neural"))
            return fa::cli::runNeuralCommand(argc, argv);
        if (!std::strcmp(argv[1], "latent"))
            return fa::cli::runLatentCommand(argc, argv);
        if (!std::strcmp(argv[1], "vae"))
            return fa::cli::runVaeCommand(argc, argv);
        if (!std::strcmp(argv[1], "vi-bound"))
            return fa::cli::runBoundCommand(argc, argv);
        if (!std::strcmp(argv[1], "grad-variance"))
            return fa::cli::runGradVarianceCommand(argc, argv);
        if (!std::strcmp(argv[1], "latent-bench"))
            return fa::cli::runLatentBenchCommand(argc, argv);
        if (!std::strcmp(argv[1], "posterior-bench"))
            return fa::cli::runPosteriorBenchCommand(argc, argv);
        if (!std::strcmp(argv[1], "bench"))
            return fa::cli::runBenchCommand(argc, argv);
        if (!std::strcmp(argv[1], "merge"))
            return fa::cli::runMergeCommand(argc, argv);
        std::fprintf(stderr, "faexplorer-cli: unknown command '%s' (try --help)\n", argv[1]);
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "faexplorer-cli %s: %s\n", argv[1], e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr,
                     "faexplorer-cli %s: not enough memory for this run (lower the dimension, the "
                     "samples or the threads)\n",
                     argv[1]);
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faexplorer-cli %s: error: %s\n", argv[1], e.what());
        return 1;
    }
}
