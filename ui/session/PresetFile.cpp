#include "ui/session/PresetFile.h"

#include "ui/session/JsonFields.h"
#include "ui/session/SessionFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <algorithm>

namespace fa::io {

QString shareDirectory(const QString& sub) {
    const QByteArray env = qgetenv("FAEXPLORER_SHARE");
    if (!env.isEmpty())
        return QDir(QString::fromLocal8Bit(env)).filePath(sub);
    // QCoreApplication knows the program's folder once it exists; before, /proc/self/exe.
    QString bin = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    if (bin.isEmpty())
        bin = QFileInfo(QFile::symLinkTarget("/proc/self/exe")).absolutePath();
    return QDir::cleanPath(bin + "/../share/faexplorer/" + sub);
}

namespace {
QString text(const QJsonObject& block, const QString& key, bool required) {
    const QJsonValue v = block.value(key);
    if (v.isUndefined() && !required)
        return {};
    if (!v.isString() || v.toString().trimmed().isEmpty())
        fail(QString("'preset.%1' must be a non-empty text").arg(key));
    return v.toString().trimmed();
}
/// "preset.checks": [{"after": 1000, "row": {"algorithm": "em", "samples": "1000"},
/// "column": "rel_cov_dist", "value": "0.09", "tolerance": 0.01}, ...]; the value is text,
/// written as the caption writes it; "table": "imputation" (optional) names another of the
/// page's tables.
std::vector<PresetClaim> claimsOf(const QJsonObject& block) {
    std::vector<PresetClaim> claims;
    if (!block.contains("checks"))
        return claims;
    const QJsonValue checks = block.value("checks");
    if (!checks.isArray())
        fail("'preset.checks' must be a list");
    for (const QJsonValue& v : checks.toArray()) {
        const QJsonObject check = v.toObject();
        PresetClaim c;
        c.after = static_cast<long>(whole(check, "preset.checks", "after", 0, 100'000'000));
        const QJsonObject row = check.value("row").toObject();
        for (auto it = row.begin(); it != row.end(); ++it)
            c.row.emplace_back(it.key(), it.value().toString());
        c.table = text(check, "table", false);
        c.column = text(check, "column", true);
        c.text = text(check, "value", true);
        bool number = false;
        c.value = c.text.toDouble(&number);
        c.tolerance = realIn(check, "preset.checks", "tolerance", 0, 1e300);
        if (!number || c.row.empty())
            fail("every 'preset.checks' entry needs a 'row' and a number as 'value'");
        claims.push_back(c);
    }
    return claims;
}
} // namespace

Preset readPreset(const QString& path) {
    try {
        const QJsonObject root = sessionRoot(readSessionFile(path));
        const QJsonObject block = object(root, "preset");
        Preset p;
        p.name = QFileInfo(path).completeBaseName();
        p.path = QFileInfo(path).absoluteFilePath();
        p.lab = root.value("mode").toString("explorer");
        p.group = text(block, "group", true);
        p.title = text(block, "title", true);
        p.source = text(block, "source", false);
        p.caption = text(block, "caption", true);
        p.order = static_cast<int>(whole(block, "preset", "order", 0, 1000000));
        p.recordingScale = text(block, "recordingScale", false);
        if (!p.recordingScale.isEmpty() && p.recordingScale != "log" &&
            p.recordingScale != "linear")
            fail("'preset.recordingScale' must be \"log\" or \"linear\"");
        p.claims = claimsOf(block);
        return p;
    } catch (const SessionError& e) {
        throw SessionError(
            QString("'%1': %2").arg(path, QString::fromUtf8(e.what())).toStdString());
    }
}

std::vector<Preset> listPresets(const QString& folder, QStringList* errors) {
    std::vector<Preset> presets;
    const QDir dir(folder);
    for (const QString& file : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
        try {
            presets.push_back(readPreset(dir.filePath(file)));
        } catch (const SessionError& e) {
            if (errors)
                errors->append(QString::fromUtf8(e.what()));
        }
    }
    std::stable_sort(presets.begin(), presets.end(), [](const Preset& a, const Preset& b) {
        return a.order != b.order ? a.order < b.order : a.name < b.name;
    });
    return presets;
}

Preset findPreset(const QString& folder, const QString& name) {
    const QString path = QDir(folder).filePath(name + ".json");
    if (!name.isEmpty() && !name.contains('/') && QFileInfo::exists(path))
        return readPreset(path);
    QStringList names;
    for (const Preset& p : listPresets(folder))
        names << p.name;
    if (names.isEmpty())
        fail(QString("no preset '%1': there are no presets in '%2'").arg(name, folder));
    fail(QString("no preset '%1'; the presets are: %2").arg(name, names.join(", ")));
}

} // namespace fa::io
