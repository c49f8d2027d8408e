#include "core/vae/VaeParams.h"

namespace fa {

namespace {
constexpr ParamKind W = ParamKind::Whole, R = ParamKind::Real;
} // namespace

const Schema<VaeOptions>& vaeFitParams() {
    static const Schema<VaeOptions> s = withDefaults<VaeOptions>(
        {field({"latent", "run.latent", "latent K", W, 1, 100,
                "Latent dimension K of the fitted models (K < D)."},
               &VaeOptions::latent),
         field({"noise-variance", "run.noiseVariance", "fixed σ²", R, 1e-8, 1e6,
                "The decoders' σ² with --noise fixed."},
               &VaeOptions::fixedVariance),
         field({"lr", "run.learningRate", "step size", R, 1e-8, 10,
                "Adam's step size for the decoder and the encoder."},
               &VaeOptions::lr),
         field({"batch", "run.batch", "batch", W, 1, 1e6,
                "Rows per mini-batch (a smaller set is used whole)."},
               &VaeOptions::batch),
         field({"e-steps", "run.eSteps", "vEM E steps", W, 1, 1000,
                "Variational EM: Adam steps on each row's q per E step."},
               &VaeOptions::eSteps),
         field({"encoder-samples", "run.encoderSamples", "draws per row", W, 1, 1000,
                "The VAE: draws of z per row in each step (the encoder gradient score-baseline "
                "needs 2 or more).",
                true}, // sessions before it: 1
               &VaeOptions::encoderSamples)});
    return s;
}

const Schema<VaeDataSpec>& vaeDataParams() {
    static const Schema<VaeDataSpec> s = withDefaults<VaeDataSpec>(
        {field({"test-fraction", "data.testFraction", "held out", R, 0, 0.9,
                "Share of the rows held out: the test ELBO, the importance-weighted "
                "log-likelihood and the gaps are measured on them (0: none)."},
               &VaeDataSpec::testFraction),
         field({"dim", "data.dim", "generated D", W, 2, 2000, "Generated data: the dimension D."},
               &VaeDataSpec::dim),
         field(
             {"samples", "data.rows", "rows", W, 4, 1e6, "Generated data: rows before the split."},
             &VaeDataSpec::samples),
         field({"true-latent", "data.trueLatent", "true K", W, 1, 1999,
                "Generated data (network, PPCA): the true latent dimension, below D."},
               &VaeDataSpec::trueLatent),
         field({"data-noise", "data.noise", "noise sd", R, 0, 100,
                "Generated nonlinear data: the noise's standard deviation."},
               &VaeDataSpec::noise)});
    return s;
}

const Schema<VaeConfig>& vaeParams() {
    static const Schema<VaeConfig> s = [] {
        Schema<VaeConfig> v;
        appendNested(v, vaeFitParams(), &VaeConfig::fit);
        appendNested(v, vaeDataParams(), &VaeConfig::data);
        v.push_back(field({"epochs", "", "epochs", W, 1, 1e7,
                           "Passes over the fitting rows; checkpoints at 1, 2, 5, 10, 20, 50 …."},
                          &VaeConfig::epochs));
        v.push_back(field({"trials", "", "trials", W, 1, 10000,
                           "Independent splits and starts (seeds derived from --seed)."},
                          &VaeConfig::trials));
        v.push_back(field(
            {"seed", "", "seed", W, 0, kMaxSeed, "Seed of the data, the splits and every start."},
            &VaeConfig::seed));
        appendNested(v,
                     Schema<VaeEvalOptions>{
                         field({"iw-samples", "", "IW samples", W, 1, 1e6,
                                "S of the importance-weighted log-likelihood per held-out row."},
                               &VaeEvalOptions::iwSamples),
                         field({"q-steps", "", "q* steps", W, 0, 100000,
                                "Adam steps per row for the best q* (the approximation gap)."},
                               &VaeEvalOptions::qSteps)},
                     &VaeConfig::eval);
        v.push_back(field({"grad-draws", "", "gradient draws", W, 2, 1e6,
                           "--grad-variance-out: independent estimates of the encoder's gradient "
                           "per estimator at each checkpoint."},
                          &VaeConfig::gradDraws));
        return withDefaults(std::move(v));
    }();
    return s;
}

const Schema<VaeLiveConfig>& vaeLiveParams() {
    static const Schema<VaeLiveConfig> s = [] {
        Schema<VaeLiveConfig> v;
        appendNested(v, vaeFitParams(), &VaeLiveConfig::fit);
        appendNested(v, vaeDataParams(), &VaeLiveConfig::data);
        v.push_back(field({"epochs", "run.length", "epochs", W, 1, 1e7,
                           "Epochs in the run (passes over the fitting rows)."},
                          &VaeLiveConfig::length));
        appendNested(v,
                     Schema<VaeDataSpec>{field({"seed", "data.seed", "seed", W, 0, kMaxSeed,
                                                "Seed of the data, the split and every start."},
                                               &VaeDataSpec::modelSeed)},
                     &VaeLiveConfig::data);
        return withDefaults(std::move(v));
    }();
    return s;
}

} // namespace fa
