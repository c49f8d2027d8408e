// faexplorer-cli vae: nonlinear factor analysis by variational EM, the VAE and the linear VAE
// beside PPCA's closed form, on generated, bundled or CSV data; one row per (trial, method,
// checkpoint epoch) with the ELBOs, the importance-weighted log-likelihood and the two gaps.
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/io/AtomicFile.h"
#include "core/io/ImageSets.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"
#include "core/lab/Methods.h"
#include "core/math/Summary.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeCsv.h"
#include "core/vae/VaeExperiment.h"
#include "core/vae/VaeParams.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fa::cli {
namespace {

const char* const kSummary =
    "Nonlinear factor analysis by variational EM, the VAE and the linear VAE beside PPCA's closed "
    "form, on generated, bundled or CSV data: one row per (trial, method, checkpoint epoch) with "
    "the ELBOs, the importance-weighted log-likelihood and the two gaps.";

/// The options of this command alone (experimentOptions adds the shared ones).
const std::vector<OptionHelp>& ownOptions() {
    static const std::vector<OptionHelp> o{
        {"dataset", "nonlinear-synthetic",
         "nonlinear-synthetic, synthetic (PPCA), two-moons, swiss-roll, pinwheel, boston, "
         "concrete, energy, yacht, fashion-mnist, digits (pixels in [0, 1], dequantised, not "
         "z-scored; the last rows held out) or PATH.csv."},
        {"method", "vae", "Comma list of vem, vae, linear-vae, ppca."},
        {"hidden", "50",
         "The decoder's (and encoder's) hidden layers, a comma list of at most 3 "
         "sizes (each 1 to 10000); 0: none (a linear decoder)."},
        {"activation", "tanh", "tanh or relu."},
        {"precision", "double",
         "The VAE's network products while training: double, or float (single precision, "
         "about twice as fast at image size; the numbers then differ from double's by float's "
         "rounding). Scoring stays in double."},
        {"noise", "diagonal",
         "The decoder's noise for vem and vae: diagonal, isotropic, fixed, or network (σ_d²(z) "
         "from the decoder's own outputs; needs a hidden layer)."},
        {"linear-noise", "isotropic",
         "The linear VAE's noise: diagonal, isotropic or fixed (fixed when --noise is fixed)."},
        {"encoder-gradient", "reparam",
         "The VAE's encoder gradient of E_q[log p(x|z)]: reparam, score (REINFORCE) or "
         "score-baseline (with the leave-one-out baseline; needs --encoder-samples 2 or more). "
         "The decoder's stays pathwise, the KL's exact."},
        {"grad-variance-out", "",
         "PATH.csv: at each checkpoint of the VAE, the spread of its encoder's gradient by each "
         "estimator at the current weights (the baseline with --encoder-samples 2 or more). "
         "Columns dataset, method, latent, hidden, trial, epoch, trained_with, estimator, "
         "samples, draws, rows, mean_norm, variance (the trace of the covariance of --grad-draws "
         "estimates of the per-row mean ELBO's gradient on the first --batch fitting rows)."},
        {"spectrum", "1:10", "synthetic: the generator's range a:b of s²."},
        classesOption(),
        dataDirOption()};
    return o;
}

VaeConfig parseConfig(const ArgParser& args) {
    VaeConfig c;
    VaeDataSpec& d = c.data;
    d.dataset = args.text("dataset", "nonlinear-synthetic");
    c.methods = methodsArg(args, "vae", Lab::Nonlinear, parseVaeMethod);
    readParams(args, vaeParams(), c);
    c.fit.hidden.clear();
    const auto hidden = args.integerList("hidden", {50});
    if (!(hidden.size() == 1 && hidden.front() == 0)) {
        if (hidden.size() > static_cast<std::size_t>(kMaxHiddenLayers))
            throw std::invalid_argument("--hidden: at most three hidden layers (0: none)");
        for (const long h : hidden) {
            if (h < 1 || h > kMaxHiddenUnits)
                throw std::invalid_argument("--hidden: every layer needs between 1 and " +
                                            std::to_string(kMaxHiddenUnits) +
                                            " units (0 alone: none)");
            c.fit.hidden.push_back(static_cast<int>(h));
        }
    }
    c.fit.activation = parseActivation(args.text("activation", "tanh"));
    c.fit.noise = parseNoiseKind(args.text("noise", "diagonal"));
    // The linear VAE is PPCA's model (σ²I learned) unless told otherwise; a fixed σ² is for all.
    c.fit.linearNoise = parseNoiseKind(
        args.text("linear-noise", c.fit.noise == NoiseKind::Fixed ? "fixed" : "isotropic"));
    if ((c.fit.noise == NoiseKind::Fixed) != (c.fit.linearNoise == NoiseKind::Fixed))
        throw std::invalid_argument("--noise fixed and --linear-noise fixed go together (one σ²)");
    if (args.has("noise-variance") && c.fit.noise != NoiseKind::Fixed)
        throw std::invalid_argument("--noise-variance applies to --noise fixed only");
    c.fit.encoderGradient = parseEncoderGradient(args.text("encoder-gradient", "reparam"));
    const bool vae =
        std::find(c.methods.begin(), c.methods.end(), VaeMethod::Vae) != c.methods.end();
    c.fit.floatProducts = requireIn(kPrecisionNames, args.text("precision", "double"), "precision");
    for (const char* flag :
         {"encoder-gradient", "encoder-samples", "grad-variance-out", "precision"})
        if (args.has(flag) && !vae)
            throw std::invalid_argument(std::string("--") + flag +
                                        " applies to the VAE (--method vae) only");
    if (args.has("grad-draws") && !args.has("grad-variance-out"))
        throw std::invalid_argument("--grad-draws applies with --grad-variance-out only");
    c.threads = threadsOption(args);
    c.shard = shardOption(args, c.trials);

    const bool generated = isGeneratedVaeSet(d.dataset);
    const bool synthetic = d.dataset == "synthetic";
    const bool latentSet = synthetic || d.dataset == "nonlinear-synthetic";
    const bool pictures = io::isImageDataset(d.dataset);
    d.images = imageQueryOption(args, pictures, d.samples);
    for (const char* flag : {"dim", "samples", "data-noise"})
        if (!generated && args.has(flag) && !(pictures && std::string(flag) == "samples"))
            throw std::invalid_argument(
                std::string("--") + flag + " applies to the generated data sets" +
                (std::string(flag) == "samples" ? " and the image sets" : "") + " only");
    if (synthetic && args.has("data-noise"))
        throw std::invalid_argument("--data-noise applies to the nonlinear generated sets");
    if (!latentSet && args.has("true-latent"))
        throw std::invalid_argument(
            "--true-latent applies to --dataset synthetic and nonlinear-synthetic only");
    if (!synthetic && args.has("spectrum"))
        throw std::invalid_argument("--spectrum applies to --dataset synthetic only");
    if (!args.has("true-latent"))
        d.trueLatent = std::min(2, d.dim - 1);
    if (d.trueLatent >= d.dim)
        throw std::invalid_argument("--true-latent must be below --dim (" + std::to_string(d.dim) +
                                    ")");
    const auto [lo, hi] = args.range("spectrum", {1.0, 10.0});
    if (!(lo >= 1e-4 && hi <= 1e9 && lo <= hi))
        throw std::invalid_argument("--spectrum a:b needs 0.0001 <= a <= b <= 1e9");
    d.spectrumLo = lo;
    d.spectrumHi = hi;
    c.loader = io::readOnce(io::tableLoader(args.text("data-dir", ""))); // one table, every trial
    checkVaeConfig(c);
    return c;
}

std::string cell(const std::vector<double>& values) {
    if (values.empty())
        return "-";
    const MeanStdErr m = meanStdErr(values);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4f ± %.4f", m.mean, m.stdErr);
    return buf;
}

void printSummary(const VaeConfig& c, const std::vector<VaeRow>& rows, bool interrupted) {
    if (rows.empty())
        return;
    std::printf("vae %s, K = %d, %ld epoch(s)%s: last checkpoint per trial, mean ± standard error "
                "over trials, per row\n",
                rows.front().dataset.c_str(), c.fit.latent, c.epochs,
                interrupted ? " (interrupted: finished trials only)" : "");
    std::printf("%-11s  %-20s  %-20s  %-20s  %-20s  %-20s  %-12s  %s\n", "method", "train ELBO",
                "test ELBO", "test IW log-lik", "amortisation gap", "approximation gap",
                "min IW ESS", "status");
    for (const VaeMethod m : c.methods) {
        const std::string name = vaeMethodName(m);
        std::vector<double> train, test, iw, amort, approx;
        std::string statuses;
        double minEss = INFINITY;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const VaeRow& r = rows[i];
            const bool last = i + 1 == rows.size() || rows[i + 1].method != r.method ||
                              rows[i + 1].trial != r.trial;
            if (r.method != name || !last)
                continue;
            for (auto [v, into] : {std::pair{r.trainElbo, &train},
                                   {r.testElbo, &test},
                                   {r.iwLoglik, &iw},
                                   {r.amortisationGap, &amort},
                                   {r.approximationGap, &approx}})
                if (std::isfinite(v))
                    into->push_back(v);
            if (std::isfinite(r.minEss))
                minEss = std::min(minEss, r.minEss);
            if (statuses.find(r.status) == std::string::npos)
                statuses.append(statuses.empty() ? "" : ",").append(r.status);
        }
        // The smallest effective sample size of any held-out row's IW estimate, out of S (a
        // small one says that row's estimate is still biased low; "exact": linear decoder).
        char ess[32] = "exact";
        if (std::isfinite(minEss))
            std::snprintf(ess, sizeof ess, "%.0f / %d", minEss, c.eval.iwSamples);
        else if (m == VaeMethod::Ppca)
            std::snprintf(ess, sizeof ess, "-");
        std::printf("%-11s  %-20s  %-20s  %-20s  %-20s  %-20s  %-12s  %s\n", name.c_str(),
                    cell(train).c_str(), cell(test).c_str(), cell(iw).c_str(), cell(amort).c_str(),
                    cell(approx).c_str(), ess, statuses.c_str());
    }
}

/// Rows whose per-row log-likelihood or ELBO is beyond kDivergedBeyond nats: `diverged`.
std::vector<VaeRow> markDiverged(std::vector<VaeRow> rows) {
    for (VaeRow& r : rows)
        for (const double v : {r.trainElbo, r.testElbo, r.iwLoglik})
            if (std::isfinite(v) && std::abs(v) > kDivergedBeyond)
                r.status = "diverged";
    return rows;
}

/// --grad-variance-out: the encoder-gradient study's rows, kept per trial and written in trial
/// order for the trials the main CSV holds.
class GradStudyRows {
  public:
    void add(const std::vector<VaeGradRow>& rows) {
        const std::lock_guard<std::mutex> guard(m_lock);
        for (const VaeGradRow& r : rows)
            m_rows[r.trial].push_back(r);
    }
    void write(const std::string& path, const std::vector<VaeRow>& finished) const {
        std::set<int> trials;
        for (const VaeRow& r : finished)
            trials.insert(r.trial);
        std::vector<VaeGradRow> rows;
        for (const auto& [trial, some] : m_rows)
            if (trials.count(trial))
                rows.insert(rows.end(), some.begin(), some.end());
        io::AtomicFile file(path);
        io::writeVaeGradCsv(file.stream(), rows);
        file.commit();
    }

  private:
    std::mutex m_lock;
    std::map<int, std::vector<VaeGradRow>> m_rows;
};

int run(const ArgParser& args, const VaeConfig& given) {
    requireOutput(args);
    refuseOutputOverDataset(args, "nonlinear-synthetic", isGeneratedVaeSet(given.data.dataset),
                            {"grad-variance-out"});
    VaeConfig config = given;
    GradStudyRows study;
    const std::string studyPath = args.text("grad-variance-out", "");
    if (!studyPath.empty())
        config.gradientStudy = [&study](const std::vector<VaeGradRow>& rows) { study.add(rows); };
    // Bad files and shapes are named before the output exists: every trial's data (a split may
    // leave a constant column) is built once, and the first trial's fitters.
    {
        VaeDataSpec spec = config.data;
        spec.modelSeed = config.seed;
        const bool generated = isGeneratedVaeSet(config.data.dataset);
        for (int trial = generated ? 0 : config.trials - 1; trial >= 1; --trial) {
            spec.splitSeed = deriveSeed(config.seed, static_cast<std::uint64_t>(trial));
            (void)makeVaeData(spec, config.loader);
        }
        spec.splitSeed = deriveSeed(config.seed, SeedStream::FirstTrial);
        const VaeData data = makeVaeData(spec, config.loader);
        if (!data.rows.leftOut.empty()) {
            std::string names;
            for (const auto& n : data.rows.leftOut)
                names.append(names.empty() ? "" : ", ").append(n);
            std::fprintf(stderr, "vae: columns of words left out (not modelled): %s\n",
                         names.c_str());
        }
        if (config.fit.latent >= data.rows.train.cols())
            throw std::invalid_argument("the latent dimension K must be smaller than D (" +
                                        std::to_string(data.rows.train.cols()) + ")");
        // As latent: a fit of K factors needs more than K + 1 rows (PPCA's σ² on a 3-row CSV
        // was rounding noise, and its log-likelihood -7.55e16 per row).
        const long k = config.fit.latent, n = static_cast<long>(data.rows.train.rows());
        if (n <= k + 1)
            throw std::invalid_argument("K = " + std::to_string(k) + " needs more than " +
                                        std::to_string(k + 1) + " fitting rows; there are " +
                                        std::to_string(n));
        for (const VaeMethod m : config.methods)
            if (m != VaeMethod::Ppca)
                (void)makeVaeFit(m, data.rows.train, config.fit);
            else
                (void)ppcaClosedForm(data.rows.train, config.fit.latent); // refuses σ² = 0
    }
    using Rows = std::vector<VaeRow>;
    return runExperiment<Rows>(
        args, {"vae", "trial", config.trials, config.shard, true},
        [&](ProgressLine& progress, const std::atomic<bool>* cancel) {
            return markDiverged(runVae(
                config,
                [&](const VaeProgress& p) {
                    // Scoring is reported before each of its passes, so the throttled line
                    // moves on to it however soon after the epoch's line it starts.
                    progress.report(p.trial, p.trials, "%s: %s%ld/%ld", p.method.c_str(),
                                    p.scoring ? "scoring held-out rows after epoch " : "epoch ",
                                    p.epoch, p.epochs);
                },
                cancel));
        },
        [](std::ostream& csv, Rows& rows) { io::writeVaeCsv(csv, rows); },
        [&](const Rows& rows, bool interrupted) {
            printSummary(config, rows, interrupted);
            if (!studyPath.empty())
                study.write(studyPath, rows);
        });
}

} // namespace

const CommandSpec& vaeCommand() {
    static const ExperimentCommand<VaeConfig> command{
        "vae", kSummary, experimentOptions(ownOptions(), vaeParams()), parseConfig, run};
    return command;
}

} // namespace fa::cli
