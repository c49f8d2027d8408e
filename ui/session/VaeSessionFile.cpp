#include "ui/session/VaeSessionFile.h"

#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace fa::io {

QByteArray vaeSessionToJson(const VaeSession& s) {
    const VaeLiveConfig& c = s.config;
    const VaeDataSpec& d = c.data;
    QJsonObject data{{"dataset", QString::fromStdString(d.dataset)},
                     {"testFraction", d.testFraction},
                     {"dim", d.dim},
                     {"rows", d.samples},
                     {"trueLatent", d.trueLatent},
                     {"noise", d.noise},
                     {"seed", static_cast<double>(d.modelSeed)}};
    QJsonArray methods, hidden;
    for (const VaeMethod m : c.methods)
        methods.append(QString::fromStdString(vaeMethodName(m)));
    for (const int h : c.fit.hidden)
        hidden.append(h);
    QJsonObject run{{"methods", methods},
                    {"latent", c.fit.latent},
                    {"hidden", hidden},
                    {"activation", QString::fromStdString(activationName(c.fit.activation))},
                    {"noise", QString::fromStdString(noiseKindName(c.fit.noise))},
                    {"linearNoise", QString::fromStdString(noiseKindName(c.fit.linearNoise))},
                    {"noiseVariance", c.fit.fixedVariance},
                    {"learningRate", c.fit.lr},
                    {"batch", c.fit.batch},
                    {"eSteps", c.fit.eSteps},
                    {"length", static_cast<double>(c.length)}};
    QJsonObject view{{"x", c.viewX + 1},
                     {"y", c.viewY + 1},
                     {"colourBy", c.colourBy + 1},
                     {"method", QString::fromStdString(vaeMethodName(
                                    c.methods[static_cast<std::size_t>(c.viewMethod)]))}};
    QJsonObject root{{"format", kSessionFormat},
                     {"version", kSessionVersion},
                     {"mode", "nonlinear"},
                     {"data", data},
                     {"run", run},
                     {"view", view},
                     {"speed", s.speed},
                     {"epochs", static_cast<double>(s.epochs)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {
template <class T, class Parse> T parsed(const QJsonObject& o, const QString& key, Parse parse) {
    try {
        return parse(require(o, "run", key).toString().toStdString());
    } catch (const std::invalid_argument& e) {
        fail(QString("'run.%1': %2").arg(key, e.what()));
    }
}
} // namespace

VaeSession vaeSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRoot(json);
    if (root.value("mode").toString() != "nonlinear")
        fail("this is not a nonlinear-FA session (\"mode\" is not \"nonlinear\")");
    VaeSession s;
    VaeLiveConfig& c = s.config;
    VaeDataSpec& d = c.data;
    const QJsonObject data = object(root, "data");
    const QJsonValue dataset = require(data, "data", "dataset");
    if (!dataset.isString() || dataset.toString().isEmpty())
        fail("'data.dataset' must name a data set or a CSV file");
    d.dataset = dataset.toString().toStdString();
    // The controls' ranges (ui/nonlinear/NonlinearPage.cpp).
    d.testFraction = realIn(data, "data", "testFraction", 0.0, 0.9);
    d.dim = static_cast<int>(whole(data, "data", "dim", 2, 200));
    d.samples = static_cast<int>(whole(data, "data", "rows", 10, 100'000));
    d.trueLatent = static_cast<int>(whole(data, "data", "trueLatent", 1, 10));
    d.noise = realIn(data, "data", "noise", 0.0, 10.0);
    d.modelSeed = static_cast<std::uint64_t>(whole(data, "data", "seed", 0, 1'000'000'000));

    const QJsonObject run = object(root, "run");
    const QJsonValue methods = require(run, "run", "methods");
    if (!methods.isArray() || methods.toArray().isEmpty())
        fail("'run.methods' must be a non-empty list");
    c.methods.clear();
    for (const QJsonValue& m : methods.toArray()) {
        const auto method = parseVaeMethod(m.toString().toStdString());
        if (!method)
            fail(QString("'run.methods': unknown method '%1'").arg(m.toString()));
        if (std::find(c.methods.begin(), c.methods.end(), *method) != c.methods.end())
            fail(QString("'run.methods': '%1' is listed twice").arg(m.toString()));
        c.methods.push_back(*method);
    }
    c.fit.latent = static_cast<int>(whole(run, "run", "latent", 1, 20));
    const QJsonValue hidden = require(run, "run", "hidden");
    if (!hidden.isArray() || hidden.toArray().size() > 3)
        fail("'run.hidden' must be a list of at most three layer sizes");
    c.fit.hidden.clear();
    for (const QJsonValue& h : hidden.toArray()) {
        if (!h.isDouble() || h.toDouble() < 1 || h.toDouble() > 1000 ||
            h.toDouble() != std::floor(h.toDouble()))
            fail("'run.hidden': every layer needs a whole number of units from 1 to 1000");
        c.fit.hidden.push_back(h.toInt());
    }
    c.fit.activation = parsed<Activation>(run, "activation", parseActivation);
    c.fit.noise = parsed<NoiseKind>(run, "noise", parseNoiseKind);
    c.fit.linearNoise = parsed<NoiseKind>(run, "linearNoise", parseNoiseKind);
    c.fit.fixedVariance = realIn(run, "run", "noiseVariance", 1e-4, 100.0);
    c.fit.lr = realIn(run, "run", "learningRate", 1e-5, 1.0);
    c.fit.batch = static_cast<int>(whole(run, "run", "batch", 1, 100'000));
    c.fit.eSteps = static_cast<int>(whole(run, "run", "eSteps", 1, 100));
    c.length = static_cast<long>(whole(run, "run", "length", 1, 1'000'000));
    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        c.viewX = static_cast<int>(whole(view, "view", "x", 0, 100000)) - 1;
        c.viewY = static_cast<int>(whole(view, "view", "y", 0, 100000)) - 1;
        if ((c.viewX < 0) != (c.viewY < 0) || (c.viewX >= 0 && c.viewX == c.viewY))
            fail("'view.x' and 'view.y' must be two different columns, or both 0 (principal "
                 "axes)");
        c.colourBy = static_cast<int>(whole(view, "view", "colourBy", 0, 100000)) - 1;
        const auto shown = parseVaeMethod(view.value("method").toString().toStdString());
        const auto it =
            shown ? std::find(c.methods.begin(), c.methods.end(), *shown) : c.methods.end();
        if (it == c.methods.end())
            fail("'view.method' must be one of 'run.methods'");
        c.viewMethod = static_cast<int>(it - c.methods.begin());
    }
    s.speed = root.contains("speed") ? realIn(root, "session", "speed", 0, 100000) : 10.0;
    s.epochs = root.contains("epochs")
                   ? static_cast<long>(whole(root, "session", "epochs", 0, c.length))
                   : 0;
    return s;
}

void saveVaeSession(const QString& path, const VaeSession& session) {
    writeSessionFile(path, vaeSessionToJson(session));
}

VaeSession loadVaeSession(const QString& path) {
    return loadSessionWith(path, vaeSessionFromJson);
}

} // namespace fa::io
