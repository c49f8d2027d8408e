#include "ui/shell/Labs.h"

#include "ui/explorer/ExplorerPage.h"
#include "ui/latent/LatentPage.h"
#include "ui/neural/NeuralPage.h"
#include "ui/nonlinear/NonlinearPage.h"
#include "ui/posterior/PosteriorPage.h"

namespace {

std::vector<LabEntry>& labs() {
    static std::vector<LabEntry> labs = {
        {"explorer", "FA explorer", "Online EM and SGA against batch FA on a generated model",
         [] { return new ExplorerPage; }, explorerViewHelp},
        {"posterior", "Posterior lab",
         "FA approximations of a Bayesian linear regression posterior: VIFA, VIPPCA, SGD "
         "iterates + online FA, SWAG",
         [] { return new PosteriorPage; }, posteriorViewHelp},
        {"neural", "Neural lab",
         "VIFA / VIPPCA over a small network's weights on UCI data: NMLL, RMSE, predictive",
         [] { return new NeuralPage; }, neuralViewHelp},
        {"latent", "Latent lab",
         "FA, PPCA and mixtures of PPCA by batch EM (with its ELBO), Gibbs sampling, the closed "
         "form, SVD and online EM / SGA, on generated data, UCI sets or any CSV",
         [] { return new LatentPage; }, latentViewHelp},
        {"nonlinear", "Nonlinear FA",
         "Nonlinear factor analysis: variational EM, the VAE and the linear VAE beside PPCA, "
         "with the ELBO, the importance-weighted log-likelihood and the amortisation and "
         "approximation gaps",
         [] { return new NonlinearPage; }, nonlinearViewHelp},
    };
    return labs;
}

} // namespace

const std::vector<LabEntry>& labRegistry() {
    return labs();
}

void addLab(LabEntry lab) {
    labs().push_back(std::move(lab));
}
