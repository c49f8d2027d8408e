#include "ui/session/LatentSessionFile.h"

#include "core/latent/LatentParams.h"
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
                     {"missing", d.allowMissing}};
    QJsonArray methods;
    for (const LatentMethod m : c.methods)
        methods.append(QString::fromStdString(latentMethodName(m)));
    QJsonObject run{{"methods", methods},
                    {"prior", QString::fromStdString(faPriorName(c.fit.prior))}};
    QJsonObject view{{"x", c.viewX + 1}, {"y", c.viewY + 1}, {"traceEntry", c.traceEntry + 1}};
    QJsonObject root{{"format", kSessionFormat},
                     {"version", kSessionVersion},
                     {"mode", "latent"},
                     {"data", data},
                     {"run", run},
                     {"view", view},
                     {"speed", s.speed},
                     {"iterations", static_cast<double>(s.iterations)}};
    writeParams(root, latentLiveParams(), c);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

LatentSession latentSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRootOf(json, "latent", "latent-lab");
    LatentSession s;
    LatentLiveConfig& c = s.config;
    LatentDataSpec& d = c.data;
    const QJsonObject data = object(root, "data");
    d.dataset = datasetOf(data);
    try {
        d.model = parseLatentModel(require(data, "data", "model").toString().toStdString());
    } catch (const std::invalid_argument& e) {
        fail(QString("'data.model': %1").arg(e.what()));
    }
    d.allowMissing = flag(data, "data", "missing");
    readParams(root, latentLiveParams(), c); // the ranges of the CLI, the fields and the core
    d.splitSeed = deriveSeed(d.modelSeed, SeedStream::FirstTrial);

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
    d.synthetic.components = c.fit.components;
    c.fit.seed = d.modelSeed;
    if (run.contains("prior")) {
        try {
            c.fit.prior = parseFaPrior(run.value("prior").toString().toStdString());
        } catch (const std::invalid_argument& e) {
            fail(QString("'run.prior': %1").arg(e.what()));
        }
    }
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

} // namespace fa::io
