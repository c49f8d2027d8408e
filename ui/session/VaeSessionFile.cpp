#include "ui/session/VaeSessionFile.h"

#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "core/vae/VaeParams.h"
#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace fa::io {

constexpr SessionPlaces kPlaces{"nonlinear", "epochs"};

QByteArray vaeSessionToJson(const VaeSession& s) {
    const VaeLiveConfig& c = s.config;
    const VaeDataSpec& d = c.data;
    QJsonObject data{{"dataset", QString::fromStdString(d.dataset)}};
    QJsonArray hidden;
    for (const int h : c.fit.hidden)
        hidden.append(h);
    QJsonObject run{
        {"methods", wordsJson(c.methods, vaeMethodName)},
        {"hidden", hidden},
        {"activation", QString::fromStdString(activationName(c.fit.activation))},
        {"noise", QString::fromStdString(noiseKindName(c.fit.noise))},
        {"linearNoise", QString::fromStdString(noiseKindName(c.fit.linearNoise))},
        {"encoderGradient", QString::fromStdString(estimatorName(c.fit.encoderGradient))},
        {"precision", QString::fromStdString(nameIn(kPrecisionNames, c.fit.floatProducts))}};
    QJsonObject view{{"x", c.viewX + 1},
                     {"y", c.viewY + 1},
                     {"colourBy", c.colourBy + 1},
                     {"method", QString::fromStdString(vaeMethodName(
                                    c.methods[static_cast<std::size_t>(c.viewMethod)]))}};
    return sessionJson({{"data", data}, {"run", run}, {"view", view}}, kPlaces, s.speed, s.position,
                       vaeLiveParams(), c);
}

VaeSession vaeSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRootOf(json, "nonlinear", "nonlinear-FA");
    VaeSession s;
    VaeLiveConfig& c = s.config;
    VaeDataSpec& d = c.data;
    const QJsonObject data = object(root, "data");
    d.dataset = datasetOf(data);
    readParams(root, vaeLiveParams(), c); // the ranges of the CLI, the fields and the core
    d.images = firstPictures(d.dataset, d.samples); // data.rows: the first N, as in the window

    const QJsonObject run = object(root, "run");
    c.methods = methodsOf(run, parseVaeMethod);
    const QJsonValue hidden = require(run, "run", "hidden");
    if (!hidden.isArray() || hidden.toArray().size() > kMaxHiddenLayers)
        fail("'run.hidden' must be a list of at most three layer sizes");
    c.fit.hidden.clear();
    for (const QJsonValue& h : hidden.toArray()) {
        if (!h.isDouble() || h.toDouble() < 1 || h.toDouble() > kMaxHiddenUnits ||
            h.toDouble() != std::floor(h.toDouble()))
            fail(QString("'run.hidden': every layer needs a whole number of units from 1 to %1")
                     .arg(kMaxHiddenUnits));
        c.fit.hidden.push_back(h.toInt());
    }
    c.fit.activation = word(run, "run", "activation", parseActivation);
    c.fit.noise = word(run, "run", "noise", parseNoiseKind);
    c.fit.linearNoise = word(run, "run", "linearNoise", parseNoiseKind);
    if (run.contains("encoderGradient")) // sessions before it: reparameterised
        c.fit.encoderGradient = word(run, "run", "encoderGradient", parseEncoderGradient);
    if (run.contains("precision")) // sessions before it: double
        c.fit.floatProducts = word(run, "run", "precision", [](const std::string& w) {
            return requireIn(kPrecisionNames, w, "precision");
        });
    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        readPlane(view, c.viewX, c.viewY);
        c.colourBy = static_cast<int>(whole(view, "view", "colourBy", 0, 100000)) - 1;
        const auto shown = parseVaeMethod(view.value("method").toString().toStdString());
        const auto it =
            shown ? std::find(c.methods.begin(), c.methods.end(), *shown) : c.methods.end();
        if (it == c.methods.end())
            fail("'view.method' must be one of 'run.methods'");
        c.viewMethod = static_cast<int>(it - c.methods.begin());
    }
    readPace(root, kPlaces, 100000, c.length, s);
    c.loader = tableLoader(); // the bundled tables, or the CSV file named
    return s;
}

} // namespace fa::io
