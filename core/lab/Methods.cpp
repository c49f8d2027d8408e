#include "core/lab/Methods.h"

namespace fa {
namespace {

constexpr unsigned kExplorer = static_cast<unsigned>(Lab::Explorer);
constexpr unsigned kPosterior = static_cast<unsigned>(Lab::Posterior);
constexpr unsigned kNeural = static_cast<unsigned>(Lab::Neural);
constexpr unsigned kLatent = static_cast<unsigned>(Lab::Latent);
constexpr unsigned kNonlinear = static_cast<unsigned>(Lab::Nonlinear);

} // namespace

const std::vector<MethodInfo>& methodRegistry() {
    static const std::vector<MethodInfo> registry = {
        // The FA explorer: online fits of a generated FA model against batch FA.
        {"batch", "batch FA", "batch FA", 0x1f77b4, kExplorer,
         "Maximum-likelihood FA on all samples so far (SVD iteration, as scikit-learn)"},
        {"em", "online EM", "online EM", 0xff7f0e, kExplorer, "Online EM (thesis Algorithm 2)"},
        {"sga", "online SGA", "online SGA", 0x2ca02c, kExplorer,
         "Online stochastic gradient ascent on the log-likelihood (thesis Algorithm 1)"},
        // FA-shaped posteriors: the posterior lab (linear regression) and the neural lab.
        {"vifa-gauss", "VIFA, Gaussian prior", "VIFA-G", 0xd62728, kPosterior | kNeural,
         "VIFA: q = N(c, F Fᵀ + Ψ), Ψ learned; Gaussian prior"},
        {"vifa-laplace", "VIFA, Laplace prior", "VIFA-L", 0x9467bd, kPosterior | kNeural,
         "VIFA: q = N(c, F Fᵀ + Ψ), Ψ learned; Laplace prior of the same variance"},
        {"vippca", "VIPPCA", "VIPPCA", 0x8c564b, kPosterior,
         "VIPPCA: q = N(c, F Fᵀ + σI), σ fixed; Gaussian prior"},
        {"vippca-gauss", "VIPPCA, Gaussian prior", "VIPPCA-G", 0x8c564b, kNeural,
         "VIPPCA: q = N(c, F Fᵀ + σI), σ fixed; Gaussian prior"},
        {"vippca-laplace", "VIPPCA, Laplace prior", "VIPPCA-L", 0xe377c2, kNeural,
         "VIPPCA: q = N(c, F Fᵀ + σI), σ fixed; Laplace prior"},
        {"sgd-em", "SGD + online EM", "SGD+EM", 0xff7f0e, kPosterior,
         "Online EM fitted to the SGD iterates"},
        {"sgd-sga", "SGD + online SGA", "SGD+SGA", 0x2ca02c, kPosterior,
         "Online SGA fitted to the SGD iterates"},
        {"swag", "SWAG", "SWAG", 0x17becf, kPosterior,
         "SWAG: running mean and diagonal of the SGD iterates plus their last K deviations"},
        {"vi-full", "VI, full covariance", "VI-full", 0x1f77b4, kPosterior,
         "Gaussian VI: q = N(m, L Lᵀ), L lower-triangular with a log diagonal; Gaussian prior"},
        {"vi-meanfield", "VI, mean field", "VI-MF", 0xbcbd22, kPosterior,
         "Gaussian VI: q = N(m, diag σ²), log σ learned; Gaussian prior"},
        // The neural lab's posteriors from the SGD iterates of the network's weights
        // (core/neural/IterateFits.h).
        {"map", "MAP (SGD, weight decay)", "MAP", 0x393b79, kNeural,
         "The network trained by SGD with weight decay α/N: a point mass at its weights"},
        {"swa-fa-em", "SWA-FA, online EM", "SWA-FA EM", 0xff7f0e, kNeural,
         "Online EM fitted to the SGD iterates after the SWA start; mean their running average"},
        {"swa-fa-sga", "SWA-FA, online SGA", "SWA-FA SGA", 0x2ca02c, kNeural,
         "Online SGA fitted to the SGD iterates after the SWA start; mean their running average"},
        {"swag", "SWAG", "SWAG", 0x17becf, kNeural,
         "SWAG: running mean and diagonal of the SGD iterates plus their last K deviations"},
        {"ensemble", "deep ensemble", "ensemble", 0x1f77b4, kNeural,
         "M MAP networks from independent starts and batch orders, equally weighted"},
        {"multiswag", "MultiSWAG", "MultiSWAG", 0xbcbd22, kNeural,
         "M independent SWAG runs; the predictive mixes their draws"},
        {"multi-swa-fa-em", "multi-SWA-FA, online EM", "multi-SWA-FA", 0x637939, kNeural,
         "M independent SWA-FA (online EM) runs; the predictive mixes their draws"},
        // The latent-variable lab: every way of fitting FA (and PPCA) on one data set.
        {"em", "batch EM", "EM", 0xd62728, kLatent,
         "Batch EM: E step (posterior moments of every z_n), M step (F and Ψ, or W and σ²)"},
        {"gibbs", "Gibbs sampling", "Gibbs", 0x9467bd, kLatent,
         "Gibbs sampling of z, [F, c] and Ψ; scored by the posterior mean of C = F Fᵀ + Ψ, "
         "which is not a K-factor model (its log-likelihood may pass FA's maximum)"},
        {"closed-form", "PPCA closed form", "closed form", 0x8c564b, kLatent,
         "Tipping and Bishop: W from the leading eigenvectors, σ² the mean discarded eigenvalue"},
        {"svd", "SVD batch FA", "SVD FA", 0x1f77b4, kLatent,
         "Maximum-likelihood FA by the SVD iteration (scikit-learn's FactorAnalysis)"},
        {"online-em", "online EM (passes)", "online EM", 0xff7f0e, kLatent,
         "Online EM (thesis Algorithm 2) making passes over the rows"},
        {"online-sga", "online SGA (passes)", "online SGA", 0x2ca02c, kLatent,
         "Online SGA (thesis Algorithm 1) making passes over the rows"},
        // The nonlinear-FA lab: variational EM, the VAE, the linear VAE and PPCA's closed form.
        {"vem", "variational EM", "vEM", 0xff7f0e, kNonlinear,
         "Variational EM: a Gaussian q(z_n) per row, k gradient steps per E step, then a "
         "gradient M step on the decoder"},
        {"vae", "VAE", "VAE", 0xd62728, kNonlinear,
         "Variational autoencoder: an encoder network outputs q(z | x); joint reparameterised "
         "gradients"},
        {"linear-vae", "linear VAE", "linear VAE", 0x2ca02c, kNonlinear,
         "Linear encoder and decoder, noise σ²I: its optimum is PPCA's maximum likelihood"},
        {"ppca", "PPCA closed form", "PPCA", 0x8c564b, kNonlinear,
         "Tipping and Bishop's closed form: the linear baseline"},
        // References.
        {"truth", "true model", "true model", 0x141414, 0, "The generating FA model"},
        {"exact", "exact posterior", "exact", 0x141414, 0, "The exact posterior"},
        {"exact-laplace", "exact posterior, Laplace prior", "exact (Laplace)", 0x7f7f7f, 0,
         "The exact posterior under the Laplace prior, on a grid (two parameters)"},
    };
    return registry;
}

const MethodInfo* findMethod(std::string_view id) {
    for (const MethodInfo& m : methodRegistry())
        if (m.id == id)
            return &m;
    return nullptr;
}

const MethodInfo* findMethod(std::string_view id, Lab lab) {
    for (const MethodInfo& m : methodRegistry())
        if (m.id == id && m.offeredBy(lab))
            return &m;
    return nullptr;
}

std::string methodShortLabel(std::string_view id, Lab lab) {
    const MethodInfo* info = findMethod(id, lab);
    return std::string(info ? info->shortLabel : id);
}

std::vector<std::string> methodIds(Lab lab) {
    std::vector<std::string> ids;
    for (const MethodInfo& m : methodRegistry())
        if (m.offeredBy(lab))
            ids.emplace_back(m.id);
    return ids;
}

std::string methodChoices(Lab lab) {
    const std::vector<std::string> ids = methodIds(lab);
    std::string out;
    for (std::size_t i = 0; i < ids.size(); ++i)
        out += (i == 0 ? "" : ", ") + ids[i];
    return out;
}

} // namespace fa
