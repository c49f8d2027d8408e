// One range per parameter everywhere (issue 26): for every parameter of a lab's schema
// (core/<lab>/*Params.h) that the CLI, the session files and the window's fields all take, values
// at, just inside and just outside its range are offered to each of them — the CLI's own
// argument checks (app/cli), the session reader (ui/session) and the page's fields (set from a
// configuration and read back) — and all three must accept exactly the values the schema's range
// holds. The values are generated from the schema, not listed here; only the cross-field rules
// (K < D, σ² only with a fixed noise) get a context, and a CLI refusal counts only when it names
// the option's range (a model too large for memory is another rule), and so for the sessions.
#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "core/explorer/ExplorerParams.h"
#include "core/latent/LatentParams.h"
#include "core/neural/NeuralParams.h"
#include "core/posterior/PosteriorParams.h"
#include "core/vae/VaeParams.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/latent/LatentPage.h"
#include "ui/neural/NeuralPage.h"
#include "ui/nonlinear/NonlinearPage.h"
#include "ui/posterior/PosteriorControls.h"
#include "ui/session/LatentSessionFile.h"
#include "ui/session/NeuralSessionFile.h"
#include "ui/session/PosteriorSessionFile.h"
#include "ui/session/SessionFile.h"
#include "ui/session/VaeSessionFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace {

/// Values to offer: the bounds, a middle one and one step beyond each bound.
std::vector<double> probes(const fa::ParamInfo& p) {
    const double step = p.kind == fa::ParamKind::Whole
                            ? 1.0
                            : std::max(1e-3 * std::max(std::abs(p.lo), std::abs(p.hi)), 1e-9);
    double mid = 0.5 * (p.lo + p.hi);
    if (p.kind == fa::ParamKind::Whole)
        mid = std::floor(mid);
    return {p.lo, p.hi, mid, p.lo - step, p.hi + step};
}

/// The CLI's argument checks' refusal of args, or "" if they take them.
std::string cliRefusal(const fa::cli::CommandSpec& command, const QStringList& args) {
    std::vector<std::string> words{"faexplorer-cli", "command"};
    for (const QString& a : args)
        words.push_back(a.toStdString());
    std::vector<char*> argv;
    for (std::string& w : words)
        argv.push_back(w.data());
    try {
        command.check(static_cast<int>(argv.size()), argv.data());
        return {};
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
}

/// Whether the CLI's argument checks take the value of --flag: it may still refuse the run for
/// another rule (the memory a model of that size needs), which is not the range's business.
bool cliAccepts(const fa::cli::CommandSpec& command, const QStringList& args,
                const std::string& flag) {
    return cliRefusal(command, args).find("--" + flag + " must") == std::string::npos;
}

/// Sets "section.key" of a session's JSON.
QByteArray withValue(const QByteArray& json, const std::string& path, double value) {
    QJsonObject root = QJsonDocument::fromJson(json).object();
    const QString p = QString::fromStdString(path);
    const QString section = p.section('.', 0, 0), key = p.section('.', 1);
    QJsonObject o = root.value(section).toObject();
    o.insert(key, value);
    root.insert(section, o);
    return QJsonDocument(root).toJson();
}

/// A choice of the nonlinear lab: its CLI words, the same in a configuration, and whether the
/// rules of core/vae take it.
struct ChoiceCase {
    const char* what;
    QStringList args;
    std::function<void(fa::VaeLiveConfig&)> set;
    bool accepted;
};
const std::vector<ChoiceCase>& nonlinearChoices() {
    static const std::vector<ChoiceCase> cases{
        {"network noise",
         {"--noise", "network"},
         [](fa::VaeLiveConfig& c) { c.fit.noise = fa::NoiseKind::Network; },
         true},
        {"network noise, linear decoder",
         {"--noise", "network", "--hidden", "0"},
         [](fa::VaeLiveConfig& c) {
             c.fit.noise = fa::NoiseKind::Network;
             c.fit.hidden.clear();
         },
         false},
        {"the linear VAE's network noise",
         {"--method", "linear-vae", "--linear-noise", "network"},
         [](fa::VaeLiveConfig& c) {
             c.methods = {fa::VaeMethod::LinearVae};
             c.fit.linearNoise = fa::NoiseKind::Network;
         },
         false},
        {"score",
         {"--encoder-gradient", "score"},
         [](fa::VaeLiveConfig& c) { c.fit.encoderGradient = fa::GradientEstimator::Score; },
         true},
        {"score-baseline, one draw",
         {"--encoder-gradient", "score-baseline"},
         [](fa::VaeLiveConfig& c) { c.fit.encoderGradient = fa::GradientEstimator::ScoreBaseline; },
         false},
        {"score-baseline, two draws",
         {"--encoder-gradient", "score-baseline", "--encoder-samples", "2"},
         [](fa::VaeLiveConfig& c) {
             c.fit.encoderGradient = fa::GradientEstimator::ScoreBaseline;
             c.fit.encoderSamples = 2;
         },
         true},
        {"float products",
         {"--precision", "float"},
         [](fa::VaeLiveConfig& c) { c.fit.floatProducts = true; },
         true}};
    return cases;
}

} // namespace

/// Offers every probe of every parameter of `live` (the window's schema) to the CLI's checks,
/// the session reader and the page's fields; `context` sets the cross-field rules for one flag
/// in both the configuration and the CLI's arguments. Returns the number of values compared.
template <class Live, class Cli, class Page, class Session, class Context>
int agree(const fa::Schema<Live>& live, const fa::Schema<Cli>& cli,
          const fa::cli::CommandSpec& check, Page& page, QByteArray (*toJson)(const Session&),
          Session (*fromJson)(const QByteArray&), const Context& context) {
    int compared = 0;
    for (const fa::Param<Live>& p : live) {
        // A parameter the CLI takes must be the CLI schema's too (paramByFlag throws if not);
        // one without a flag (the window's alone) or without a session key is compared where
        // it is read.
        if (!p.flag.empty())
            (void)fa::paramByFlag(cli, p.flag);
        for (const double v : probes(p)) {
            Live base;
            QStringList args{"--out", "unused.csv"};
            context(p.flag, base, args);
            args << QString::fromStdString("--" + p.flag)
                 << QString::fromStdString(fa::valueText(v));
            const bool expected = fa::accepts(p, v);
            const bool byCli = p.flag.empty() ? expected : cliAccepts(check, args, p.flag);

            bool bySession = expected;
            if (!p.session.empty()) {
                Session s;
                s.config = base;
                try {
                    const Session read = fromJson(withValue(toJson(s), p.session, v));
                    bySession = p.get(read.config) == v;
                } catch (const fa::io::SessionError& e) { // as the CLI: its range, by name
                    bySession =
                        std::string(e.what()).find("'" + p.session + "'") == std::string::npos;
                }
            }

            Live shown = base;
            p.set(shown, v);
            page.setConfig(shown);
            const bool byField = p.get(page.config()) == v;

            const std::string where =
                "--" + p.flag + " " + fa::valueText(v) + ": expected " +
                (expected ? "accepted" : "refused") + ", cli " + (byCli ? "yes" : "no") +
                ", session " + (bySession ? "yes" : "no") + ", field " + (byField ? "yes" : "no");
            if (byCli != expected || bySession != expected || byField != expected) {
                QTest::qFail(where.c_str(), __FILE__, __LINE__);
                return compared;
            }
            ++compared;
        }
    }
    return compared;
}

class TestParamAgreement : public QObject {
    Q_OBJECT
  private slots:
    void nonlinearLab() {
        NonlinearPage page;
        const int compared =
            agree(fa::vaeLiveParams(), fa::vaeParams(), fa::cli::vaeCommand(), page,
                  fa::io::vaeSessionToJson, fa::io::vaeSessionFromJson,
                  [](const std::string& flag, fa::VaeLiveConfig& base, QStringList& args) {
                      // K < D, true K < D, σ² with a fixed noise.
                      if (flag == "dim") {
                          base.fit.latent = base.data.trueLatent = 1;
                          args << "--latent"
                               << "1"
                               << "--true-latent"
                               << "1";
                      } else if (flag == "latent" || flag == "true-latent") {
                          base.data.dim = 2000;
                          args << "--dim"
                               << "2000";
                      } else if (flag == "noise-variance") {
                          base.fit.noise = base.fit.linearNoise = fa::NoiseKind::Fixed;
                          args << "--noise"
                               << "fixed";
                      }
                  });
        QCOMPARE(compared, 5 * static_cast<int>(fa::vaeLiveParams().size()));
    }

    // The nonlinear lab's words (the noise, the encoder gradient) and their cross-field rules in
    // core/vae (a network noise needs a hidden layer, never the linear VAE's; the baseline needs
    // two draws per row): the CLI's checks, a session (File → Open reads it and builds its run)
    // and the page's fields (their configuration's run) accept and refuse the same cases; the
    // page shows each word it takes.
    void nonlinearLabChoices() {
        NonlinearPage page;
        auto builds = [](const fa::VaeLiveConfig& c) {
            try {
                const fa::VaeLive run(c);
                return true;
            } catch (const std::invalid_argument&) {
                return false;
            }
        };
        for (const ChoiceCase& k : nonlinearChoices()) {
            fa::VaeLiveConfig c;
            c.methods = {fa::VaeMethod::Vae};
            k.set(c);
            const bool byCli =
                cliRefusal(fa::cli::vaeCommand(), QStringList{"--out", "x.csv"} + k.args).empty();
            bool bySession = true;
            fa::io::VaeSession s;
            s.config = c;
            try {
                bySession = builds(fa::io::vaeSessionFromJson(fa::io::vaeSessionToJson(s)).config);
            } catch (const fa::io::SessionError&) {
                bySession = false;
            }
            page.setConfig(c);
            const fa::VaeLiveConfig shown = page.config();
            const bool byPage = builds(shown);
            QVERIFY2(byCli == k.accepted && bySession == k.accepted && byPage == k.accepted,
                     qPrintable(QString("%1: cli %2, session %3, page %4")
                                    .arg(k.what)
                                    .arg(byCli)
                                    .arg(bySession)
                                    .arg(byPage)));
            QCOMPARE(shown.fit.noise, c.fit.noise);
            QCOMPARE(shown.fit.encoderGradient, c.fit.encoderGradient);
            QCOMPARE(shown.fit.floatProducts, c.fit.floatProducts);
        }
    }

    // A word no reader knows: the CLI and the session name the choices.
    void nonlinearLabUnknownWords() {
        for (const auto& [flag, key, word] :
             {std::tuple{"--noise", "noise", "laplace"},
              std::tuple{"--encoder-gradient", "encoderGradient", "reinforce"},
              std::tuple{"--precision", "precision", "half"}}) {
            const QString cli = QString::fromStdString(
                cliRefusal(fa::cli::vaeCommand(), {"--out", "x.csv", flag, word}));
            QString session;
            // (on the heap: GCC 12 -O3 takes a stacked one's strings for uninitialised, wrongly)
            const auto blank = std::make_unique<const fa::io::VaeSession>();
            QJsonObject root = QJsonDocument::fromJson(fa::io::vaeSessionToJson(*blank)).object();
            QJsonObject run = root.value("run").toObject();
            run.insert(key, word);
            root.insert("run", run);
            try {
                fa::io::vaeSessionFromJson(QJsonDocument(root).toJson());
            } catch (const fa::io::SessionError& e) {
                session = e.what();
            }
            QVERIFY2(cli.contains("unknown") && cli.contains(word), qPrintable(cli));
            QVERIFY2(session.contains(key) && session.contains(word), qPrintable(session));
        }
    }

    void explorer() {
        ControlPanel panel;
        const int compared =
            agree(fa::explorerParams(), fa::faSweepParams(), fa::cli::faSweepCommand(), panel,
                  fa::io::sessionToJson, fa::io::sessionFromJson,
                  [](const std::string& flag, fa::ExplorerConfig& base, QStringList& args) {
                      // K < D, fitted K < D, the haar generator beyond D = 2000, samples within the
                      // session's run; a short sweep (the CLI's checks include the memory it
                      // needs).
                      base.generator.kind = fa::GeneratorKind::Haar;
                      base.runBatch = false;
                      args << "--generator"
                           << "haar"
                           << "--algorithms"
                           << "em,sga"
                           << "--samples"
                           << "100";
                      if (flag == "dim") {
                          base.generator.latent = base.fitLatent = 1;
                          args << "--latent"
                               << "1";
                      } else if (flag == "latent" || flag == "fitting.fitLatent" || flag.empty()) {
                          base.generator.dim = 2'000'000;
                          args << "--dim"
                               << "2000000";
                      }
                  });
        QCOMPARE(compared, 5 * static_cast<int>(fa::explorerParams().size()));
    }

    void neuralLab() {
        NeuralPage page;
        const int compared =
            agree(fa::neuralLiveParams(), fa::neuralParams(), fa::cli::neuralCommand(), page,
                  fa::io::neuralSessionToJson, fa::io::neuralSessionFromJson,
                  [](const std::string&, fa::NeuralLiveConfig&, QStringList&) {});
        QCOMPARE(compared, 5 * static_cast<int>(fa::neuralLiveParams().size()));
    }

    void latentLab() {
        LatentPage page;
        const int compared =
            agree(fa::latentLiveParams(), fa::latentParams(), fa::cli::latentCommand(), page,
                  fa::io::latentSessionToJson, fa::io::latentSessionFromJson,
                  [](const std::string& flag, fa::LatentLiveConfig& base, QStringList& args) {
                      // K < D, true K < D, the components of the mixture only.
                      if (flag == "dim") {
                          base.fit.latent = base.data.synthetic.trueLatent = 1;
                          args << "--latent"
                               << "1"
                               << "--true-latent"
                               << "1";
                      } else if (flag == "latent" || flag == "true-latent") {
                          base.data.synthetic.dim = 2000;
                          args << "--dim"
                               << "2000";
                      } else if (flag == "components") {
                          base.data.model = fa::LatentModel::Mppca;
                          base.methods = {fa::LatentMethod::Em};
                          args << "--model"
                               << "mppca";
                      }
                  });
        QCOMPARE(compared, 5 * static_cast<int>(fa::latentLiveParams().size()));
    }

    void posteriorLab() {
        PosteriorControls controls;
        const int compared =
            agree(fa::posteriorLiveParams(), fa::posteriorParams(), fa::cli::posteriorCommand(),
                  controls, fa::io::posteriorSessionToJson, fa::io::posteriorSessionFromJson,
                  [](const std::string& flag, fa::PosteriorLiveConfig&, QStringList& args) {
                      // --alpha or --beta alone asks for both by hand (synthetic data has no own).
                      if (flag == "alpha")
                          args << "--beta"
                               << "1";
                      else if (flag == "beta")
                          args << "--alpha"
                               << "1";
                  });
        QCOMPARE(compared, 5 * static_cast<int>(fa::posteriorLiveParams().size()));
    }
};

QTEST_MAIN(TestParamAgreement)
#include "test_param_agreement.moc"
