#include "ui/session/LatentSessionFile.h"

#include "core/io/RegressionCsv.h"
#include "core/latent/LatentParams.h"
#include "core/math/Rng.h"
#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace fa::io {

constexpr SessionPlaces kPlaces{"latent", "iterations"};

QByteArray latentSessionToJson(const LatentSession& s) {
    const LatentLiveConfig& c = s.config;
    const LatentDataSpec& d = c.data;
    QJsonObject data{{"dataset", QString::fromStdString(d.dataset)},
                     {"model", QString::fromStdString(latentModelName(d.model))},
                     {"missing", d.allowMissing}};
    QJsonObject run{{"methods", wordsJson(c.methods, latentMethodName)},
                    {"prior", QString::fromStdString(faPriorName(c.fit.prior))}};
    QJsonObject view{{"x", c.viewX + 1}, {"y", c.viewY + 1}, {"traceEntry", c.traceEntry + 1}};
    return sessionJson({{"data", data}, {"run", run}, {"view", view}}, kPlaces, s.speed, s.position,
                       latentLiveParams(), c);
}

LatentSession latentSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRootOf(json, "latent", "latent-lab");
    LatentSession s;
    LatentLiveConfig& c = s.config;
    LatentDataSpec& d = c.data;
    const QJsonObject data = object(root, "data");
    d.dataset = datasetOf(data);
    d.model = word(data, "data", "model", parseLatentModel);
    d.allowMissing = flag(data, "data", "missing");
    readParams(root, latentLiveParams(), c); // the ranges of the CLI, the fields and the core
    d.splitSeed = deriveSeed(d.modelSeed, SeedStream::FirstTrial);

    const QJsonObject run = object(root, "run");
    c.methods = methodsOf(
        run, parseLatentMethod, [&d](LatentMethod m) { return modelOffers(d.model, m); },
        QString("the model '%1'").arg(QString::fromStdString(latentModelName(d.model))));
    d.synthetic.components = c.fit.components;
    c.fit.seed = d.modelSeed;
    if (run.contains("prior"))
        c.fit.prior = word(run, "run", "prior", parseFaPrior);
    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        readPlane(view, c.viewX, c.viewY);
        c.traceEntry = static_cast<int>(whole(view, "view", "traceEntry", 1, 100000)) - 1;
    }
    readPace(root, kPlaces, 100000, c.length, s);
    c.loader = tableLoader(); // the bundled tables, or the CSV file named
    return s;
}

} // namespace fa::io
