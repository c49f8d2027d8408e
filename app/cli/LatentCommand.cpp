// faexplorer-cli latent: every way of fitting FA, PPCA or a mixture of PPCA on one data set
// (generated, bundled or a CSV), one row per (trial, method, checkpoint iteration).
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/ExperimentRunner.h"
#include "core/fa/ModelGenerator.h"
#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
#include "core/io/ImageSets.h"
#include "core/io/ReadOnce.h"
#include "core/io/RegressionCsv.h"
#include "core/lab/Methods.h"
#include "core/latent/FaGibbs.h"
#include "core/latent/LatentCsv.h"
#include "core/latent/LatentExperiment.h"
#include "core/latent/LatentParams.h"
#include "core/math/Summary.h"

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
    "FA, PPCA and mixture-of-PPCA fitters on generated, bundled or CSV data: one row per (trial, "
    "method, checkpoint iteration) with the log-likelihood per row of the fitting and the "
    "held-out rows, the ELBO where one applies and, on generated data, the distance to the true "
    "covariance.";

/// The options of this command alone (experimentOptions adds the shared ones).
const std::vector<OptionHelp>& ownOptions() {
    static const std::vector<OptionHelp> o{
        {"dataset", "synthetic",
         "synthetic, boston, concrete, energy, yacht, fashion-mnist, digits or PATH.csv. "
         "Pictures are pixels in [0, 1] (value / 255 or / 16), dequantised by a uniform jitter "
         "within each step, not z-scored; the last rows, in the files' order, are held out."},
        {"model", "fa", "fa, ppca or mppca (a mixture of PPCA)."},
        {"method", "em",
         "Comma list; fa: em, gibbs, svd, online-em, online-sga; ppca: closed-form, em; mppca: "
         "em."},
        {"prior", "none",
         "One prior for FA's em and gibbs: none (em: maximum likelihood), jeffreys or improper "
         "(two names of the slides' p ∝ Π ψ_d⁻¹: em MAP, gibbs the joint normal-inverse-χ² "
         "draw), conjugate (ν₀ = 1, τ₀² = 0.1 v_d, λ₀ = 1: em MAP, gibbs the joint draw) or "
         "independent (gibbs' own priors). A method the word does not fit keeps its default (em "
         "none, gibbs independent); a word no chosen method takes is refused. PPCA's em: none or "
         "independent (MAP under w_k ~ N(0, 1/α), σ² ~ IG(1, 0.1 v̄); α is --alpha)."},
        {"imputation", "",
         "PATH.csv (with --hide-fraction): per trial and checkpoint, the RMSE over the hidden "
         "entries of the fit's E[x_miss | x_obs] and of the column means."},
        {"gibbs-summary", "",
         "PATH.csv: Gibbs's summary of every tracked entry of C = F Fᵀ + Ψ after the last sweep, "
         "per trial: posterior mean, 95 % interval, split-R̂ and effective sample size."},
        {"missing", "refuse", "refuse, or em: a CSV's empty cells are missing values (PPCA's EM)."},
        {"spectrum", "1:10", "synthetic: the generator's range a:b of s²."},
        classesOption(),
        dataDirOption()};
    return o;
}

/// --prior WORD: FA's em and gibbs or PPCA's em, and some chosen method must take the word's
/// prior.
void checkPrior(const std::string& word, const LatentConfig& c) {
    if (c.data.model == LatentModel::Mppca)
        throw std::invalid_argument("--prior applies to FA's batch EM and Gibbs and to PPCA's EM "
                                    "(--model fa or ppca)");
    for (const LatentMethod m : c.methods)
        if (modelTakesPrior(c.data.model, m, c.fit.prior))
            return;
    if (c.data.model == LatentModel::Ppca)
        throw std::invalid_argument("--prior " + word +
                                    " fits none of the chosen methods (ppca: em takes none or "
                                    "independent, MAP under w_k ~ N(0, 1/α), σ² ~ IG(1, 0.1 v̄); "
                                    "closed-form none)");
    throw std::invalid_argument("--prior " + word +
                                " fits none of the chosen methods (em: none, jeffreys or "
                                "improper, conjugate; gibbs: jeffreys or improper, conjugate, "
                                "independent)");
}

LatentConfig parseConfig(const ArgParser& args) {
    LatentConfig c;
    LatentDataSpec& d = c.data;
    d.dataset = args.text("dataset", "synthetic");
    d.model = parseLatentModel(args.text("model", "fa"));
    c.methods = methodsArg(args, "em", Lab::Latent, parseLatentMethod);
    for (const LatentMethod m : c.methods)
        if (!modelOffers(d.model, m))
            throw std::invalid_argument("--method " + latentMethodName(m) +
                                        " does not fit --model " + latentModelName(d.model) +
                                        " (fa: em, gibbs, svd, online-em, online-sga; ppca: "
                                        "closed-form, em; mppca: em)");
    // The mixture's own defaults (K = 1 per piece in D = 3, the window's too), then the schema.
    if (d.model == LatentModel::Mppca) {
        c.fit.latent = d.synthetic.trueLatent = 1;
        d.synthetic.dim = 3;
    }
    readParams(args, latentParams(), c);
    if (!args.has("burn-in"))
        c.fit.burnIn = c.iterations / 2;
    if (args.has("components") && d.model != LatentModel::Mppca)
        throw std::invalid_argument("--components applies to --model mppca only");
    c.threads = threadsOption(args);
    c.shard = shardOption(args, c.trials);
    const std::string missing = args.text("missing", "refuse");
    if (missing != "refuse" && missing != "em")
        throw std::invalid_argument("--missing must be refuse or em");
    d.allowMissing = missing == "em";
    if (d.allowMissing && (d.model != LatentModel::Ppca || c.methods.size() != 1 ||
                           c.methods.front() != LatentMethod::Em))
        throw std::invalid_argument(
            "--missing em: only PPCA by EM handles missing values (--model ppca --method em)");
    if (args.has("burn-in") && c.fit.burnIn >= c.iterations &&
        std::find(c.methods.begin(), c.methods.end(), LatentMethod::Gibbs) != c.methods.end())
        throw std::invalid_argument("--burn-in " + std::to_string(c.fit.burnIn) +
                                    " leaves no draw of the " + std::to_string(c.iterations) +
                                    " iterations to keep");
    c.fit.prior = parseFaPrior(args.text("prior", "none"));
    if (args.has("prior"))
        checkPrior(args.text("prior", ""), c);
    const bool ppcaEm =
        d.model == LatentModel::Ppca &&
        std::find(c.methods.begin(), c.methods.end(), LatentMethod::Em) != c.methods.end();
    if (args.has("alpha") && !(ppcaEm && c.fit.prior == FaPrior::Independent))
        throw std::invalid_argument(
            "--alpha applies to PPCA's MAP (--model ppca --method em --prior independent)");
    const bool holes = d.hideFraction > 0.0 || d.hideBlock > 0;
    if (holes && !(ppcaEm && c.methods.size() == 1))
        throw std::invalid_argument(std::string("--") +
                                    (d.hideBlock > 0 ? "hide-block" : "hide-fraction") +
                                    ": only PPCA by EM fits rows with holes "
                                    "(--model ppca --method em)");
    if (args.has("imputation") && !holes)
        throw std::invalid_argument("--imputation needs --hide-fraction above 0 or --hide-block "
                                    "(hidden values to score against)");
    if (args.has("gibbs-summary") &&
        std::find(c.methods.begin(), c.methods.end(), LatentMethod::Gibbs) == c.methods.end())
        throw std::invalid_argument("--gibbs-summary needs --method gibbs");

    const bool synthetic = d.dataset == "synthetic";
    const bool pictures = io::isImageDataset(d.dataset);
    d.images = imageQueryOption(args, pictures, d.synthetic.samples);
    for (const char* flag : {"dim", "true-latent", "spectrum", "samples", "noise"})
        if (!synthetic && args.has(flag) && !(pictures && std::string(flag) == "samples"))
            throw std::invalid_argument(
                std::string("--") + flag + " applies to --dataset synthetic" +
                (std::string(flag) == "samples" ? " and the image sets" : "") + " only");
    if (synthetic && args.has("missing") && d.allowMissing)
        throw std::invalid_argument("--missing em: generated data have no missing values");
    SyntheticLatentSpec& s = d.synthetic;
    if (s.trueLatent >= s.dim)
        throw std::invalid_argument("--true-latent must be below --dim (" + std::to_string(s.dim) +
                                    ")");
    const auto [lo, hi] = args.range("spectrum", {1.0, 10.0});
    if (!(lo >= kSpectrumMin && hi <= kSpectrumMax && lo <= hi))
        throw std::invalid_argument("--spectrum a:b needs 0.0001 <= a <= b <= 1e9");
    s.spectrumLo = lo;
    s.spectrumHi = hi;
    s.components = c.fit.components;
    c.loader = io::readOnce(io::tableLoader(args.text("data-dir", ""))); // one table, every trial
    checkLatentConfig(c);
    return c;
}

void printSummary(const LatentConfig& c, const std::vector<LatentRow>& rows, bool interrupted) {
    if (rows.empty())
        return;
    const bool truth = !std::isnan(rows.front().relCovDist);
    std::printf("latent %s, model %s, K = %d, %ld iteration(s)%s: last iteration, mean ± standard "
                "error over trials\n",
                rows.front().dataset.c_str(), rows.front().model.c_str(), c.fit.latent,
                c.iterations, interrupted ? " (interrupted: finished trials only)" : "");
    std::printf("%-12s  %-22s  %-22s  %s%-10s  %s\n", "method", "loglik/row", "held-out/row",
                truth ? "rel_cov_dist            " : "", "seconds", "status");
    for (const LatentMethod m : c.methods) {
        const std::string name = latentMethodName(m);
        std::vector<double> ll, held, secs, dist;
        std::string statuses;
        std::set<std::string> floored;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const LatentRow& r = rows[i];
            const bool last = i + 1 == rows.size() || rows[i + 1].method != r.method ||
                              rows[i + 1].trial != r.trial;
            if (r.method != name || !last)
                continue;
            ll.push_back(r.loglik);
            if (!std::isnan(r.heldout))
                held.push_back(r.heldout);
            if (!std::isnan(r.relCovDist))
                dist.push_back(r.relCovDist);
            secs.push_back(r.seconds);
            if (statuses.find(r.status) == std::string::npos)
                statuses += (statuses.empty() ? "" : ",") + r.status;
            floored.insert(r.floored.begin(), r.floored.end());
        }
        const MeanStdErr a = meanStdErr(ll), b = meanStdErr(held), t = meanStdErr(secs),
                         e = meanStdErr(dist);
        char heldText[48] = "-", distText[48] = "";
        if (!held.empty())
            std::snprintf(heldText, sizeof heldText, "%.4f ± %.4f", b.mean, b.stdErr);
        if (truth)
            std::snprintf(distText, sizeof distText, "%-22s  ",
                          dist.empty() ? "-"
                                       : (std::to_string(e.mean).substr(0, 8) + " ± " +
                                          std::to_string(e.stdErr).substr(0, 8))
                                             .c_str());
        std::string flooredText;
        for (const auto& f : floored)
            flooredText += (flooredText.empty() ? " (Heywood, ψ → floor: " : ", ") + f;
        if (!flooredText.empty())
            flooredText += ")";
        std::printf("%-12s  %9.4f ± %-10.4f  %-22s  %s%-10.4f  %s%s\n", name.c_str(), a.mean,
                    a.stdErr, heldText, distText, t.mean, statuses.c_str(), flooredText.c_str());
    }
}

/// With hidden entries: each method's imputation RMSE at the last iteration against the
/// column means', mean ± standard error over trials.
void printImputation(const LatentConfig& c, const std::vector<LatentRow>& rows) {
    for (const LatentMethod m : c.methods) {
        const std::string name = latentMethodName(m);
        std::vector<double> fitted, means;
        long hidden = 0;
        double share = 0.0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const LatentRow& r = rows[i];
            const bool last = i + 1 == rows.size() || rows[i + 1].method != r.method ||
                              rows[i + 1].trial != r.trial;
            if (r.method != name || !last || r.imputation.hidden == 0)
                continue;
            fitted.push_back(r.imputation.conditionalMean);
            means.push_back(r.imputation.columnMean);
            hidden = r.imputation.hidden;
            share = r.imputation.hideFraction; // a square's share is the realised one
        }
        if (fitted.empty())
            continue;
        const MeanStdErr a = meanStdErr(fitted), b = meanStdErr(means);
        std::printf("imputation, %s: %ld hidden entries (%g of the fitting rows' observed "
                    "entries), RMSE of E[x_miss | x_obs] %.4f ± %.4f, of the column means "
                    "%.4f ± %.4f\n",
                    name.c_str(), hidden, share, a.mean, a.stdErr, b.mean, b.stdErr);
    }
}

std::vector<OptionHelp> allOptions() {
    std::vector<OptionHelp> all = experimentOptions(ownOptions(), latentParams());
    for (OptionHelp& o : all)
        if (o.flag == "burn-in")
            o.value = "ITERATIONS/2";
    return all;
}

/// --gibbs-summary: each trial's Gibbs summaries as CSV rows, written in trial order.
class GibbsSummaries {
  public:
    void add(int trial, const LatentFit& fit, const std::vector<std::string>& columns) {
        if (!fit.gibbs())
            return;
        std::ostringstream out;
        for (const GibbsEntrySummary& s : fit.gibbs()->summary())
            out << trial << ',' << io::textCell(columns[std::size_t(s.row)]) << ','
                << io::textCell(columns[std::size_t(s.col)]) << ',' << io::optionalCell(s.mean)
                << ',' << io::optionalCell(s.lower) << ',' << io::optionalCell(s.upper) << ','
                << io::optionalCell(s.rhat) << ',' << io::optionalCell(s.ess) << '\n';
        const std::lock_guard<std::mutex> guard(m_lock);
        m_rows[trial] = out.str();
    }
    void write(const std::string& path) const {
        io::AtomicFile file(path);
        file.stream() << "trial,row,col,mean,lower,upper,rhat,ess\n";
        for (const auto& [trial, rows] : m_rows)
            file.stream() << rows;
        file.commit();
    }

  private:
    std::mutex m_lock;
    std::map<int, std::string> m_rows;
};

int run(const ArgParser& args, const LatentConfig& given) {
    LatentConfig config = given;
    GibbsSummaries summaries;
    if (args.has("gibbs-summary"))
        config.finished = [&summaries](int trial, const LatentFit& fit,
                                       const std::vector<std::string>& columns) {
            summaries.add(trial, fit, columns);
        };
    requireOutput(args);
    refuseOutputOverDataset(args, "synthetic", config.data.dataset == "synthetic",
                            {"gibbs-summary", "imputation"});
    // Bad files and shapes are named before the output exists: every trial's data (its split
    // may leave a constant column) and, on the first, every fit are built once (cheap next to
    // the run).
    {
        LatentDataSpec spec = config.data;
        spec.modelSeed = config.seed;
        const bool generated = config.data.dataset == "synthetic"; // never a constant column
        for (int trial = generated ? 0 : config.trials - 1; trial >= 1; --trial) {
            spec.splitSeed = deriveSeed(config.seed, static_cast<std::uint64_t>(trial));
            (void)makeLatentData(spec, config.loader);
        }
        spec.splitSeed = deriveSeed(config.seed, SeedStream::FirstTrial);
        const LatentData data = makeLatentData(spec, config.loader);
        if (!data.leftOut.empty()) {
            std::string names;
            for (const auto& n : data.leftOut)
                names += (names.empty() ? "" : ", ") + n;
            std::fprintf(stderr, "latent: columns of words left out (not modelled): %s\n",
                         names.c_str());
        }
        for (const LatentMethod m : config.methods)
            if (m != LatentMethod::Svd)
                (void)makeLatentFit(spec.model, m, data.train, config.fit);
            else if (config.fit.latent >= data.train.cols())
                throw std::invalid_argument("the latent dimension K must satisfy 1 <= K < D");
    }
    using Rows = std::vector<LatentRow>;
    return runExperiment<Rows>(
        args, {"latent", "trial", config.trials, config.shard, true},
        [&](ProgressLine& progress, const std::atomic<bool>* cancel) {
            return runLatent(
                config,
                [&](const LatentProgress& p) {
                    progress.report(p.trial, p.trials, "%s: iteration %ld/%ld", p.method.c_str(),
                                    p.iteration, p.iterations);
                },
                cancel);
        },
        [](std::ostream& csv, Rows& rows) { io::writeLatentCsv(csv, rows); },
        [&](const Rows& rows, bool interrupted) {
            printSummary(config, rows, interrupted);
            printImputation(config, rows);
            if (args.has("gibbs-summary"))
                summaries.write(args.text("gibbs-summary", ""));
            if (args.has("imputation")) {
                io::AtomicFile file(args.text("imputation", ""));
                io::writeImputationCsv(file.stream(), rows);
                file.commit();
            }
        });
}

} // namespace

const CommandSpec& latentCommand() {
    static const ExperimentCommand<LatentConfig> command{
        "latent",    kSummary, allOptions(),
        parseConfig, run,      "\n--model mppca starts from --latent 1 --dim 3 --true-latent 1.\n"};
    return command;
}

} // namespace fa::cli
