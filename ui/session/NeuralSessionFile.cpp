#include "ui/session/NeuralSessionFile.h"

#include "core/io/RegressionCsv.h"
#include "core/neural/NeuralParams.h"
#include "ui/session/JsonFields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <cmath>

namespace fa::io {

constexpr SessionPlaces kPlaces{"neural", "epochs", "data"};

QByteArray neuralSessionToJson(const NeuralSession& s) {
    const NeuralLiveConfig& c = s.config;
    QJsonArray hidden;
    for (const int units : c.fit.hidden)
        hidden.append(units);
    // One list: the VIFA fits' names, then the posteriors from SGD iterates.
    QJsonArray methods = wordsJson(c.methods, neuralMethodName);
    for (const QJsonValue& m : wordsJson(c.iterateMethods, iterateMethodName))
        methods.append(m);
    const QJsonObject run{{"methods", methods},
                          {"hidden", hidden},
                          {"optimizer", c.fit.optimiser == OptimiserKind::Adam ? "adam" : "sgd"},
                          {"init", c.fit.reportInit ? "report" : "scaled"},
                          {"faStart", QString::fromStdString(faStartName(c.iterate.faStart))},
                          {"length", c.fit.epochs}};
    return sessionJson(
        {{"data", QJsonObject{{"dataset", QString::fromStdString(c.dataset)}}}, {"run", run}},
        kPlaces, s.speed, s.position, neuralLiveParams(), c, c.seed);
}

NeuralSession neuralSessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRootOf(json, "neural", "neural-lab");
    NeuralSession s;
    NeuralLiveConfig& c = s.config;
    const QJsonObject data = object(root, "data");
    c.dataset = datasetOf(data);
    readParams(root, neuralLiveParams(), c); // the ranges of the CLI, the fields and the core

    const QJsonObject run = object(root, "run");
    setNeuralMethods(c, methodsOf(run, neuralLabMethod));
    const QJsonValue hidden = require(run, "run", "hidden");
    if (!hidden.isArray())
        fail("'run.hidden' must be a list of layer sizes, e.g. [50, 50]");
    std::vector<long> units;
    for (const QJsonValue& layer : hidden.toArray()) {
        const double n = layer.toDouble(-1.0);
        units.push_back(n == std::floor(n) && n >= 0.0 && n <= double(kMaxNeuralUnits) ? long(n)
                                                                                       : -1L);
    }
    try { // the CLI's --hidden rule (core/neural/NeuralParams.h)
        c.fit.hidden = hiddenLayers(units, "'run.hidden'");
    } catch (const std::invalid_argument& e) {
        fail(QString::fromUtf8(e.what()));
    }
    NeuralFitOptions& f = c.fit;
    const QString optimizer = text(run, "run", "optimizer");
    if (optimizer != "sgd" && optimizer != "adam")
        fail("'run.optimizer' must be sgd or adam");
    f.optimiser = optimizer == "adam" ? OptimiserKind::Adam : OptimiserKind::Sgd;
    const QString init = text(run, "run", "init");
    if (init != "report" && init != "scaled")
        fail("'run.init' must be report or scaled");
    f.reportInit = init == "report";
    // Absent before the start at the iterates' scale: the thesis's.
    if (run.contains("faStart")) {
        const auto start = parseFaStart(text(run, "run", "faStart").toStdString());
        if (!start)
            fail("'run.faStart' must be thesis or iterates");
        c.iterate.faStart = *start;
    }

    readPace(root, kPlaces, 1e7, 100'000'000, s);
    // The run's length: before issue 25, the report's 120.
    f.epochs = static_cast<int>(lengthOf(run, 1, kMaxRunLength, 120, s.position));
    c.loader = datasetLoader(); // the bundled sets, or the CSV file named
    return s;
}

} // namespace fa::io
