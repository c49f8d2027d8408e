#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeParams.h"

#include "core/lab/Checkpoints.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeMetrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace fa {
namespace {

/// The encoder-gradient study at checkpoint epoch t takes the trial's stream VaeScoringBase +
/// kStudyOffset + t: past every method's scoring stream (VaeScoringBase + m, m < 64).
constexpr std::uint64_t kStudyOffset = 64;

double mean(const Eigen::RowVectorXd& v) {
    return v.size() ? v.mean() : kNaN;
}

} // namespace

VaeScores scoreVaeFit(const VaeFit& fit, const ConstMatrixRef& testRows,
                      const VaeEvalOptions& options, std::uint64_t seed, VaeTestQ* best,
                      const ScoringPoll& poll) {
    const NlfaModel& model = fit.model();
    ElboPass pass(model.shape);
    Rng rng(seed);
    VaeScores s;
    s.testElbo = s.iwLoglik = s.amortisationGap = s.approximationGap = s.minEss = kNaN;
    if (poll.stop())
        return s;
    Matrix M, L;
    fit.trainPosterior(M, L);
    s.trainElbo = model.linear() ? mean(linearElbo(model, fit.rows(), M, L))
                                 : mean(elboEstimate(pass, model, fit.rows(), M, L, 1, rng, poll));
    if (testRows.rows() == 0 || poll.cancelled())
        return s;
    const Matrix X = testRows.transpose();
    const Rng elboRng(deriveSeed(seed, SeedStream::VaeTestElboDraws));
    double encoderElbo = kNaN;
    if (fit.amortised()) {
        fit.encode(X, M, L);
        // The same draws ε for the encoder's ELBO and q*'s: their difference (the amortisation
        // gap) then carries less Monte Carlo noise.
        Rng common = elboRng;
        encoderElbo =
            model.linear()
                ? mean(linearElbo(model, X, M, L))
                : mean(elboEstimate(pass, model, X, M, L, options.elboSamples, common, poll));
    } else {
        // No encoder (vEM): start each row's q* from the stored q of its nearest training row.
        Matrix trainM, trainL;
        fit.trainPosterior(trainM, trainL);
        const Matrix& T = fit.rows();
        const Vector norms = T.colwise().squaredNorm().transpose();
        M.resize(model.latent(), X.cols());
        L.resize(model.latent(), X.cols());
        for (Eigen::Index n = 0; n < X.cols(); ++n) {
            if (poll.stop())
                return s;
            Eigen::Index nearest = 0;
            (norms - 2.0 * T.transpose() * X.col(n)).minCoeff(&nearest);
            M.col(n) = trainM.col(nearest);
            L.col(n) = trainL.col(nearest);
        }
    }
    // A warm start only without an encoder: the encoder's q follows the decoder, an earlier
    // q* may not (after a large step it can lie far below the encoder's).
    if (best && !fit.amortised() && best->mean.rows() == model.latent() &&
        best->mean.cols() == X.cols()) {
        M = best->mean;
        L = best->logVar;
    }
    double bestElbo = 0.0;
    if (model.linear()) {
        linearOptimalQ(model, X, M, L);
        bestElbo = mean(linearElbo(model, X, M, L));
        s.iwLoglik = mean(linearLogLik(model, X));
    } else {
        optimiseQ(pass, model, X, M, L, options.qSteps, options.qLr, rng, poll);
        Rng common = elboRng;
        bestElbo = mean(elboEstimate(pass, model, X, M, L, options.elboSamples, common, poll));
        const IwEstimate iw = iwLoglik(pass, model, X, M, L, options.iwSamples, rng, poll);
        s.iwLoglik = mean(iw.logp);
        s.minEss = iw.ess.minCoeff();
    }
    if (best) {
        best->mean = M;
        best->logVar = L;
    }
    s.testElbo = fit.amortised() ? encoderElbo : bestElbo;
    s.amortisationGap = fit.amortised() ? bestElbo - encoderElbo : kNaN;
    s.approximationGap = s.iwLoglik - bestElbo;
    return s;
}

std::vector<VaeGradRow> vaeGradientStudy(const VaeFit& fit, int draws, std::uint64_t seed,
                                         const VaeRowKey& key) {
    const std::optional<NetworkEncoder> encoder = fit.networkEncoder();
    if (!encoder)
        return {};
    const VaeOptions& o = fit.options();
    const Matrix& X = fit.rows();
    const Eigen::Index rows = std::min<Eigen::Index>(X.cols(), o.batch);
    std::vector<VaeGradRow> out;
    for (const GradientEstimator e : valuesIn(kEstimatorNames)) {
        if (e == GradientEstimator::ScoreBaseline && o.encoderSamples < 2)
            continue; // nothing to leave out
        Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(e)));
        const GradientSpread spread = encoderGradientSpread(fit.model(), *encoder, X.leftCols(rows),
                                                            e, o.encoderSamples, draws, rng);
        VaeGradRow r;
        static_cast<VaeRowKey&>(r) = key;
        r.trainedWith = estimatorName(o.encoderGradient);
        r.estimator = estimatorName(e);
        r.samples = o.encoderSamples;
        r.draws = draws;
        r.rows = static_cast<int>(rows);
        r.meanNorm = spread.meanNorm;
        r.variance = spread.variance;
        out.push_back(std::move(r));
    }
    return out;
}

void checkVaeConfig(const VaeConfig& c) {
    if (c.methods.empty())
        throw std::invalid_argument("choose at least one method");
    validate(c.fit);
    checkParams(vaeParams(), c);
    if (c.eval.elboSamples < 1 || c.eval.iwSamples < 1 || c.eval.qSteps < 0)
        throw std::invalid_argument("the evaluation needs at least one sample");
    if (isGeneratedVaeSet(c.data.dataset) && c.fit.latent >= c.data.dim)
        throw std::invalid_argument("the latent dimension K must be smaller than D");
}

namespace {
using Clock = std::chrono::steady_clock;

/// What the pieces of one trial share.
struct VaeTrial {
    const VaeConfig& c;
    int trial;
    std::uint64_t seed;
    const VaeData& data;
    const std::vector<long>& checkpoints;
    const std::function<void(const VaeProgress&)>& progress;
    const std::atomic<bool>* cancel;
};

/// The closed-form PPCA row: its exact log-likelihood per row.
VaeRow ppcaRow(const VaeTrial& t, VaeRow row) {
    const auto start = Clock::now();
    const PpcaModel ppca = ppcaClosedForm(t.data.rows.train, t.c.fit.latent);
    row.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    row.trainElbo = ppcaLoglikPerRow(ppca, t.data.rows.train);
    row.testElbo = row.iwLoglik =
        t.data.rows.test.rows() ? ppcaLoglikPerRow(ppca, t.data.rows.test) : kNaN;
    row.amortisationGap = row.approximationGap = kNaN;
    row.status = "ok";
    return row;
}

/// The fit's scores at `epoch`; nullopt when cancelled. Scoring takes hundreds of passes over
/// the held-out rows (often far longer than an epoch): it says so on the progress line and stops
/// on a cancel.
std::optional<VaeScores> scoreAt(const VaeTrial& t, const VaeFit& fit, const std::string& method,
                                 std::uint64_t index, long epoch) {
    ScoringPoll poll{t.cancel, {}};
    if (t.progress)
        poll.tick = [&] { t.progress({t.trial, t.c.trials, method, epoch, t.c.epochs, true}); };
    const VaeScores s =
        scoreVaeFit(fit, t.data.rows.test, t.c.eval,
                    deriveSeed(t.seed, SeedStream::VaeScoringBase, index), nullptr, poll);
    if (poll.cancelled())
        return std::nullopt;
    return s;
}

/// The encoder-gradient study at the row's checkpoint, handed to the configuration's hook.
void studyAt(const VaeTrial& t, const VaeFit& fit, const VaeRow& row) {
    const auto rows = vaeGradientStudy(
        fit, t.c.gradDraws,
        deriveSeed(t.seed, SeedStream::VaeScoringBase, kStudyOffset + std::uint64_t(row.epoch)),
        row);
    if (!rows.empty())
        t.c.gradientStudy(rows);
}

void setScores(VaeRow& row, const VaeScores& s) {
    static_cast<VaeScoreColumns&>(row) = s;
    row.minEss = s.minEss;
}

/// Trains a method's fit for the configured epochs and appends its rows at the checkpoints, up
/// to a divergence; false when cancelled.
bool appendFitRows(const VaeTrial& t, VaeMethod method, VaeRow row, std::vector<VaeRow>& out) {
    const auto index = static_cast<std::uint64_t>(method);
    VaeOptions options = t.c.fit;
    options.seed = deriveSeed(t.seed, SeedStream::VaeMethodBase, index);
    auto fit = makeVaeFit(method, t.data.rows.train, options);
    row.hidden = fit->model().shape.name();
    double seconds = 0.0;
    std::size_t next = 0;
    for (long epoch = 1; epoch <= t.c.epochs; ++epoch) {
        if (t.cancel && t.cancel->load())
            return false;
        const auto start = Clock::now();
        fit->epoch();
        seconds += std::chrono::duration<double>(Clock::now() - start).count();
        if (t.progress)
            t.progress({t.trial, t.c.trials, row.method, epoch, t.c.epochs});
        const bool last = epoch == t.c.epochs || fit->diverged();
        if (next >= t.checkpoints.size() || (t.checkpoints[next] != epoch && !last))
            continue;
        ++next;
        row.epoch = epoch;
        row.seconds = seconds;
        if (fit->diverged()) {
            row.trainElbo = row.testElbo = row.iwLoglik = kNaN;
            row.amortisationGap = row.approximationGap = kNaN;
            row.status = "diverged";
            out.push_back(row);
            break;
        }
        const std::optional<VaeScores> s = scoreAt(t, *fit, row.method, index, epoch);
        if (!s)
            return false;
        setScores(row, *s);
        const bool finite = std::isfinite(s->trainElbo);
        row.status = !finite ? "diverged" : fit->floored() ? "psi-floor" : "ok";
        out.push_back(row);
        if (!finite)
            break;
        if (t.c.gradientStudy && !(t.cancel && t.cancel->load()))
            studyAt(t, *fit, row);
    }
    return true;
}

/// One trial's rows; none when cancelled (the unfinished trial is dropped).
std::vector<VaeRow> runVaeTrial(const VaeConfig& c, int trial,
                                const std::function<void(const VaeProgress&)>& progress,
                                const std::atomic<bool>* cancel) {
    const std::vector<long> checkpoints = latentCheckpoints(c.epochs);
    const std::uint64_t trialSeed = deriveSeed(c.seed, static_cast<std::uint64_t>(trial));
    VaeDataSpec spec = c.data;
    spec.splitSeed = trialSeed;
    spec.modelSeed = c.seed;
    const VaeData data = makeVaeData(spec, c.loader);
    const VaeTrial t{c, trial, trialSeed, data, checkpoints, progress, cancel};
    std::vector<VaeRow> rows;
    for (const VaeMethod method : c.methods) {
        VaeRow row;
        row.dataset = data.rows.name;
        row.method = vaeMethodName(method);
        row.latent = c.fit.latent;
        row.trial = trial;
        if (method == VaeMethod::Ppca)
            rows.push_back(ppcaRow(t, row));
        else if (!appendFitRows(t, method, row, rows))
            return {};
    }
    return rows;
}
} // namespace

std::vector<VaeRow> runVae(const VaeConfig& c,
                           const std::function<void(const VaeProgress&)>& progress,
                           const std::atomic<bool>* cancel) {
    checkVaeConfig(c);
    // One trial and two threads or more: the second core splits each batch's products (the
    // rows do not depend on it, core/math/ForkJoin.h); several trials keep one thread each.
    VaeConfig run = c;
    if (shardTrials(c.trials, c.shard).size() == 1 && resolveThreads(c.threads, 2) >= 2)
        run.fit.batchThreads = 2;
    return runShardTrials<VaeRow>(
        c.trials, c.shard, c.threads, progress,
        [&](int trial, const auto& report) { return runVaeTrial(run, trial, report, cancel); },
        cancel);
}

} // namespace fa
