// The explorer's files: sessions (JSON), curves and trials as fa-sweep CSV.
#include "ui/explorer/ExplorerPage.h"

#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/TrialsPanel.h"
#include "ui/session/SessionFile.h"

#include <QDir>

bool ExplorerPage::openSession(const QString& path) {
    fa::io::Session s;
    try {
        s = fa::io::loadSession(path);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false; // nothing changed
    }
    fa::ExplorerConfig shown = s.config;
    if (!shown.learningRateChanges.empty())
        shown.learningRate =
            shown.learningRateChanges.back().second; // the rate in force at the end
    m_controls->setConfig(shown);
    m_controls->setViewOptions(s.view);
    m_controls->setSpeed(s.speed);
    m_sessionPosition = s.samples;
    start(s.config); // with its learning-rate changes, replayed at their sample counts
    if (s.samples > 0)
        runUntil(s.samples);
    emit message(QString("Opened %1 (replaying %2 samples)")
                     .arg(QDir::toNativeSeparators(path))
                     .arg(s.samples),
                 8000);
    return true;
}

bool ExplorerPage::saveSession(const QString& path) {
    const SnapshotPtr latest = latestSnapshot();
    if (!latest) {
        fail("Cannot save the session", "there is no run (its parameters were refused)");
        return false;
    }
    fa::io::Session s;
    s.config = latest->config;
    s.view = m_controls->viewOptions();
    s.speed = m_controls->speed();
    s.samples = latest->samples;
    try {
        fa::io::saveSession(path, s);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot save the session", QString::fromUtf8(e.what()));
        return false;
    }
    emit message("Saved " + QDir::toNativeSeparators(path), 5000);
    return true;
}

namespace {
bool writeRows(const QString& path, const std::vector<fa::FaSweepRow>& rows, QString& error) {
    try {
        fa::io::AtomicFile file(path.toStdString());
        fa::io::writeFaSweepCsv(file.stream(), rows);
        file.commit();
        return true;
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
        return false;
    }
}
} // namespace

bool ExplorerPage::exportCurves(const QString& path) {
    const SnapshotPtr latest = latestSnapshot();
    if (!latest) {
        fail("Cannot export", "there is no run");
        return false;
    }
    QString error;
    if (!writeRows(path, fa::sweepRows(*latest, latest->config), error)) {
        fail("Cannot export the curves", error);
        return false;
    }
    emit message("Exported the curves to " + QDir::toNativeSeparators(path), 5000);
    return true;
}

bool ExplorerPage::exportJob(const QString& path) {
    if (m_trials->rows().empty()) {
        fail("Cannot export trials", "no trials have finished yet (Run trials, Ctrl+T)");
        return false;
    }
    QString error;
    if (!writeRows(path, m_trials->rows(), error)) {
        fail("Cannot export the trials", error);
        return false;
    }
    emit message("Exported the trials to " + QDir::toNativeSeparators(path), 5000);
    return true;
}
