#pragma once
// Strict readers for the session files' JSON fields: each names the section and key it
// refuses, so a malformed file gives one clear message (SessionError).
#include "core/lab/Params.h"
#include "ui/session/SessionFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace fa::io {

[[noreturn]] inline void fail(const QString& message) {
    throw SessionError(message.toStdString());
}

inline QJsonValue require(const QJsonObject& o, const QString& section, const QString& key) {
    if (!o.contains(key))
        fail(QString("the session lacks '%1.%2'").arg(section, key));
    return o.value(key);
}

/// `section.key`, required, of the type `is` accepts; else "'section.key' must be <what>".
template <class Is>
QJsonValue typed(const QJsonObject& o, const QString& section, const QString& key, Is is,
                 const char* what) {
    const QJsonValue v = require(o, section, key);
    if (!std::invoke(is, v))
        fail(QString("'%1.%2' must be %3").arg(section, key, QString::fromUtf8(what)));
    return v;
}

/// Refuses a value outside [lo, hi]: "'section.key' = v is outside lo..hi".
template <class T> void requireWithin(const QString& section, const QString& key, T v, T lo, T hi) {
    if (!(v >= lo && v <= hi))
        fail(QString("'%1.%2' = %3 is outside %4..%5").arg(section, key).arg(v).arg(lo).arg(hi));
}

inline QJsonObject object(const QJsonObject& o, const QString& key) {
    const QJsonValue v = o.value(key);
    if (!v.isObject())
        fail(QString("the session lacks the '%1' section").arg(key));
    return v.toObject();
}

// Whole numbers must be exact in a double (|n| < 2^53); seeds may also be decimal strings.
inline long long whole(const QJsonObject& o, const QString& section, const QString& key,
                       long long lo, long long hi) {
    const QJsonValue v = require(o, section, key);
    long long n = 0;
    bool ok = false;
    if (v.isDouble()) {
        const double d = v.toDouble();
        ok = std::isfinite(d) && d == std::floor(d) && std::abs(d) < 9007199254740992.0;
        n = ok ? static_cast<long long>(d) : 0;
    } else if (v.isString()) {
        n = v.toString().toLongLong(&ok);
    }
    if (!ok)
        fail(QString("'%1.%2' must be a whole number").arg(section, key));
    requireWithin(section, key, n, lo, hi);
    return n;
}

inline QString text(const QJsonObject& o, const QString& section, const QString& key) {
    return typed(o, section, key, &QJsonValue::isString, "text").toString();
}

/// The checked top level of a session of this mode; `lab` names the lab in the refusal ("this
/// is not a neural-lab session").
inline QJsonObject sessionRootOf(const QByteArray& json, const QString& mode, const QString& lab) {
    const QJsonObject root = sessionRoot(json);
    if (root.value("mode").toString() != mode)
        fail(QString("this is not a %1 session (\"mode\" is not \"%2\")").arg(lab, mode));
    return root;
}

/// data.dataset: a bundled data set's name or a CSV file's path, never empty.
inline std::string datasetOf(const QJsonObject& data) {
    const QJsonValue v = require(data, "data", "dataset");
    if (!v.isString() || v.toString().isEmpty())
        fail("'data.dataset' must name a data set or a CSV file");
    return v.toString().toStdString();
}

inline double real(const QJsonObject& o, const QString& section, const QString& key) {
    const auto finite = [](const QJsonValue& v) {
        return v.isDouble() && std::isfinite(v.toDouble());
    };
    return typed(o, section, key, finite, "a number").toDouble();
}

/// A number within [lo, hi]: the range of the field that shows it.
inline double realIn(const QJsonObject& o, const QString& section, const QString& key, double lo,
                     double hi) {
    const double v = real(o, section, key);
    requireWithin(section, key, v, lo, hi);
    return v;
}

inline bool flag(const QJsonObject& o, const QString& section, const QString& key) {
    return typed(o, section, key, &QJsonValue::isBool, "true or false").toBool();
}

/// A word of `section.key` turned into a value by parse, which throws std::invalid_argument
/// naming what it refuses; its message comes after the key's name.
template <class Parse>
auto word(const QJsonObject& o, const QString& section, const QString& key, Parse parse) {
    const std::string w = text(o, section, key).toStdString();
    try {
        return parse(w);
    } catch (const std::invalid_argument& e) {
        fail(QString("'%1.%2': %3").arg(section, key, e.what()));
    }
}

/// run.methods: a non-empty list of distinct method names, each known to parse (which gives an
/// optional method) and, if given, accepted by fits(method) (else "does not fit " + fitsWhat).
template <class Parse, class Fits = std::nullptr_t>
auto methodsOf(const QJsonObject& run, Parse parse, Fits fits = nullptr,
               const QString& fitsWhat = {}) {
    const QJsonValue list = require(run, "run", "methods");
    if (!list.isArray() || list.toArray().isEmpty())
        fail("'run.methods' must be a non-empty list");
    std::vector<typename decltype(parse(std::string()))::value_type> methods;
    for (const QJsonValue& m : list.toArray()) {
        const auto method = parse(m.toString().toStdString());
        if (!method)
            fail(QString("'run.methods': unknown method '%1'").arg(m.toString()));
        if (std::find(methods.begin(), methods.end(), *method) != methods.end())
            fail(QString("'run.methods': '%1' is listed twice").arg(m.toString()));
        if constexpr (!std::is_same_v<Fits, std::nullptr_t>)
            if (!fits(*method))
                fail(QString("'run.methods': '%1' does not fit %2").arg(m.toString(), fitsWhat));
        methods.push_back(*method);
    }
    return methods;
}

/// Reads every parameter of the schema (core/lab/Params.h) that has a session key
/// ("run.learningRate"), each within its one range; a missing or bad one is refused by name.
template <class Config>
void readParams(const QJsonObject& root, const Schema<Config>& schema, Config& config) {
    for (const Param<Config>& p : schema) {
        const QString path = QString::fromStdString(p.session);
        if (path.isEmpty())
            continue;
        const QString section = path.section('.', 0, 0), key = path.section('.', 1);
        const QJsonObject o = object(root, section);
        if (p.sessionOptional && !o.contains(key))
            continue;
        const double v =
            p.kind == ParamKind::Whole
                ? static_cast<double>(whole(o, section, key, static_cast<long long>(p.lo),
                                            static_cast<long long>(p.hi)))
                : realIn(o, section, key, p.lo, p.hi);
        p.set(config, v);
    }
}

/// Writes every parameter of the schema that has a session key into its section of `root`.
template <class Config>
void writeParams(QJsonObject& root, const Schema<Config>& schema, const Config& config) {
    for (const Param<Config>& p : schema) {
        const QString path = QString::fromStdString(p.session);
        if (path.isEmpty())
            continue;
        const QString section = path.section('.', 0, 0), key = path.section('.', 1);
        QJsonObject o = root.value(section).toObject();
        o.insert(key, p.get(config));
        root.insert(section, o);
    }
}

/// The words name(v) of a list of values (the methods), as a JSON list.
template <class T, class Name> QJsonArray wordsJson(const std::vector<T>& values, Name name) {
    QJsonArray out;
    for (const T& v : values)
        out.append(QString::fromStdString(name(v)));
    return out;
}

/// Where a session keeps the run's position and, for the labs that have always written it as
/// text, the seed.
struct SessionPlaces {
    const char* mode;
    const char* positionKey;           ///< "epochs", "iterations", "samples"
    const char* seedSection = nullptr; ///< the seed as text in this section; none: a number
};

/// A session's JSON: format, version and mode, the lab's own sections (`root`), the speed, the
/// position, every parameter of the schema that has a session key, and the seed as text if
/// `places` asks for it.
template <class Config>
QByteArray sessionJson(QJsonObject root, const SessionPlaces& places, double speed, long position,
                       const Schema<Config>& schema, const Config& config, std::uint64_t seed = 0) {
    root.insert("format", kSessionFormat);
    root.insert("version", kSessionVersion);
    root.insert("mode", places.mode);
    root.insert("speed", speed);
    root.insert(places.positionKey, static_cast<double>(position));
    writeParams(root, schema, config);
    if (places.seedSection) {
        QJsonObject section = root.value(places.seedSection).toObject();
        section.insert("seed", QString::number(seed));
        root.insert(places.seedSection, section);
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

/// A session's speed ("speed", up to maxSpeed; the session type's default where absent) and
/// position (`places.positionKey`, up to maxPosition; 0 where absent).
template <class S>
void readPace(const QJsonObject& root, const SessionPlaces& places, double maxSpeed,
              long long maxPosition, S& s) {
    s.speed = root.contains("speed") ? realIn(root, "session", "speed", 0, maxSpeed) : S{}.speed;
    s.position = root.contains(places.positionKey)
                     ? static_cast<long>(whole(root, "session", places.positionKey, 0, maxPosition))
                     : 0;
}

/// The run's length, `run.length` from lo to hi (files from before issue 25 have none: `older`,
/// or the saved position if that is further); a position past it is refused.
inline long lengthOf(const QJsonObject& run, long long lo, long long hi, long older,
                     long position) {
    const long length = run.contains("length")
                            ? static_cast<long>(whole(run, "run", "length", lo, hi))
                            : std::max(older, position);
    if (position > length)
        fail("'epochs' lies past the run's 'run.length'");
    return length;
}

/// The view's plane: `view.x` and `view.y`, columns counted from 1, or both 0 for the principal
/// axes; x and y count from 0 (-1: the principal axes).
inline void readPlane(const QJsonObject& view, int& x, int& y) {
    x = static_cast<int>(whole(view, "view", "x", 0, 100000)) - 1;
    y = static_cast<int>(whole(view, "view", "y", 0, 100000)) - 1;
    if ((x < 0) != (y < 0) || (x >= 0 && x == y))
        fail("'view.x' and 'view.y' must be two different columns, or both 0 (principal axes)");
}

} // namespace fa::io
