#pragma once
// Strict readers for the session files' JSON fields: each names the section and key it
// refuses, so a malformed file gives one clear message (SessionError).
#include "core/lab/Params.h"
#include "ui/session/SessionFile.h"

#include <QJsonObject>
#include <QJsonValue>
#include <cmath>

namespace fa::io {

[[noreturn]] inline void fail(const QString& message) {
    throw SessionError(message.toStdString());
}

inline QJsonValue require(const QJsonObject& o, const QString& section, const QString& key) {
    if (!o.contains(key))
        fail(QString("the session lacks '%1.%2'").arg(section, key));
    return o.value(key);
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
    if (n < lo || n > hi)
        fail(QString("'%1.%2' = %3 is outside %4..%5").arg(section, key).arg(n).arg(lo).arg(hi));
    return n;
}

inline QString text(const QJsonObject& o, const QString& section, const QString& key) {
    const QJsonValue v = require(o, section, key);
    if (!v.isString())
        fail(QString("'%1.%2' must be text").arg(section, key));
    return v.toString();
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
    const QJsonValue v = require(o, section, key);
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        fail(QString("'%1.%2' must be a number").arg(section, key));
    return v.toDouble();
}

/// A number within [lo, hi]: the range of the field that shows it.
inline double realIn(const QJsonObject& o, const QString& section, const QString& key, double lo,
                     double hi) {
    const double v = real(o, section, key);
    if (!(v >= lo && v <= hi))
        fail(QString("'%1.%2' = %3 is outside %4..%5").arg(section, key).arg(v).arg(lo).arg(hi));
    return v;
}

inline bool flag(const QJsonObject& o, const QString& section, const QString& key) {
    const QJsonValue v = require(o, section, key);
    if (!v.isBool())
        fail(QString("'%1.%2' must be true or false").arg(section, key));
    return v.toBool();
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

} // namespace fa::io
