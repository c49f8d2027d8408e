#include "ui/session/SessionFile.h"

#include "core/explorer/ExplorerParams.h"
#include "ui/session/JsonFields.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fa::io {

QJsonObject sessionRoot(const QByteArray& json) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        fail(QString("not valid JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        fail("not an FA Explorer session (the top level is not a JSON object)");
    const QJsonObject root = doc.object();
    if (root.value("format").toString() != kSessionFormat)
        fail(QString("not an FA Explorer session (\"format\" is not \"%1\")").arg(kSessionFormat));
    const QJsonValue version = root.value("version");
    if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble()) ||
        version.toDouble() < 1)
        fail("the session has no valid \"version\"");
    // Compared as the double it is: toInt() turns 1e300 into 0, which passed as an old version.
    if (version.toDouble() > kSessionVersion)
        fail(QString("the session was written by a newer FA Explorer (format version %1); this one "
                     "reads version %2")
                 .arg(version.toDouble())
                 .arg(kSessionVersion));
    return root;
}

QByteArray readSessionFile(const QString& path) {
    // Only a regular file is a session: a FIFO waited for a writer for ever (or, fed without
    // end, was read until memory ran out: the size cap saw 0 bytes), a device streams. Opened
    // without waiting (O_NONBLOCK), checked on the open file, then read up to the cap.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        fail(QString("cannot open '%1': %2").arg(path, QString::fromLocal8Bit(strerror(errno))));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(QString("cannot open '%1': %2")
                 .arg(path, S_ISDIR(st.st_mode) ? "it is a folder"
                                                : "not a regular file (a FIFO, device or socket)"));
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        fail(QString("cannot open '%1': %2").arg(path, file.errorString()));
    }
    constexpr qint64 kMaxBytes = 1 << 20; // sessions are tiny; refuse to slurp a huge file
    const QByteArray json = file.read(kMaxBytes + 1); // the cap holds while the file grows too
    if (json.size() > kMaxBytes || file.size() > kMaxBytes)
        fail(QString("'%1' is too large to be a session (over %2 bytes)").arg(path).arg(kMaxBytes));
    return json;
}

void writeSessionFile(const QString& path, const QByteArray& json) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        fail(QString("cannot write '%1': %2").arg(path, file.errorString()));
    file.write(json);
    if (!file.commit())
        fail(QString("cannot write '%1': %2").arg(path, file.errorString()));
}

QString sessionMode(const QString& path) {
    try {
        return sessionRoot(readSessionFile(path)).value("mode").toString("explorer");
    } catch (const SessionError& e) {
        throw SessionError(
            QString("'%1': %2").arg(path, QString::fromUtf8(e.what())).toStdString());
    }
}

QByteArray sessionToJson(const Session& s) {
    const ExplorerConfig& c = s.config;
    QJsonObject model{{"spectrum", QJsonArray{c.generator.spectrumLo, c.generator.spectrumHi}},
                      {"generator", QString::fromStdString(generatorName(c.generator.kind))}};
    QJsonObject fitting{{"em", c.runEm},
                        {"sga", c.runSga},
                        {"batch", c.runBatch},
                        {"pointsPerDecade", c.pointsPerDecade}};
    QJsonArray changes;
    for (const auto& [at, eta] : c.learningRateChanges)
        changes.append(QJsonArray{static_cast<double>(at), eta});
    fitting.insert("learningRateChanges", changes);
    QJsonObject view{{"coordI", s.view.coordI + 1}, // 1-based, as the window shows them
                     {"coordJ", s.view.coordJ + 1},
                     {"blockSize", s.view.blockSize},
                     {"recent", s.view.recent}};
    return sessionJson({{"model", model}, {"fitting", fitting}, {"view", view}},
                       {"explorer", "samples", "model"}, s.speed, s.samples, explorerParams(), c,
                       c.seed);
}

Session sessionFromJson(const QByteArray& json) {
    const QJsonObject root = sessionRoot(json);
    if (root.value("mode").toString("explorer") != "explorer")
        fail(QString("this FA Explorer cannot open '%1' sessions")
                 .arg(root.value("mode").toString()));

    Session s;
    ExplorerConfig& c = s.config;
    const QJsonObject model = object(root, "model");
    readParams(root, explorerParams(), c); // the ranges of the CLI, the fields and the core
    const QJsonValue spectrum = require(model, "model", "spectrum");
    const QJsonArray range = spectrum.toArray();
    if (!spectrum.isArray() || range.size() != 2 || !range[0].isDouble() || !range[1].isDouble())
        fail("'model.spectrum' must be a pair of numbers [a, b]");
    c.generator.spectrumLo = range[0].toDouble();
    c.generator.spectrumHi = range[1].toDouble();
    const QString generator = require(model, "model", "generator").toString();
    if (generator == "exact")
        c.generator.kind = GeneratorKind::Exact;
    else if (generator == "haar")
        c.generator.kind = GeneratorKind::Haar;
    else
        fail("'model.generator' must be \"exact\" or \"haar\"");

    const QJsonObject fitting = object(root, "fitting");
    c.runEm = flag(fitting, "fitting", "em");
    c.runSga = flag(fitting, "fitting", "sga");
    c.runBatch = flag(fitting, "fitting", "batch");
    c.pointsPerDecade =
        fitting.contains("pointsPerDecade")
            ? static_cast<int>(whole(fitting, "fitting", "pointsPerDecade", 1, 1000))
            : 20;
    if (fitting.contains("learningRateChanges")) {
        const QJsonValue v = fitting.value("learningRateChanges");
        if (!v.isArray())
            fail("'fitting.learningRateChanges' must be a list of [samples, rate] pairs");
        for (const QJsonValue& pair : v.toArray()) {
            const QJsonArray p = pair.toArray();
            if (!pair.isArray() || p.size() != 2 || !p[0].isDouble() || !p[1].isDouble() ||
                p[0].toDouble() != std::floor(p[0].toDouble()))
                fail("'fitting.learningRateChanges' must be a list of [samples, rate] pairs");
            c.learningRateChanges.emplace_back(static_cast<long>(p[0].toDouble()), p[1].toDouble());
        }
    }

    if (root.contains("view")) {
        const QJsonObject view = object(root, "view");
        s.view.coordI = static_cast<int>(whole(view, "view", "coordI", 1, c.generator.dim)) - 1;
        s.view.coordJ = static_cast<int>(whole(view, "view", "coordJ", 1, c.generator.dim)) - 1;
        s.view.blockSize = static_cast<int>(whole(view, "view", "blockSize", 1, 1000));
        s.view.recent = static_cast<int>(whole(view, "view", "recent", 0, 100000));
        if (s.view.coordI == s.view.coordJ)
            fail("'view.coordI' and 'view.coordJ' must differ");
    }
    s.speed = root.contains("speed") ? realIn(root, "session", "speed", 0, 1e7) : 0.0;
    s.samples = root.contains("samples")
                    ? static_cast<long>(whole(root, "session", "samples", 0, c.totalSamples))
                    : 0;
    try {
        validate(c);
    } catch (const std::invalid_argument& e) {
        fail(QString("the session's parameters are refused: %1").arg(e.what()));
    }
    return s;
}

} // namespace fa::io
