#include "ui/session/PosteriorSessionFile.h"

#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace fa::io {
namespace {

QString text(const QJsonObject& o, const QString& section, const QString& key) {
    const QJsonValue v = require(o, section, key);
    if (!v.isString())
        fail(QString("'%1.%2' must be text").arg(section, key));
    return v.toString();
}

} // namespace

QByteArray posteriorSessionToJson(const PosteriorSession& s) {
    const PosteriorLiveConfig& c = s.config;
    const PosteriorSetup& d = c.setup;
    QJsonObject data{
        {"dataset", QString::fromStdString(d.dataset)},
        {"target", QString::fromStdString(d.target)},
        {"syntheticRows", d.synthetic.samples},
        {"trainFraction", d.trainFraction},
        {"hyper", d.hyper ? QString::fromStdString(hyperModeName(*d.hyper)) : QString("auto")},
        {"alpha", d.alpha},
        {"beta", d.beta},
        {"seed", QString::number(c.seed)}};
    QJsonArray methods;
    for (const PosteriorMethod m : c.methods)
        methods.append(QString::fromStdString(methodName(m)));
    const PosteriorRunOptions& r = c.run;
    QJsonObject run{{"methods", methods},
                    {"latent", r.latent},
                    {"batch", r.vifa.batch},
                    {"samples", r.vifa.samples},
                    {"lrC", r.vifa.lrC},
                    {"lrF", r.vifa.lrF},
                    {"lrGamma", r.vifa.lrGamma},
                    {"optimizer", r.vifa.optimiser == OptimiserKind::Adam ? "adam" : "sgd"},
                    {"maxGradNorm", r.vifa.maxGradNorm},
                    {"sigma", r.vippcaSigma},
                    {"estimator", QString::fromStdString(estimatorName(r.estimator))},
                    {"compareEstimators", r.compareEstimators},
                    {"sgdLearningRate", r.sgd.learningRate},
                    {"sgdBatch", r.sgd.batch},
                    {"warmupEpochs", r.warmupEpochs},
                    {"length", static_cast<double>(c.length)}};
    QJsonArray changes;
    for (const auto& ch : c.changes)
        changes.append(QJsonArray{static_cast<double>(ch.epoch), ch.sgdLearningRate, ch.lambda});
    run.insert("changes", changes);
    QJsonObject root{{"format", kSessionFormat},
                     {"version", kSessionVersion},
                     {"mode", "posterior"},
                     {"data", data},
                     {"run", run},
                     {"view", QJsonObject{{"coordI", s.coordI + 1}, {"coordJ", s.coordJ + 1}}},
                     {"speed", s.speed},
                     {"epochs", static_cast<double>(s.epochs)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {
/// The data section: the set, the target, the split, the hyperparameters, the seed.
void readData(const QJsonObject& data, PosteriorLiveConfig& c) {
    PosteriorSetup& d = c.setup;
    d.dataset = text(data, "data", "dataset").toStdString();
    if (d.dataset.empty())
        fail("'data.dataset' must name a data set or a CSV file");
    d.target = text(data, "data", "target").toStdString();
    d.synthetic.samples = static_cast<int>(whole(data, "data", "syntheticRows", 10, 1'000'000));
    d.trainFraction = real(data, "data", "trainFraction");
    if (!(d.trainFraction >= 0.0 && d.trainFraction <= 1.0))
        fail("'data.trainFraction' must lie in [0, 1] (0 = automatic)");
    const QString hyper = text(data, "data", "hyper");
    if (hyper == "thesis")
        d.hyper = HyperMode::Thesis;
    else if (hyper == "evidence")
        d.hyper = HyperMode::Evidence;
    else if (hyper == "manual")
        d.hyper = HyperMode::Manual;
    else if (hyper != "auto")
        fail("'data.hyper' must be auto, thesis, evidence or manual");
    d.alpha = real(data, "data", "alpha");
    d.beta = real(data, "data", "beta");
    if (d.hyper == HyperMode::Manual) {
        d.alpha = realIn(data, "data", "alpha", kPrecisionMin, kPrecisionMax);
        d.beta = realIn(data, "data", "beta", kPrecisionMin, kPrecisionMax);
    }
    c.seed = static_cast<std::uint64_t>(whole(data, "data", "seed", 0, 9'007'199'254'740'991LL));
}

/// The run section's methods and options, checked as VIFA checks them.
void readRun(const QJsonObject& run, PosteriorLiveConfig& c) {
    const QJsonValue methods = require(run, "run", "methods");
    if (!methods.isArray() || methods.toArray().isEmpty())
        fail("'run.methods' must be a non-empty list");
    c.methods.clear();
    for (const QJsonValue& m : methods.toArray()) {
        const auto method = parseMethod(m.toString().toStdString());
        if (!method)
            fail(QString("'run.methods': unknown method '%1'").arg(m.toString()));
        c.methods.push_back(*method);
    }
    PosteriorRunOptions& r = c.run;
    r.latent = static_cast<int>(whole(run, "run", "latent", 1, 1000));
    r.vifa.batch = static_cast<int>(whole(run, "run", "batch", 1, 1'000'000));
    r.vifa.samples = static_cast<int>(whole(run, "run", "samples", 1, 10000));
    r.vifa.lrC = realIn(run, "run", "lrC", 1e-7, 10);
    r.vifa.lrF = realIn(run, "run", "lrF", 1e-7, 10);
    r.vifa.lrGamma = realIn(run, "run", "lrGamma", 1e-7, 10);
    const QString optimizer = text(run, "run", "optimizer");
    if (optimizer != "sgd" && optimizer != "adam")
        fail("'run.optimizer' must be sgd or adam");
    r.vifa.optimiser = optimizer == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    r.vifa.maxGradNorm = realIn(run, "run", "maxGradNorm", 0, 1e9);
    r.vippcaSigma = realIn(run, "run", "sigma", 1e-8, 100);
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
    r.sgd.learningRate = realIn(run, "run", "sgdLearningRate", 1e-5, 1); // the slider's range
    r.sgd.batch = static_cast<int>(whole(run, "run", "sgdBatch", 1, 1'000'000));
    r.warmupEpochs = static_cast<int>(whole(run, "run", "warmupEpochs", 0, 100'000));
    if (!(r.sgd.learningRate > 0.0))
        fail("'run.sgdLearningRate' must be positive");
    if (!(r.vippcaSigma > 0.0))
        fail("'run.sigma' must be positive");
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
} // namespace

PosteriorSession posteriorSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRoot(json);
    if (root.value("mode").toString() != "posterior")
        fail("this is not a posterior-lab session (\"mode\" is not \"posterior\")");
    PosteriorSession s;
    PosteriorLiveConfig& c = s.config;
    readData(object(root, "data"), c);
    const QJsonObject run = object(root, "run");
    readRun(run, c);
    readChanges(run, c);
    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        s.coordI = static_cast<int>(whole(view, "view", "coordI", 1, 100000)) - 1;
        s.coordJ = static_cast<int>(whole(view, "view", "coordJ", 1, 100000)) - 1;
        if (s.coordI == s.coordJ)
            fail("'view.coordI' and 'view.coordJ' must differ");
    }
    s.speed = root.contains("speed") ? realIn(root, "session", "speed", 0, 1e7) : 250.0;
    if (s.speed < 0)
        fail("'speed' must not be negative");
    s.epochs = root.contains("epochs")
                   ? static_cast<long>(whole(root, "session", "epochs", 0, 100'000'000))
                   : 0;
    // The run's length (absent before issue 25: the CLI's 5000, or as far as it was saved).
    c.length = run.contains("length")
                   ? static_cast<long>(whole(run, "run", "length", 1, kMaxRunLength))
                   : std::max(5000L, s.epochs);
    if (s.epochs > c.length)
        fail("'epochs' lies past the run's 'run.length'");
    return s;
}

void savePosteriorSession(const QString& path, const PosteriorSession& session) {
    writeSessionFile(path, posteriorSessionToJson(session));
}

PosteriorSession loadPosteriorSession(const QString& path) {
    return loadSessionWith(path, posteriorSessionFromJson);
}

} // namespace fa::io
