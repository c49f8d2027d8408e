#include "core/latent/LatentFits.h"

#include "core/fa/BatchFA.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/latent/FaBatchEm.h"
#include "core/latent/FaGibbs.h"
#include "core/math/Rng.h"
#include "core/models/Mppca.h"
#include "core/models/Ppca.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {
constexpr double kTolerance = 1e-10; // |Δℓ| < kTolerance (1 + |ℓ|) per row: converged

void faMoments(const FAModel& m, Vector& mean, Matrix& covariance) {
    mean = m.c;
    covariance = m.denseCovariance();
}

constexpr double kPsiFloor = 1e-6; // ψ_d >= kPsiFloor S_dd in every FA fitter (§1.6)

/// Heywood cases by batch EM's rule (heywoodColumns) for the fits that keep no previous Ψ.
class FloorWatch {
  public:
    explicit FloorWatch(Vector variances) : m_variances(std::move(variances)) {}
    /// Call after every iteration with the new Ψ.
    void update(const Vector& psi) {
        m_previous = m_current;
        m_current = psi;
    }
    std::vector<Eigen::Index> columns() const {
        return heywoodColumns(m_current, m_previous, m_variances, kPsiFloor);
    }
    const Vector& variances() const { return m_variances; }

  private:
    Vector m_variances, m_current, m_previous;
};

Vector columnVariances(const Matrix& rows) {
    const Matrix centred = rows.rowwise() - rows.colwise().mean();
    return centred.colwise().squaredNorm().transpose() / static_cast<double>(rows.rows());
}

/// A fit whose log-likelihoods, of the fitting rows and of any rows, are its model's own (batch
/// EM, Gibbs, the mixture).
template <class Model> class ModelFit : public LatentFit {
  public:
    double loglikPerRow() const override { return m_model.loglikPerRow(); }
    double loglikPerRow(const ConstMatrixRef& rows) const override {
        return m_model.loglikPerRow(rows);
    }

  protected:
    template <class Options> ModelFit(const Matrix& rows, const Options& o) : m_model(rows, o) {}
    Model m_model;
};

class FaEmFit final : public ModelFit<FaBatchEm> {
  public:
    FaEmFit(const Matrix& rows, int latent, FaPrior prior)
        : ModelFit(rows, options(latent, prior)) {}
    void iterate() override {
        m_last = m_model.iterate();
        m_elbo = m_last->elboAfterM;
    }
    long iterations() const override { return m_model.iterations(); }
    double elboPerRow() const override { return m_elbo; }
    void moments(Vector& mean, Matrix& cov) const override {
        faMoments(m_model.model(), mean, cov);
    }
    FitStatus status(bool last) const override {
        if (m_model.diverged())
            return FitStatus::Diverged;
        if (!m_model.heywood().empty())
            return FitStatus::PsiFloor;
        return last && !m_model.converged() ? FitStatus::NotConverged : FitStatus::Running;
    }
    std::vector<Eigen::Index> flooredColumns() const override { return m_model.heywood(); }
    std::optional<FAModel> faModel() const override { return m_model.model(); }
    std::optional<FaEmStep> lastEmStep() const override { return m_last; }

  private:
    static FaEmOptions options(int latent, FaPrior prior) {
        FaEmOptions o;
        o.latent = latent;
        o.prior = prior;
        return o;
    }
    std::optional<FaEmStep> m_last;
    double m_elbo = kNaN;
};

class GibbsFit final : public ModelFit<FaGibbs> {
  public:
    GibbsFit(const Matrix& rows, const LatentFitOptions& o) : ModelFit(rows, options(o)) {}
    void iterate() override { m_model.sweep(); }
    long iterations() const override { return m_model.sweeps(); }
    void moments(Vector& mean, Matrix& cov) const override {
        mean = m_model.meanMean();
        cov = m_model.meanCovariance();
    }
    FitStatus status(bool last) const override {
        if (m_model.diverged())
            return FitStatus::Diverged;
        if (!m_model.flooredColumns().empty())
            return FitStatus::PsiFloor;
        if (!last)
            return FitStatus::Running;
        // Converged when every tracked entry of C has split-R̂ <= 1.01 (BDA3's flag).
        if (m_model.kept() < 4)
            return FitStatus::NotConverged;
        for (const GibbsEntrySummary& s : m_model.summary())
            if (!(s.rhat <= 1.01))
                return FitStatus::NotConverged;
        return FitStatus::Running;
    }
    const FaGibbs* gibbs() const override { return &m_model; }
    std::vector<Eigen::Index> flooredColumns() const override { return m_model.flooredColumns(); }

  private:
    static FaGibbsOptions options(const LatentFitOptions& o) {
        FaGibbsOptions g;
        g.latent = o.latent;
        g.chains = o.chains;
        g.seed = o.seed;
        g.burnIn = o.burnIn;
        g.prior = priorFor(LatentMethod::Gibbs, o.prior);
        return g;
    }
};

/// scikit-learn's SVD iteration (exact SVD), one iteration per call: each call resumes from
/// the Ψ the last one left (the iteration's whole state). Converged as the other EMs are, when
/// |Δℓ| < 1e-10 (1 + |ℓ|) per row (scikit-learn's default, 1e-2 on the total, stops early).
class SvdFit final : public LatentFit {
  public:
    SvdFit(const Matrix& rows, int latent)
        : m_samples(rows.transpose()), m_watch(columnVariances(rows)) {
        m_options.latent = latent;
        m_options.svd = SvdMethod::Exact;
        m_options.maxIter = 0; // the start: F = 0, Ψ = I; throws for bad shapes, as the others
        m_options.tol = -std::numeric_limits<double>::infinity(); // our own test, below
        m_result = fitBatchFA(m_samples, m_options);
        m_options.maxIter = 1;
    }
    void iterate() override {
        m_options.startPsi = m_result.model.psi;
        m_result = fitBatchFA(m_samples, m_options);
        // Batch EM's floor, ψ_d >= 1e-6 S_dd (scikit-learn's is an absolute 1e-12), so that
        // both report Heywood cases alike and their log-likelihoods compare.
        m_result.model.psi = m_result.model.psi.cwiseMax(kPsiFloor * m_watch.variances());
        m_watch.update(m_result.model.psi);
        const double loglik = m_result.logLikelihood.front() / double(m_samples.cols());
        m_converged =
            m_calls > 0 && std::abs(loglik - m_previous) < kTolerance * (1.0 + std::abs(loglik));
        m_previous = loglik;
        ++m_calls;
    }
    long iterations() const override { return m_calls; }
    double loglikPerRow() const override {
        return faLoglikPerRow(m_result.model, m_samples.transpose());
    }
    double loglikPerRow(const ConstMatrixRef& rows) const override {
        return faLoglikPerRow(m_result.model, rows);
    }
    void moments(Vector& mean, Matrix& cov) const override { faMoments(m_result.model, mean, cov); }
    FitStatus status(bool last) const override {
        if (!m_result.model.F.allFinite() || !m_result.model.psi.allFinite())
            return FitStatus::Diverged;
        if (!m_watch.columns().empty())
            return FitStatus::PsiFloor;
        return last && !m_converged ? FitStatus::NotConverged : FitStatus::Running;
    }
    std::optional<FAModel> faModel() const override { return m_result.model; }
    std::vector<Eigen::Index> flooredColumns() const override { return m_watch.columns(); }

  private:
    Matrix m_samples; ///< D x N
    FloorWatch m_watch;
    BatchFAOptions m_options;
    BatchFAResult m_result;
    double m_previous = 0.0;
    long m_calls = 0;
    bool m_converged = false;
};

/// Online EM or SGA: one iteration is one pass over the rows in a fresh random order.
class OnlineFit final : public LatentFit {
  public:
    OnlineFit(const Matrix& rows, LatentMethod method, const LatentFitOptions& o)
        : m_rows(rows), m_samples(rows.transpose()), m_watch(columnVariances(rows)),
          m_order(static_cast<std::size_t>(rows.rows())),
          m_rng(deriveSeed(o.seed, SeedStream::OnlineRowOrder)) {
        if (o.latent < 1 || o.latent >= rows.cols())
            throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D");
        checkLearningRate(o.learningRate);
        OnlineOptions opt;
        opt.latent = o.latent;
        opt.learningRate = o.learningRate;
        opt.initSeed = deriveSeed(o.seed, SeedStream::OnlineStart);
        if (method == LatentMethod::OnlineEm)
            m_fit = std::make_unique<OnlineEM>(rows.cols(), opt);
        else
            m_fit = std::make_unique<OnlineSGA>(rows.cols(), opt);
        for (std::size_t i = 0; i < m_order.size(); ++i)
            m_order[i] = static_cast<Eigen::Index>(i);
    }
    void iterate() override {
        shuffle(m_order, m_rng);
        for (const Eigen::Index i : m_order)
            m_fit->observe(m_samples.col(i)); // a contiguous column: no copy per observation
        m_watch.update(m_fit->psi());
        ++m_passes;
    }
    long iterations() const override { return m_passes; }
    double loglikPerRow() const override { return faLoglikPerRow(m_fit->model(), m_rows); }
    double loglikPerRow(const ConstMatrixRef& rows) const override {
        return faLoglikPerRow(m_fit->model(), rows);
    }
    void moments(Vector& mean, Matrix& cov) const override { faMoments(m_fit->model(), mean, cov); }
    FitStatus status(bool) const override {
        if (m_fit->status() == FitStatus::Diverged)
            return FitStatus::Diverged;
        if (!m_watch.columns().empty()) // the shared rule (the fitter's own clamp is 1e-8)
            return FitStatus::PsiFloor;
        return FitStatus::Running; // a stochastic fit has no convergence test
    }
    std::vector<Eigen::Index> flooredColumns() const override { return m_watch.columns(); }
    std::optional<FAModel> faModel() const override { return m_fit->model(); }

  private:
    Matrix m_rows, m_samples; ///< N x D for the scores, D x N for the stream
    FloorWatch m_watch;
    std::vector<Eigen::Index> m_order;
    Rng m_rng;
    std::unique_ptr<OnlineFitter> m_fit;
    long m_passes = 0;
};

class PpcaFit final : public LatentFit {
  public:
    PpcaFit(const Matrix& rows, const LatentFitOptions& o) : m_em(rows, options(o, rows)) {}
    void iterate() override {
        const double before = m_em.iterate();
        m_converged = m_em.iterations() > 1 &&
                      std::abs(before - m_previous) < kTolerance * (1.0 + std::abs(before));
        m_previous = before;
    }
    long iterations() const override { return m_em.iterations(); }
    double loglikPerRow() const override { return m_em.loglikPerRow(); }
    double loglikPerRow(const ConstMatrixRef& rows) const override {
        return ppcaLoglikPerRow(m_em.ppca(), rows);
    }
    void moments(Vector& mean, Matrix& cov) const override { faMoments(m_em.model(), mean, cov); }
    FitStatus status(bool last) const override {
        if (m_em.diverged())
            return FitStatus::Diverged;
        return last && !m_converged ? FitStatus::NotConverged : FitStatus::Running;
    }
    std::optional<FAModel> faModel() const override { return m_em.model(); }

  private:
    static PpcaOptions options(const LatentFitOptions& o, const Matrix& rows) {
        PpcaOptions p;
        p.latent = o.latent;
        p.seed = o.seed;
        p.missingValues = rows.hasNaN();
        if (o.prior == FaPrior::Independent) // MAP (§3.5); the objective is then ℓ + log p / N
            p.prior = PpcaPrior{.alpha = o.alpha};
        return p;
    }
    PpcaEm m_em;
    double m_previous = 0.0;
    bool m_converged = false;
};

class ClosedFormFit final : public LatentFit {
  public:
    ClosedFormFit(const Matrix& rows, int latent)
        : m_model(ppcaClosedForm(rows, latent)), m_loglik(ppcaLoglikPerRow(m_model, rows)) {}
    void iterate() override {}
    long iterations() const override { return 0; }
    bool iterative() const override { return false; }
    double loglikPerRow() const override { return m_loglik; }
    double loglikPerRow(const ConstMatrixRef& rows) const override {
        return ppcaLoglikPerRow(m_model, rows);
    }
    void moments(Vector& mean, Matrix& cov) const override { faMoments(m_model.asFa(), mean, cov); }
    FitStatus status(bool) const override { return FitStatus::Running; }
    std::optional<FAModel> faModel() const override { return m_model.asFa(); }

  private:
    PpcaModel m_model;
    double m_loglik;
};

class MppcaFit final : public ModelFit<Mppca> {
  public:
    MppcaFit(const Matrix& rows, const LatentFitOptions& o) : ModelFit(rows, options(o)) {}
    void iterate() override { m_model.iterate(); }
    long iterations() const override { return m_model.iterations(); }
    void moments(Vector& mean, Matrix& cov) const override { m_model.moments(mean, cov); }
    FitStatus status(bool last) const override {
        if (m_model.diverged())
            return FitStatus::Diverged;
        if (m_model.floored())
            return FitStatus::PsiFloor;
        return last && !m_model.converged() ? FitStatus::NotConverged : FitStatus::Running;
    }
    const Mppca* mixture() const override { return &m_model; }

  private:
    static MppcaOptions options(const LatentFitOptions& o) {
        MppcaOptions m;
        m.components = o.components;
        m.latent = o.latent;
        m.seed = o.seed;
        return m;
    }
};

} // namespace

double LatentFit::elboPerRow() const {
    return kNaN;
}

std::unique_ptr<LatentFit> makeLatentFit(LatentModel model, LatentMethod method, const Matrix& rows,
                                         const LatentFitOptions& options) {
    if (!modelOffers(model, method))
        throw std::invalid_argument("the model '" + latentModelName(model) +
                                    "' is not fitted by '" + latentMethodName(method) + "'");
    // Shapes, with the numbers (the fitters' own checks say only which rule failed).
    const Eigen::Index n = rows.rows(), dim = rows.cols();
    const long k = options.latent;
    if (k < 1 || k >= dim)
        throw std::invalid_argument("the latent dimension K = " + std::to_string(k) +
                                    " must be below the number of columns, " + std::to_string(dim));
    if (n <= k + 1)
        throw std::invalid_argument("K = " + std::to_string(k) + " needs more than " +
                                    std::to_string(k + 1) + " fitting rows; there are " +
                                    std::to_string(n));
    if (model == LatentModel::Mppca && n < options.components * (k + 2))
        throw std::invalid_argument(
            "C = " + std::to_string(options.components) +
            " components with K = " + std::to_string(k) +
            " need at least C (K + 2) = " + std::to_string(options.components * (k + 2)) +
            " fitting rows; there are " + std::to_string(n));
    const bool complete = !rows.hasNaN();
    if (!complete && !(model == LatentModel::Ppca && method == LatentMethod::Em))
        throw std::invalid_argument("'" + latentMethodName(method) + "' for " +
                                    latentModelName(model) +
                                    " needs complete rows; only PPCA by EM handles missing values");
    switch (model) {
    case LatentModel::Ppca:
        if (method == LatentMethod::ClosedForm)
            return std::make_unique<ClosedFormFit>(rows, options.latent);
        return std::make_unique<PpcaFit>(rows, options);
    case LatentModel::Mppca:
        return std::make_unique<MppcaFit>(rows, options);
    case LatentModel::Fa:
        break;
    }
    switch (method) {
    case LatentMethod::Em:
        return std::make_unique<FaEmFit>(rows, options.latent,
                                         priorFor(LatentMethod::Em, options.prior));
    case LatentMethod::Gibbs:
        return std::make_unique<GibbsFit>(rows, options);
    case LatentMethod::Svd:
        return std::make_unique<SvdFit>(rows, options.latent);
    default:
        return std::make_unique<OnlineFit>(rows, method, options);
    }
}

} // namespace fa
