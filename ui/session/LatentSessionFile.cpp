#include "ui/session/LatentSessionFile.h"

#include "core/fa/OnlineFitter.h"
#include "core/math/Rng.h"
#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace fa::io {

QByteArray latentSessionToJson(const LatentSession& s) {
    const LatentLiveConfig& c = s.config;
    const LatentDataSpec& d = c.data;
    QJsonObject data{{"dataset", QString::fromStdString(d.dataset)},
                     {"model", QString::fromStdString(latentModelName(d.model))},
                     {"testFraction", d.testFraction},
                     {"missing", d.allowMissing},
                     {"dim", d.synthetic.dim},
                     {"trueLatent", d.synthetic.trueLatent},
                     {"rows", d.synthetic.samples},
                     {"seed", static_cast<double>(d.modelSeed)}};
    QJsonArray methods;
    for (const LatentMethod m : c.methods)
        methods.append(QString::fromStdString(latentMethodName(m)));
    QJsonObject run{{"methods", methods},
                    {"latent", c.fit.latent},
                    {"components", c.fit.components},
                    {"chains", c.fit.chains},
                    {"burnIn", static_cast<double>(c.fit.burnIn)},
                    {"learningRate", c.fit.learningRate},
                    {"prior", QString::fromStdString(faPriorName(c.fit.prior))},
                    {"length", static_cast<double>(c.length)}};
    QJsonObject view{{"x", c.viewX + 1}, {"y", c.viewY + 1}, {"traceEntry", c.traceEntry + 1}};
    QJsonObject root{{"format", kSessionFormat},
                     {"version", kSessionVersion},
                     {"mode", "latent"},
                     {"data", data},
                     {"run", run},
                     {"view", view},
                     {"speed", s.speed},
                     {"iterations", static_cast<double>(s.iterations)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

LatentSession latentSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRoot(json);
    if (root.value("mode").toString() != "latent")
        fail("this is not a latent-lab session (\"mode\" is not \"latent\")");
    LatentSession s;
    LatentLiveConfig& c = s.config;
    LatentDataSpec& d = c.data;
    const QJsonObject data = object(root, "data");
    const QJsonValue dataset = require(data, "data", "dataset");
    if (!dataset.isString() || dataset.toString().isEmpty())
        fail("'data.dataset' must name a data set or a CSV file");
    d.dataset = dataset.toString().toStdString();
    try {
        d.model = parseLatentModel(require(data, "data", "model").toString().toStdString());
    } catch (const std::invalid_argument& e) {
        fail(QString("'data.model': %1").arg(e.what()));
    }
    d.testFraction = realIn(data, "data", "testFraction", 0.0, 0.9);
    d.allowMissing = flag(data, "data", "missing");
    // The controls' ranges (ui/latent/LatentPage.cpp).
    d.synthetic.dim = static_cast<int>(whole(data, "data", "dim", 2, 200));
    d.synthetic.trueLatent = static_cast<int>(whole(data, "data", "trueLatent", 1, 100));
    d.synthetic.samples = static_cast<int>(whole(data, "data", "rows", 10, 1'000'000));
    d.modelSeed = static_cast<std::uint64_t>(whole(data, "data", "seed", 0, 1'000'000'000));
    d.splitSeed = deriveSeed(d.modelSeed, 0);

    const QJsonObject run = object(root, "run");
    const QJsonValue methods = require(run, "run", "methods");
    if (!methods.isArray() || methods.toArray().isEmpty())
        fail("'run.methods' must be a non-empty list");
    c.methods.clear();
    for (const QJsonValue& m : methods.toArray()) {
        const auto method = parseLatentMethod(m.toString().toStdString());
        if (!method)
            fail(QString("'run.methods': unknown method '%1'").arg(m.toString()));
        if (!modelOffers(d.model, *method))
            fail(QString("'run.methods': '%1' does not fit the model '%2'")
                     .arg(m.toString(), QString::fromStdString(latentModelName(d.model))));
        c.methods.push_back(*method);
    }
    c.fit.latent = static_cast<int>(whole(run, "run", "latent", 1, 100));
    c.fit.components = static_cast<int>(whole(run, "run", "components", 1, 20));
    d.synthetic.components = c.fit.components;
    c.fit.chains = static_cast<int>(whole(run, "run", "chains", 1, 16));
    c.fit.burnIn = static_cast<long>(whole(run, "run", "burnIn", 0, 1'000'000));
    c.fit.learningRate = realIn(run, "run", "learningRate", kLearningRateMin, kLearningRateMax);
    c.fit.seed = d.modelSeed;
    if (run.contains("prior")) {
        try {
            c.fit.prior = parseFaPrior(run.value("prior").toString().toStdString());
        } catch (const std::invalid_argument& e) {
            fail(QString("'run.prior': %1").arg(e.what()));
        }
    }
    c.length = static_cast<long>(whole(run, "run", "length", 1, 1'000'000));
    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        c.viewX = static_cast<int>(whole(view, "view", "x", 0, 100000)) - 1;
        c.viewY = static_cast<int>(whole(view, "view", "y", 0, 100000)) - 1;
        if ((c.viewX < 0) != (c.viewY < 0) || (c.viewX >= 0 && c.viewX == c.viewY))
            fail("'view.x' and 'view.y' must be two different columns, or both 0 (principal "
                 "axes)");
        c.traceEntry = static_cast<int>(whole(view, "view", "traceEntry", 1, 100000)) - 1;
    }
    s.speed = root.contains("speed") ? realIn(root, "session", "speed", 0, 100000) : 20.0;
    s.iterations = root.contains("iterations")
                       ? static_cast<long>(whole(root, "session", "iterations", 0, c.length))
                       : 0;
    return s;
}

void saveLatentSession(const QString& path, const LatentSession& session) {
    writeSessionFile(path, latentSessionToJson(session));
}

LatentSession loadLatentSession(const QString& path) {
    return loadSessionWith(path, latentSessionFromJson);
}

} // namespace fa::io
