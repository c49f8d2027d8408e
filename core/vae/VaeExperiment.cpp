#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeParams.h"

#include "core/lab/Checkpoints.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeMetrics.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
/// One trial's rows; none when cancelled (the unfinished trial is dropped).
std::vector<VaeRow> runVaeTrial(const VaeConfig& c, int trial,
                                const std::function<void(const VaeProgress&)>& progress,
                                const std::atomic<bool>* cancel) {
    using Clock = std::chrono::steady_clock;
    const std::vector<long> checkpoints = latentCheckpoints(c.epochs);
    std::vector<VaeRow> rows;
    {
        const std::uint64_t trialSeed = deriveSeed(c.seed, static_cast<std::uint64_t>(trial));
        VaeDataSpec spec = c.data;
        spec.splitSeed = trialSeed;
        spec.modelSeed = c.seed;
        const VaeData data = makeVaeData(spec, c.loader);
        std::vector<VaeRow> trialRows;
        for (const VaeMethod method : c.methods) {
            const auto index = static_cast<std::uint64_t>(method);
            VaeRow row;
            row.dataset = data.rows.name;
            row.method = vaeMethodName(method);
            row.latent = c.fit.latent;
            row.trial = trial;
            if (method == VaeMethod::Ppca) {
                const auto start = Clock::now();
                const PpcaModel ppca = ppcaClosedForm(data.rows.train, c.fit.latent);
                row.seconds = std::chrono::duration<double>(Clock::now() - start).count();
                row.trainElbo = ppcaLoglikPerRow(ppca, data.rows.train);
                row.testElbo = row.iwLoglik =
                    data.rows.test.rows() ? ppcaLoglikPerRow(ppca, data.rows.test) : kNaN;
                row.amortisationGap = row.approximationGap = kNaN;
                row.status = "ok";
                trialRows.push_back(row);
                continue;
            }
            VaeOptions options = c.fit;
            options.seed = deriveSeed(trialSeed, SeedStream::VaeMethodBase, index);
            auto fit = makeVaeFit(method, data.rows.train, options);
            row.hidden = fit->model().shape.name();
            double seconds = 0.0;
            std::size_t next = 0;
            for (long epoch = 1; epoch <= c.epochs; ++epoch) {
                if (cancel && cancel->load())
                    return {};
                const auto start = Clock::now();
                fit->epoch();
                seconds += std::chrono::duration<double>(Clock::now() - start).count();
                if (progress)
                    progress({trial, c.trials, row.method, epoch, c.epochs});
                const bool last = epoch == c.epochs || fit->diverged();
                if (next >= checkpoints.size() || (checkpoints[next] != epoch && !last))
                    continue;
                ++next;
                row.epoch = epoch;
                row.seconds = seconds;
                if (fit->diverged()) {
                    row.trainElbo = row.testElbo = row.iwLoglik = kNaN;
                    row.amortisationGap = row.approximationGap = kNaN;
                    row.status = "diverged";
                    trialRows.push_back(row);
                    break;
                }
                // Scoring takes hundreds of passes over the held-out rows (often far longer
                // than an epoch): it says so on the progress line and stops on a cancel.
                ScoringPoll poll{cancel, {}};
                if (progress)
                    poll.tick = [&] {
                        progress({trial, c.trials, row.method, epoch, c.epochs, true});
                    };
                const VaeScores s = scoreVaeFit(
                    *fit, data.rows.test, c.eval,
                    deriveSeed(trialSeed, SeedStream::VaeScoringBase, index), nullptr, poll);
                if (poll.cancelled())
                    return {};
                row.trainElbo = s.trainElbo;
                row.testElbo = s.testElbo;
                row.iwLoglik = s.iwLoglik;
                row.amortisationGap = s.amortisationGap;
                row.approximationGap = s.approximationGap;
                row.minEss = s.minEss;
                const bool finite = std::isfinite(s.trainElbo);
                row.status = !finite ? "diverged" : fit->floored() ? "psi-floor" : "ok";
                trialRows.push_back(row);
                if (!finite)
                    break;
            }
        }
        rows.insert(rows.end(), trialRows.begin(), trialRows.end());
    }
    return rows;
}
} // namespace

std::vector<VaeRow> runVae(const VaeConfig& c,
                           const std::function<void(const VaeProgress&)>& progress,
                           const std::atomic<bool>* cancel) {
    checkVaeConfig(c);
    std::mutex lock;
    const auto report = serialised(progress, lock);
    return runTrials<VaeRow>(
        shardTrials(c.trials, c.shard), c.threads,
        [&](int trial) { return runVaeTrial(c, trial, report, cancel); }, cancel);
}

} // namespace fa
