#include "ui/session/LatentSessionFile.h"

#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "core/latent/LatentParams.h"
#include "core/math/Rng.h"
#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace fa::io {

constexpr SessionPlaces kPlaces{"latent", "iterations"};

namespace {
/// data.classes (written since issue 29; an older session has none: all): whole numbers 0 … 9,
/// each once, for an image data set only (core/data/ImageData.h, as the CLI's --classes).
std::vector<int> classesOf(const QJsonObject& data, const std::string& dataset) {
    if (!data.contains("classes"))
        return {};
    const QJsonValue list = data.value("classes");
    if (!list.isArray())
        fail("'data.classes' must be a list of classes (0 to 9)");
    std::vector<int> classes;
    for (const QJsonValue& v : list.toArray()) {
        const double c = v.toDouble(-1.0);
        if (!v.isDouble() || c != std::floor(c) || std::abs(c) > 1e6)
            fail("'data.classes' must be a list of whole numbers (classes 0 to 9)");
        classes.push_back(static_cast<int>(c));
    }
    try {
        checkImageClasses(classes);
    } catch (const std::invalid_argument& e) {
        fail(QString("'data.classes': %1").arg(e.what()));
    }
    if (!classes.empty() && !isImageDataset(dataset))
        fail("'data.classes' applies to the image data sets (fashion-mnist, digits) only");
    return classes;
}

QJsonArray classesJson(const std::vector<int>& classes) {
    QJsonArray out;
    for (const int c : classes)
        out.append(c);
    return out;
}
} // namespace

QByteArray latentSessionToJson(const LatentSession& s) {
    const LatentLiveConfig& c = s.config;
    const LatentDataSpec& d = c.data;
    QJsonObject data{{"dataset", QString::fromStdString(d.dataset)},
                     {"model", QString::fromStdString(latentModelName(d.model))},
                     {"missing", d.allowMissing},
                     {"classes", classesJson(d.images.classes)}};
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
    // Pictures: data.rows is how many to take at most (the page's field too), data.classes which.
    d.images = firstPictures(d.dataset, d.synthetic.samples, classesOf(data, d.dataset));
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
