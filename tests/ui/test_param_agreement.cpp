// One range per parameter everywhere (issue 26): for every parameter of a lab's schema
// (core/<lab>/*Params.h) that the CLI, the session files and the window's fields all take, values
// at, just inside and just outside its range are offered to each of them — the CLI's own
// argument checks (app/cli), the session reader (ui/session) and the page's fields (set from a
// configuration and read back) — and all three must accept exactly the values the schema's range
// holds. The values are generated from the schema, not listed here; only the cross-field rules
// (K < D, σ² only with a fixed noise) get a context.
#include "app/cli/Commands.h"
#include "core/vae/VaeParams.h"
#include "ui/nonlinear/NonlinearPage.h"
#include "ui/session/SessionFile.h"
#include "ui/session/VaeSessionFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <cmath>
#include <stdexcept>

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

bool cliAccepts(void (*check)(int, char**), const QStringList& args) {
    std::vector<std::string> words{"faexplorer-cli", "command"};
    for (const QString& a : args)
        words.push_back(a.toStdString());
    std::vector<char*> argv;
    for (std::string& w : words)
        argv.push_back(w.data());
    try {
        check(static_cast<int>(argv.size()), argv.data());
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
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

} // namespace

class TestParamAgreement : public QObject {
    Q_OBJECT
  private slots:
    void nonlinearLab() {
        NonlinearPage page;
        int compared = 0;
        for (const fa::Param<fa::VaeLiveConfig>& p : fa::vaeLiveParams()) {
            QVERIFY2(!p.flag.empty() && !p.session.empty(), p.label.c_str());
            (void)fa::paramByFlag(fa::vaeParams(), p.flag); // the CLI takes it too
            for (const double v : probes(p)) {
                // The context of the cross-field rules: K < D, true K < D, σ² with fixed noise.
                fa::VaeLiveConfig base;
                QStringList args{"--out", "unused.csv"};
                if (p.flag == "dim") {
                    base.fit.latent = base.data.trueLatent = 1;
                    args << "--latent"
                         << "1"
                         << "--true-latent"
                         << "1";
                } else if (p.flag == "latent" || p.flag == "true-latent") {
                    base.data.dim = 2000;
                    args << "--dim"
                         << "2000";
                } else if (p.flag == "noise-variance") {
                    base.fit.noise = base.fit.linearNoise = fa::NoiseKind::Fixed;
                    args << "--noise"
                         << "fixed";
                }
                args << QString::fromStdString("--" + p.flag)
                     << QString::fromStdString(fa::valueText(v));
                const bool expected = fa::accepts(p, v);
                const bool cli = cliAccepts(fa::cli::checkVaeArguments, args);

                bool session = true;
                fa::io::VaeSession s;
                s.config = base;
                try {
                    const auto read = fa::io::vaeSessionFromJson(
                        withValue(fa::io::vaeSessionToJson(s), p.session, v));
                    QCOMPARE(p.get(read.config), v);
                } catch (const fa::io::SessionError&) {
                    session = false;
                }

                fa::VaeLiveConfig shown = base;
                p.set(shown, v);
                page.setConfig(shown);
                const bool field = p.get(page.config()) == v;

                const QByteArray where = QByteArray::fromStdString(
                    "--" + p.flag + " " + fa::valueText(v) + ": expected " +
                    (expected ? "accepted" : "refused") + ", cli " + (cli ? "yes" : "no") +
                    ", session " + (session ? "yes" : "no") + ", field " + (field ? "yes" : "no"));
                QVERIFY2(cli == expected && session == expected && field == expected,
                         where.constData());
                ++compared;
            }
        }
        QVERIFY(compared >= 5 * 12);
    }
};

QTEST_MAIN(TestParamAgreement)
#include "test_param_agreement.moc"
