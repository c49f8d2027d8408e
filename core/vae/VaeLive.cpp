#include "core/vae/VaeLive.h"
#include "core/vae/VaeParams.h"

#include "core/lab/TrialRunner.h"
#include "core/vae/VaeMetrics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace fa {
namespace {

bool scoredEpoch(long epoch, long length, int every) {
    return epoch <= 3 || epoch == 5 || epoch == 10 || epoch % every == 0 || epoch == length;
}

} // namespace

VaeLive::VaeLive(const VaeLiveConfig& config, AbandonFlag abandon)
    : ConfiguredRun(config, "epochs", std::move(abandon)) {
    if (m_config.methods.empty())
        throw std::invalid_argument("choose at least one method");
    validate(m_config.fit);
    checkParams(vaeLiveParams(), m_config);
    if (m_config.scoreEvery < 1 || m_config.maxPoints < 1)
        throw std::invalid_argument("scoring needs at least one epoch and one row");
    const std::uint64_t trialSeed = deriveSeed(m_config.data.modelSeed, SeedStream::FirstTrial);
    VaeDataSpec spec = m_config.data;
    spec.splitSeed = trialSeed; // trial 0 of `faexplorer-cli vae --seed S`
    m_data = makeVaeData(spec, m_config.loader);
    const Matrix& train = m_data.rows.train;
    const Matrix& test = m_data.rows.test;
    if (m_config.fit.latent >= train.cols())
        throw std::invalid_argument("the latent dimension K must be smaller than D (" +
                                    std::to_string(train.cols()) + ")");
    const bool held = test.rows() > 0;
    const Matrix& shownFrom = held ? test : train;
    const Eigen::Index shown = std::min<Eigen::Index>(shownFrom.rows(), m_config.maxPoints);
    m_shown = shownFrom.topRows(shown).transpose();
    const Vector& position = held ? m_data.testPosition : m_data.trainPosition;
    if (position.size() > 0)
        m_shownColour = position.head(shown);
    for (const VaeMethod method : m_config.methods) {
        auto f = std::make_unique<Fitted>();
        f->method = method;
        const auto index = static_cast<std::uint64_t>(method);
        f->scoreSeed = deriveSeed(trialSeed, SeedStream::VaeScoringBase, index);
        if (method == VaeMethod::Ppca) {
            m_ppca = ppcaClosedForm(train, m_config.fit.latent);
            m_hasPpca = true;
            VaeCurvePoint p;
            p.trainElbo = ppcaLoglikPerRow(m_ppca, train);
            p.testElbo = p.iwLoglik = held ? ppcaLoglikPerRow(m_ppca, test) : kNaN;
            p.amortisationGap = p.approximationGap = kNaN;
            f->curve.push_back(p);
            f->last = p;
            VaeRow row;
            row.dataset = m_data.rows.name;
            row.method = vaeMethodName(method);
            row.latent = m_config.fit.latent;
            row.trainElbo = p.trainElbo;
            row.testElbo = row.iwLoglik = p.testElbo;
            row.amortisationGap = row.approximationGap = kNaN;
            row.status = "ok";
            f->rows.push_back(row);
        } else {
            VaeOptions options = m_config.fit;
            options.seed = deriveSeed(trialSeed, SeedStream::VaeMethodBase, index);
            // The second core splits the VAE's batch products, as for one trial of the CLI (the
            // numbers do not depend on it: core/math/ForkJoin.h).
            options.batchThreads = resolveThreads(0, 2) >= 2 ? 2 : 1;
            f->fit = makeVaeFit(method, train, options);
            f->fit->abandonOn(abandonFlag());
        }
        m_fits.push_back(std::move(f));
    }
    setView(m_config.viewX, m_config.viewY);
    setColourBy(m_config.colourBy);
    setViewMethod(m_config.viewMethod);
}

VaeLive::~VaeLive() = default;

long VaeLive::advance(long epochs) {
    using Clock = std::chrono::steady_clock;
    long done = 0;
    while (done < epochs && m_position < m_config.length) {
        for (auto& f : m_fits)
            if (f->fit && !f->fit->diverged()) {
                const auto start = Clock::now();
                f->fit->epoch();
                f->seconds += std::chrono::duration<double>(Clock::now() - start).count();
            }
        if (abandoned()) // the window closed mid-epoch: nothing more is shown
            return done;
        ++m_position;
        ++done;
        record();
    }
    return done;
}

void VaeLive::record() {
    const bool scored = scoredEpoch(m_position, m_config.length, m_config.scoreEvery);
    // Every held-out row on a scored epoch (as the CLI and PPCA's level), none otherwise.
    const Matrix none(0, m_data.rows.test.cols());
    const Matrix& held = scored ? m_data.rows.test : none;
    for (auto& f : m_fits) {
        if (abandoned()) // the window closed: what the scoring would show is never shown
            return;
        if (!f->fit || f->status == "diverged")
            continue;
        VaeCurvePoint p;
        p.epoch = m_position;
        p.testElbo = p.iwLoglik = p.amortisationGap = p.approximationGap = kNaN;
        if (f->fit->diverged()) {
            f->status = "diverged";
            p.trainElbo = kNaN;
        } else {
            const VaeScores s = scoreVaeFit(
                *f->fit, held, m_config.eval,
                deriveSeed(f->scoreSeed, static_cast<std::uint64_t>(m_position)), &f->best,
                ScoringPoll{abandonFlag(), {}}); // cut between passes when abandoned
            if (abandoned())
                return;
            p.trainElbo = s.trainElbo;
            if (scored) {
                p.testElbo = s.testElbo;
                p.iwLoglik = s.iwLoglik;
                p.amortisationGap = s.amortisationGap;
                p.approximationGap = s.approximationGap;
            }
            f->status = !std::isfinite(s.trainElbo) ? "diverged"
                        : f->fit->floored()         ? "psi-floor"
                                                    : "ok";
        }
        f->curve.push_back(p);
        if (!scored && f->status != "diverged")
            continue;
        f->last = p;
        VaeRow row;
        row.dataset = m_data.rows.name;
        row.method = vaeMethodName(f->method);
        row.hidden = f->fit->model().shape.name();
        row.latent = m_config.fit.latent;
        row.epoch = m_position;
        static_cast<VaeScoreColumns&>(row) = p;
        row.seconds = f->seconds;
        row.status = f->status;
        f->rows.push_back(row);
    }
}

std::vector<VaeRow> VaeLive::rows() const {
    std::vector<VaeRow> out;
    for (const auto& f : m_fits)
        out.insert(out.end(), f->rows.begin(), f->rows.end());
    return out;
}

void VaeLive::setView(int x, int y) {
    viewPlane(m_data.rows.train, x, y, m_plane, m_planeMean); // core/data/LatentData.h
    m_config.viewX = x;
    m_config.viewY = y;
}

void VaeLive::setColourBy(int column) {
    if (column < -1 || column >= m_data.rows.train.cols())
        throw std::invalid_argument("the colour must be a column of the data or the position");
    m_config.colourBy = column;
}

void VaeLive::setViewMethod(int index) {
    if (index < 0 || index >= static_cast<int>(m_config.methods.size()))
        throw std::invalid_argument("the view shows one of the chosen methods");
    m_config.viewMethod = index;
}

void VaeLive::setLength(long length) {
    if (length < 1 || length > 10'000'000)
        throw std::invalid_argument("the number of epochs must lie between 1 and 10000000");
    keepLength(length);
}

} // namespace fa
