#pragma once
// Every way the latent-variable lab fits its models, behind one small interface so that the
// CLI's runner and the window's live run step them alike: FA by batch EM, Gibbs sampling, the
// SVD iteration (scikit-learn's algorithm) and online EM / SGA making passes over the rows;
// PPCA by its closed form and by EM (with missing values); the mixture of PPCA by EM.
#include "core/data/LatentData.h"
#include "core/fa/FAModel.h"
#include "core/fa/GaussianFit.h"
#include "core/latent/FaBatchEm.h"
#include "core/math/Types.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fa {

enum class LatentMethod { Em, Gibbs, ClosedForm, Svd, OnlineEm, OnlineSga };
/// The CLI and CSV names: em, gibbs, closed-form, svd, online-em, online-sga.
std::string latentMethodName(LatentMethod method);
std::optional<LatentMethod> parseLatentMethod(const std::string& name);
std::vector<LatentMethod> allLatentMethods();
/// fa: em, gibbs, svd, online-em, online-sga; ppca: closed-form, em; mppca: em.
bool modelOffers(LatentModel model, LatentMethod method);
/// Throws std::invalid_argument unless methods is non-empty, the model offers each and
/// 1 <= iterations <= 10^7 (the CLI's experiment and the window's run alike).
void checkLatentRun(LatentModel model, const std::vector<LatentMethod>& methods, long iterations);

struct LatentFitOptions {
    int latent = 2;
    int components = 3;          ///< the mixture only
    std::uint64_t seed = 0;      ///< random starts, chains, pass orders
    int chains = 4;              ///< Gibbs
    long burnIn = 500;           ///< Gibbs sweeps discarded
    double learningRate = 0.001; ///< online SGA
    /// The one prior chosen for FA's batch EM and Gibbs (each method runs under priorFor()) or
    /// PPCA's EM (independent: MAP, docs/maths/latent.md §3.5; any other: maximum likelihood).
    FaPrior prior = FaPrior::None;
    double alpha = 1.0; ///< PPCA's MAP: the precision α of each loading, w_k ~ N(0, α⁻¹ I)
};
/// "none", "jeffreys" (the slides' eq 4, p ∝ Π ψ_d⁻¹; "improper" is read as the same prior),
/// "conjugate", "independent"; parse throws naming them.
std::string faPriorName(FaPrior prior);
FaPrior parseFaPrior(const std::string& name);
/// Whether the prior is one the method runs under: em none, jeffreys, conjugate; gibbs
/// jeffreys, conjugate, independent; no other method takes a prior.
bool methodTakesPrior(LatentMethod method, FaPrior prior);
/// The prior method runs under when prior is the one chosen: it, where the method takes it;
/// otherwise the method's default (em none, gibbs independent).
FaPrior priorFor(LatentMethod method, FaPrior prior);
/// Whether the model's method runs under prior: FA's as methodTakesPrior; PPCA's em under none
/// or independent (its MAP, §3.5); no other fit takes one.
bool modelTakesPrior(LatentModel model, LatentMethod method, FaPrior prior);

class FaGibbs;
class Mppca;

class LatentFit {
  public:
    virtual ~LatentFit() = default;
    /// One iteration: an EM iteration, a Gibbs sweep of every chain, an SVD iteration, a pass
    /// over the rows; the closed form has none (its one answer is there from the start).
    virtual void iterate() = 0;
    virtual long iterations() const = 0;
    /// False for the closed form: iterate() does nothing.
    virtual bool iterative() const { return true; }
    /// Average log-likelihood of the fitting rows, and of other rows, under the current model.
    virtual double loglikPerRow() const = 0;
    virtual double loglikPerRow(const ConstMatrixRef& rows) const = 0;
    /// FA batch EM's ELBO of its last iteration (E step's q at the new parameters); NaN where
    /// it does not apply.
    virtual double elboPerRow() const;
    /// The model's mean and covariance (D x D), for the distance to a generated truth.
    virtual void moments(Vector& mean, Matrix& covariance) const = 0;
    /// Where the fit stands: Running (csvWord "ok"), PsiFloor, Diverged or NotConverged, the
    /// last asked only of the last checkpoint.
    virtual FitStatus status(bool last) const = 0;

    // For the window's views (nothing D x D): the FA form (c, F, Ψ) where the fit has one (not
    // Gibbs, whose summary is the posterior mean of C, nor the mixture), the sampler, the
    // mixture, and batch EM's last staircase.
    virtual std::optional<FAModel> faModel() const { return std::nullopt; }
    virtual const FaGibbs* gibbs() const { return nullptr; }
    virtual const Mppca* mixture() const { return nullptr; }
    virtual std::optional<FaEmStep> lastEmStep() const { return std::nullopt; }
    /// The coordinates of a Heywood case (ψ_d at the floor or still falling below 1e-3 S_dd).
    virtual std::vector<Eigen::Index> flooredColumns() const { return {}; }
};

/// Builds the fit of model by method on the fitting rows (NaN = missing: PPCA EM only).
/// Throws std::invalid_argument with a reason for a combination the model does not offer or a
/// shape the method refuses.
std::unique_ptr<LatentFit> makeLatentFit(LatentModel model, LatentMethod method, const Matrix& rows,
                                         const LatentFitOptions& options);

} // namespace fa
