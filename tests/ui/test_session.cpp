// Session files: a round trip keeps every field (seeds beyond 32 bits, learning-rate changes),
// and each kind of malformed or incompatible file is refused with a message naming the problem.
#include "core/math/Rng.h"
#include "ui/session/LatentSessionFile.h"
#include "ui/session/NeuralSessionFile.h"
#include "ui/session/SessionFile.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace fa::io;

namespace {
Session sample() {
    Session s;
    s.config.generator.dim = 300;
    s.config.generator.latent = 7;
    s.config.generator.spectrumLo = 0.5;
    s.config.generator.spectrumHi = 123.25;
    s.config.generator.kind = fa::GeneratorKind::Haar;
    s.config.seed = 9007199254740991ULL; // 2^53 - 1: exact only because it is written as a string
    s.config.fitLatent = 5;
    s.config.runBatch = false;
    s.config.learningRate = 0.00123;
    s.config.warmup = 250;
    s.config.totalSamples = 40000;
    s.config.learningRateChanges = {{1000, 0.002}, {5000, 0.0005}};
    s.view.coordI = 4;
    s.view.coordJ = 299;
    s.view.blockSize = 25;
    s.speed = 500;
    s.samples = 12345;
    return s;
}
QJsonObject sampleJson() {
    return QJsonDocument::fromJson(sessionToJson(sample())).object();
}
// One list in a list (with clang 14, QJsonArray{QJsonArray{...}} copies the inner list instead).
QJsonArray listOf(const QJsonArray& inner) {
    return QJsonArray() << inner;
}
QString refusal(const QJsonObject& o) {
    try {
        sessionFromJson(QJsonDocument(o).toJson());
    } catch (const SessionError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}
} // namespace

class TestSession : public QObject {
    Q_OBJECT
  private slots:
    void roundTripKeepsEveryField() {
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        saveSession(path, sample());
        const Session s = loadSession(path), e = sample();
        QCOMPARE(s.config.generator.dim, 300);
        QCOMPARE(s.config.generator.latent, 7);
        QCOMPARE(s.config.generator.spectrumLo, 0.5);
        QCOMPARE(s.config.generator.spectrumHi, 123.25);
        QVERIFY(s.config.generator.kind == fa::GeneratorKind::Haar);
        QCOMPARE(s.config.seed, e.config.seed);
        QCOMPARE(s.config.fitLatent, 5);
        QVERIFY(s.config.runEm && s.config.runSga && !s.config.runBatch);
        QCOMPARE(s.config.learningRate, 0.00123);
        QCOMPARE(s.config.warmup, 250L);
        QCOMPARE(s.config.totalSamples, 40000L);
        QVERIFY(s.config.learningRateChanges == e.config.learningRateChanges);
        QCOMPARE(s.view.coordI, 4);
        QCOMPARE(s.view.coordJ, 299);
        QCOMPARE(s.view.blockSize, 25);
        QCOMPARE(s.speed, 500.0);
        QCOMPARE(s.samples, 12345L);
        // The file is readable JSON with 1-based view coordinates, as the window shows them.
        QCOMPARE(sampleJson()["view"].toObject()["coordI"].toInt(), 5);
    }

    void refusesMalformedFiles() {
        auto refused = [](const QByteArray& text) {
            try {
                sessionFromJson(text);
            } catch (const SessionError& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY(refused("{ not json").contains("not valid JSON"));
        QVERIFY(refused("[1, 2]").contains("not a JSON object"));
        QVERIFY(refused(R"({"format": "something-else", "version": 1})")
                    .contains("not an FA Explorer session"));
        QVERIFY(refused("").contains("not valid JSON"));
    }

    void refusesIncompatibleOrBadValues() {
        QJsonObject o = sampleJson();
        o["version"] = 7;
        QVERIFY(refusal(o).contains("newer FA Explorer"));

        o = sampleJson();
        QJsonObject model = o["model"].toObject();
        model.remove("dim");
        o["model"] = model;
        QVERIFY(refusal(o).contains("'model.dim'"));

        o = sampleJson();
        model = o["model"].toObject();
        model["latent"] = "ten";
        o["model"] = model;
        QVERIFY(refusal(o).contains("'model.latent' must be a whole number"));

        o = sampleJson();
        model = o["model"].toObject();
        model["generator"] = "magic";
        o["model"] = model;
        QVERIFY(refusal(o).contains("'model.generator'"));

        o = sampleJson();
        QJsonObject fitting = o["fitting"].toObject();
        fitting["fitLatent"] = 300; // K must be < D: refused by the engine's own check
        o["fitting"] = fitting;
        QVERIFY(refusal(o).contains("parameters are refused"));

        o = sampleJson();
        fitting = o["fitting"].toObject();
        fitting["em"] = 1;
        o["fitting"] = fitting;
        QVERIFY(refusal(o).contains("'fitting.em' must be true or false"));

        o = sampleJson();
        QJsonObject view = o["view"].toObject();
        view["coordJ"] = view["coordI"];
        o["view"] = view;
        QVERIFY(refusal(o).contains("must differ"));

        o = sampleJson();
        o["samples"] = 50000; // beyond totalSamples
        QVERIFY(refusal(o).contains("'session.samples'"));

        o = sampleJson();
        o.remove("fitting");
        QVERIFY(refusal(o).contains("'fitting' section"));
        QVERIFY(refusal(sampleJson()).isEmpty()); // the unmodified file is fine
    }

    void refusesWhatCannotRun() {
        // A version of 1e300 was read through toInt() as 0 and passed as an old version.
        QJsonObject o = sampleJson();
        o["version"] = 1e300;
        QVERIFY(refusal(o).contains("newer FA Explorer"));

        // The spectrum and learning rate ranges are the controls' (1e-4..1e9, 1e-7..10).
        auto withModel = [](const char* key, const QJsonValue& v) {
            QJsonObject o = sampleJson(), model = o["model"].toObject();
            model[key] = v;
            o["model"] = model;
            return o;
        };
        auto withFitting = [](const char* key, const QJsonValue& v) {
            QJsonObject o = sampleJson(), fitting = o["fitting"].toObject();
            fitting[key] = v;
            o["fitting"] = fitting;
            return o;
        };
        QVERIFY(refusal(withModel("spectrum", QJsonArray{1.0, 1e9})).isEmpty());
        QVERIFY(refusal(withModel("spectrum", QJsonArray{1.0, 1e308})).contains("[0.0001, 1e+09]"));
        QVERIFY(refusal(withModel("spectrum", QJsonArray{5e-5, 1.0})).contains("[0.0001, 1e+09]"));
        QVERIFY(refusal(withFitting("learningRate", 10.0)).isEmpty());
        QVERIFY(refusal(withFitting("learningRate", 1e6)).contains("'fitting.learningRate'"));
        QVERIFY(refusal(withFitting("learningRate", 1e6)).contains("1e-07..10"));
        QVERIFY(refusal(withFitting("learningRateChanges", listOf(QJsonArray{10})))
                    .contains("must be a list of [samples, rate] pairs"));
        QVERIFY(refusal(withFitting("learningRateChanges", listOf(QJsonArray{10, 1e6})))
                    .contains("[1e-07, 10]"));

        // D x K state that cannot fit (D = 10^6, K = 5000: 40 GB for the true F alone) is refused
        // before anything is allocated, with the figure.
        o = withModel("dim", 1000000);
        QJsonObject model = o["model"].toObject();
        model["latent"] = 5000;
        model["generator"] = "haar";
        o["model"] = model;
        QVERIFY2(refusal(o).contains("40.0 GB"), qPrintable(refusal(o)));
        // and 10^7 stored samples at D = 300 (24 GB) for batch refits.
        o = withFitting("batch", true);
        QJsonObject fitting = o["fitting"].toObject();
        fitting["totalSamples"] = 10000000;
        o["fitting"] = fitting;
        o["samples"] = 0;
        QVERIFY2(refusal(o).contains("24.0 GB"), qPrintable(refusal(o)));
    }

    void fileErrorsNameThePath() {
        QTemporaryDir dir;
        const QString missing = dir.filePath("nope.json");
        try {
            loadSession(missing);
            QFAIL("a missing file was read");
        } catch (const SessionError& e) {
            QVERIFY(QString(e.what()).contains("nope.json"));
        }
        try {
            saveSession(dir.filePath("no/such/folder/s.json"), sample());
            QFAIL("an unwritable path was written");
        } catch (const SessionError& e) {
            QVERIFY(QString(e.what()).contains("cannot write"));
        }
        QFile big(dir.filePath("big.json"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(2 << 20, ' '));
        big.close();
        QVERIFY_THROWS_EXCEPTION(SessionError, loadSession(big.fileName()));
    }

    // "improper" is read as "jeffreys" (one prior, latent.md §2.5); "independent" round-trips.
    void latentPriorWords() {
        const LatentSession s;
        const QByteArray json = latentSessionToJson(s);
        for (const auto& [word, prior] : std::vector<std::pair<QString, fa::FaPrior>>{
                 {"improper", fa::FaPrior::Jeffreys},
                 {"jeffreys", fa::FaPrior::Jeffreys},
                 {"independent", fa::FaPrior::Independent}}) {
            QJsonObject root = QJsonDocument::fromJson(json).object();
            QJsonObject run = root["run"].toObject();
            run["prior"] = word;
            root["run"] = run;
            const LatentSession u = latentSessionFromJson(QJsonDocument(root).toJson());
            QCOMPARE(u.config.fit.prior, prior);
            const QString written = QJsonDocument::fromJson(latentSessionToJson(u))
                                        .object()["run"]
                                        .toObject()["prior"]
                                        .toString();
            QCOMPARE(written, word == "improper" ? QString("jeffreys") : word);
        }
    }

    // Latent-lab sessions: every field survives a round trip; each bad field is named.
    void latentSessionRoundTripAndRefusals() {
        LatentSession s;
        fa::LatentLiveConfig& c = s.config;
        c.data.dataset = "/data/my file.csv";
        c.data.model = fa::LatentModel::Ppca;
        c.data.testFraction = 0.35;
        c.data.allowMissing = true;
        c.data.modelSeed = 123456789;
        c.methods = {fa::LatentMethod::ClosedForm, fa::LatentMethod::Em};
        c.fit.latent = 3;
        c.fit.components = 4;
        c.fit.chains = 2;
        c.fit.burnIn = 77;
        c.fit.learningRate = 0.0025;
        c.fit.prior = fa::FaPrior::Conjugate;
        c.length = 900;
        c.viewX = 2;
        c.viewY = 0;
        c.traceEntry = 5;
        s.speed = 0;
        s.position = 321;
        const QByteArray json = latentSessionToJson(s);
        const LatentSession t = latentSessionFromJson(json);
        QCOMPARE(latentSessionToJson(t), json);
        QCOMPARE(t.config.data.dataset, c.data.dataset);
        QCOMPARE(t.config.methods, c.methods);
        QCOMPARE(t.config.fit.seed, std::uint64_t(123456789));
        QCOMPARE(t.config.data.splitSeed, fa::deriveSeed(123456789, fa::SeedStream::FirstTrial));
        QCOMPARE(t.config.viewX, 2);
        QCOMPARE(t.position, 321L);
        QCOMPARE(t.config.fit.prior, fa::FaPrior::Conjugate);

        auto refused = [&](const QString& section, const QString& key, const QJsonValue& v) {
            QJsonObject root = QJsonDocument::fromJson(json).object();
            QJsonObject part = root[section].toObject();
            part[key] = v;
            root[section] = part;
            try {
                latentSessionFromJson(QJsonDocument(root).toJson());
            } catch (const SessionError& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY(refused("data", "model", "ica").contains("ica"));
        QVERIFY(refused("run", "methods", QJsonArray{"gibbs"}).contains("gibbs"));
        QVERIFY(refused("run", "methods", QJsonArray{"em", "em"}).contains("listed twice"));
        QVERIFY(
            refused("run", "methods", QJsonArray{"svd"}).contains("does not fit the model 'ppca'"));
        QVERIFY(refused("data", "model", 3).contains("data.model"));
        QVERIFY(refused("run", "latent", 0).contains("run.latent"));
        QVERIFY(refused("data", "testFraction", 0.95).contains("testFraction"));
        QVERIFY(refused("view", "y", 3).contains("view"));
        // Seeds: 0 to 2^53 - 1, as the CLI's --seed (core/lab/Params.h).
        QVERIFY(refused("data", "seed", -1).contains("data.seed"));
        QVERIFY(refused("data", "seed", 9007199254740992.0).contains("data.seed"));
        QVERIFY(refused("data", "seed", 2e9).isEmpty());
        QVERIFY(refused("run", "learningRate", 50).contains("learningRate"));
        QVERIFY(refused("run", "prior", "flat").contains("run.prior"));
        QJsonObject root = QJsonDocument::fromJson(json).object();
        root["iterations"] = 901; // beyond the run's length
        QVERIFY_THROWS_EXCEPTION(SessionError, latentSessionFromJson(QJsonDocument(root).toJson()));
        root["mode"] = "posterior";
        QVERIFY_THROWS_EXCEPTION(SessionError, latentSessionFromJson(QJsonDocument(root).toJson()));
    }

    void neuralSessionRoundTripAndRefusals() {
        fa::io::NeuralSession s;
        s.config.dataset = "boston";
        s.config.methods = {fa::NeuralMethod::VippcaLaplace, fa::NeuralMethod::VifaGauss};
        s.config.fit.hidden = {50, 50};
        s.config.fit.latent = 3;
        s.config.fit.batch = 32;
        s.config.fit.samples = 7;
        s.config.fit.learningRate = 0.0025;
        s.config.fit.optimiser = fa::OptimiserKind::Sgd;
        s.config.fit.reportInit = false;
        s.config.hyper = {0.5, 40.0, 0.03};
        s.config.split = 4;
        s.config.seed = 9007199254740991ULL; // the largest seed a double holds exactly
        s.speed = 12;
        s.position = 33;
        s.config.iterateMethods = {fa::IterateMethod::MultiSwag, fa::IterateMethod::Map};
        s.config.iterate.members = 7;
        s.config.iterate.rank = 4;
        s.config.iterate.swaStart = 11;
        s.config.iterate.learningRate = 0.05;
        s.config.iterate.batch = 16;
        s.config.iterate.faStart = fa::FaStart::Iterates;
        const fa::io::NeuralSession r =
            fa::io::neuralSessionFromJson(fa::io::neuralSessionToJson(s));
        QCOMPARE(r.config.dataset, s.config.dataset);
        QVERIFY(r.config.methods == s.config.methods);
        QVERIFY(r.config.fit.hidden == s.config.fit.hidden);
        QCOMPARE(r.config.fit.latent, 3);
        QCOMPARE(r.config.fit.batch, 32);
        QCOMPARE(r.config.fit.samples, 7);
        QCOMPARE(r.config.fit.learningRate, 0.0025);
        QVERIFY(r.config.fit.optimiser == fa::OptimiserKind::Sgd);
        QVERIFY(!r.config.fit.reportInit);
        QCOMPARE(r.config.hyper.priorPrecision, 0.5);
        QCOMPARE(r.config.hyper.noisePrecision, 40.0);
        QCOMPARE(r.config.hyper.sigma, 0.03);
        QCOMPARE(r.config.split, 4);
        QCOMPARE(r.config.seed, s.config.seed);
        QCOMPARE(r.speed, 12.0);
        QCOMPARE(r.position, 33L);
        QVERIFY(r.config.iterateMethods == s.config.iterateMethods);
        QCOMPARE(r.config.iterate.members, 7);
        QCOMPARE(r.config.iterate.rank, 4);
        QCOMPARE(r.config.iterate.swaStart, 11);
        QCOMPARE(r.config.iterate.learningRate, 0.05);
        QCOMPARE(r.config.iterate.batch, 16);
        QVERIFY(r.config.iterate.faStart == fa::FaStart::Iterates);
        // A session written before issue 27 (no iterate methods, no settings of theirs) opens
        // with the defaults.
        {
            QJsonObject root = QJsonDocument::fromJson(fa::io::neuralSessionToJson(s)).object();
            QJsonObject run = root["run"].toObject();
            for (const char* key :
                 {"members", "rank", "swaStart", "sgdLearningRate", "sgdBatch", "faStart"}) {
                QVERIFY2(run.contains(key), key);
                run.remove(key);
            }
            run["methods"] = QJsonArray{"vifa-gauss"};
            root["run"] = run;
            const fa::io::NeuralSession old =
                fa::io::neuralSessionFromJson(QJsonDocument(root).toJson());
            const fa::NeuralLiveConfig defaults;
            QVERIFY(old.config.iterateMethods.empty());
            QCOMPARE(old.config.iterate.members, defaults.iterate.members);
            QCOMPARE(old.config.iterate.learningRate, defaults.iterate.learningRate);
            QVERIFY(old.config.iterate.faStart == fa::FaStart::Thesis);
        }
        const auto refused = [&](const char* from, const char* to, const char* why) {
            QByteArray json = fa::io::neuralSessionToJson(s);
            QVERIFY2(json.contains(from), from);
            json.replace(from, to);
            try {
                fa::io::neuralSessionFromJson(json);
                QFAIL(qPrintable(QString("accepted: %1").arg(to)));
            } catch (const fa::io::SessionError& e) {
                QVERIFY2(QString(e.what()).contains(why), e.what());
            }
        };
        refused("\"mode\": \"neural\"", "\"mode\": \"posterior\"", "not a neural-lab session");
        refused("\"vifa-gauss\"", "\"vifa\"", "unknown method 'vifa'");
        refused("\"vifa-gauss\"", "\"vippca-laplace\"", "listed twice");
        refused("\"optimizer\": \"sgd\"", "\"optimizer\": \"rmsprop\"", "sgd or adam");
        refused("\"init\": \"scaled\"", "\"init\": \"warm\"", "report or scaled");
        refused("\"latent\": 3", "\"latent\": 0", "run.latent");
        refused("\"learningRate\": 0.0025", "\"learningRate\": 2", "run.learningRate");
        refused("\"rank\": 4", "\"rank\": 0", "run.rank");
        refused("\"map\"", "\"multiswag\"", "listed twice");
        refused("\"faStart\": \"iterates\"", "\"faStart\": \"unit\"", "thesis or iterates");
    }
};

QTEST_APPLESS_MAIN(TestSession)
#include "test_session.moc"
