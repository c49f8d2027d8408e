#include "ui/session/PosteriorSessionFile.h"

#include "core/io/RegressionCsv.h"
#include "core/posterior/PosteriorParams.h"
#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <algorithm>

namespace fa::io {

constexpr SessionPlaces kPlaces{"posterior", "epochs", "data"};
QByteArray posteriorSessionToJson(const PosteriorSession& s) {
    const PosteriorLiveConfig& c = s.config;
    const PosteriorSetup& d = c.setup;
    const PosteriorRunOptions& r = c.run;
    QJsonArray changes;
    for (const auto& ch : c.changes)
        changes.append(QJsonArray{static_cast<double>(ch.epoch), ch.sgdLearningRate, ch.lambda});
    const QJsonObject root{
        {"data", QJsonObject{{"dataset", QString::fromStdString(d.dataset)},
                             {"target", QString::fromStdString(d.target)},
                             {"hyper",
                              d.hyper ? QString::fromStdString(hyperModeName(*d.hyper)) : "auto"}}},
        {"run", QJsonObject{{"methods", wordsJson(c.methods, methodName)},
                            {"optimizer", r.vifa.optimiser == OptimiserKind::Adam ? "adam" : "sgd"},
                            {"estimator", QString::fromStdString(estimatorName(r.estimator))},
                            {"compareEstimators", r.compareEstimators},
                            {"length", static_cast<double>(c.length)},
                            {"changes", changes}}},
        {"view", QJsonObject{{"coordI", s.coordI + 1},
                             {"coordJ", s.coordJ + 1},
                             {"tab", kPosteriorTabs.at(std::size_t(s.tab))},
                             {"gpUnits", QString::fromStdString(gpKernelName(s.gp.units))},
                             {"gpHidden", s.gp.hidden},
                             {"gpSeed", static_cast<double>(s.gp.seed)},
                             {"gradFamily", kGradientFamilies.at(std::size_t(s.gradFamily))}}}};
    return sessionJson(root, kPlaces, s.speed, s.position, posteriorLiveParams(), c,
                       c.seed); // core/posterior/PosteriorParams.h
}

namespace {
/// The data section's words: the set, the target, the rule for α and β (its numbers are the
/// schema's).
void readData(const QJsonObject& data, PosteriorLiveConfig& c) {
    PosteriorSetup& d = c.setup;
    d.dataset = datasetOf(data);
    d.target = text(data, "data", "target").toStdString();
    const QString hyper = text(data, "data", "hyper");
    d.hyper = parseHyperMode(hyper.toStdString());
    if (!d.hyper && hyper != "auto")
        fail("'data.hyper' must be auto, thesis, evidence or manual");
}

/// The run section's methods and words, checked as VIFA checks them (its numbers are the
/// schema's, read before).
void readRun(const QJsonObject& run, PosteriorLiveConfig& c) {
    c.methods = methodsOf(run, parseMethod);
    PosteriorRunOptions& r = c.run;
    const QString optimizer = text(run, "run", "optimizer");
    if (optimizer != "sgd" && optimizer != "adam")
        fail("'run.optimizer' must be sgd or adam");
    r.vifa.optimiser = optimizer == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    if (run.contains("compareEstimators")) {
        if (!run.value("compareEstimators").isBool())
            fail("'run.compareEstimators' must be true or false");
        r.compareEstimators = run.value("compareEstimators").toBool();
    }
    if (run.contains("estimator")) { // absent from sessions older than issue 13: reparam
        const auto e = parseEstimator(run.value("estimator").toString().toStdString());
        if (!e)
            fail("'run.estimator' must be reparam, score or score-baseline");
        r.estimator = *e;
    }
    try {
        VifaOptions v = r.vifa;
        v.latent = r.latent;
        validate(v);
    } catch (const std::invalid_argument& e) {
        fail(QString("the session's parameters are refused: %1").arg(e.what()));
    }
}

/// The live changes of the SGD learning rate and λ, in epoch order.
void readChanges(const QJsonObject& run, PosteriorLiveConfig& c) {
    if (run.contains("changes")) {
        const QJsonValue v = run.value("changes");
        if (!v.isArray())
            fail("'run.changes' must be a list of [epoch, learning rate, lambda]");
        long last = 0;
        for (const QJsonValue& item : v.toArray()) {
            const QJsonArray a = item.toArray();
            if (!item.isArray() || a.size() != 3 || !a[0].isDouble() || !a[1].isDouble() ||
                !a[2].isDouble() || a[0].toDouble() != std::floor(a[0].toDouble()) ||
                a[0].toDouble() < last || !(a[1].toDouble() > 0.0) || !(a[2].toDouble() >= 0.0))
                fail("'run.changes' must be a list of [epoch, learning rate > 0, lambda >= 0] in "
                     "epoch order");
            last = static_cast<long>(a[0].toDouble());
            c.changes.push_back({last, a[1].toDouble(), a[2].toDouble()});
        }
    }
}
/// The index of view.key's word in names; fails naming them.
template <std::size_t N>
int wordIn(const QJsonObject& view, const QString& key, const std::array<const char*, N>& names) {
    const QString word = text(view, "view", key);
    const auto it = std::find(names.begin(), names.end(), word);
    if (it == names.end()) {
        QStringList all;
        for (const char* n : names)
            all << n;
        fail(QString("'view.%1' must be one of %2").arg(key, all.join(", ")));
    }
    return static_cast<int>(it - names.begin());
}

/// The view's tab, the GP tab's fields and the gradient panel's family, each optional
/// (sessions before issue 28 have none).
void readTab(const QJsonObject& view, PosteriorSession& s) {
    if (view.contains("tab"))
        s.tab = wordIn(view, "tab", kPosteriorTabs);
    if (view.contains("gradFamily"))
        s.gradFamily = wordIn(view, "gradFamily", kGradientFamilies);
    if (view.contains("gpUnits")) {
        const auto units = parseGpKernel(text(view, "view", "gpUnits").toStdString());
        if (!units || (*units != GpKernel::NnErf && *units != GpKernel::NnRelu))
            fail("'view.gpUnits' must be nn-erf or nn-relu");
        s.gp.units = *units;
    }
    if (view.contains("gpHidden")) {
        s.gp.hidden = static_cast<int>(whole(view, "view", "gpHidden", 1, 1000));
        if (std::find(kLessonDrawWidths.begin(), kLessonDrawWidths.end(), s.gp.hidden) ==
            kLessonDrawWidths.end())
            fail("'view.gpHidden' must be 1, 10, 100 or 1000");
    }
    if (view.contains("gpSeed"))
        s.gp.seed = static_cast<std::uint64_t>(whole(view, "view", "gpSeed", 0, 1'000'000'000));
}
} // namespace

PosteriorSession posteriorSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRootOf(json, "posterior", "posterior-lab");
    PosteriorSession s;
    PosteriorLiveConfig& c = s.config;
    readData(object(root, "data"), c);
    // The numbers: the ranges of the CLI, the fields and the core
    // (core/posterior/PosteriorParams.h).
    readParams(root, posteriorLiveParams(), c);
    const QJsonObject run = object(root, "run");
    readRun(run, c);
    readChanges(run, c);
    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        s.coordI = static_cast<int>(whole(view, "view", "coordI", 1, 100000)) - 1;
        s.coordJ = static_cast<int>(whole(view, "view", "coordJ", 1, 100000)) - 1;
        if (s.coordI == s.coordJ)
            fail("'view.coordI' and 'view.coordJ' must differ");
        readTab(view, s);
    }
    readPace(root, kPlaces, 1e7, 100'000'000, s);
    // The run's length: before issue 25, the CLI's 5000.
    const ParamInfo& length = paramByFlag(posteriorLiveParams(), "epochs");
    c.length = lengthOf(run, static_cast<long long>(length.lo), static_cast<long long>(length.hi),
                        5000, s.position);
    c.setup.loader = datasetLoader(); // the bundled sets, or the CSV file named
    return s;
}

} // namespace fa::io
