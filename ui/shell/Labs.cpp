#include "ui/shell/Labs.h"

#include "ui/explorer/ExplorerPage.h"
#include "ui/latent/LatentPage.h"
#include "ui/neural/NeuralPage.h"
#include "ui/posterior/PosteriorPage.h"

const std::vector<LabEntry>& labRegistry() {
    static const std::vector<LabEntry> labs = {
        {"explorer", "FA explorer", "Online EM and SGA against batch FA on a generated model",
         [] { return new ExplorerPage; }},
        {"posterior", "Posterior lab",
         "FA approximations of a Bayesian linear regression posterior: VIFA, VIPPCA, SGD "
         "iterates + online FA, SWAG",
         [] { return new PosteriorPage; }},
        {"neural", "Neural lab",
         "VIFA / VIPPCA over a small network's weights on UCI data: NMLL, RMSE, predictive",
         [] { return new NeuralPage; }},
        {"latent", "Latent lab",
         "FA, PPCA and mixtures of PPCA by batch EM (with its ELBO), Gibbs sampling, the closed "
         "form, SVD and online EM / SGA, on generated data, UCI sets or any CSV",
         [] { return new LatentPage; }},
    };
    return labs;
}
