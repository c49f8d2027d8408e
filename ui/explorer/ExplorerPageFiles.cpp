// The explorer's files: sessions (JSON), curves and trials as fa-sweep CSV.
#include "ui/explorer/ExplorerPage.h"

#include "core/explorer/FaSweepCsv.h"
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
    start(s.config, false, Start::Paused); // its learning-rate changes replay at their samples
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

bool ExplorerPage::exportCurves(const QString& path) {
    const SnapshotPtr latest = latestSnapshot();
    if (!latest) {
        fail("Cannot export", "there is no run");
        return false;
    }
    return writeCsv(path, "the curves", [&](std::ostream& out) {
        fa::io::writeFaSweepCsv(out, fa::sweepRows(*latest, latest->config));
    });
}

bool ExplorerPage::exportJob(const QString& path) {
    if (m_trials->rows().empty()) {
        fail("Cannot export trials", "no trials have finished yet (Run trials, Ctrl+T)");
        return false;
    }
    return writeCsv(path, "the trials",
                    [&](std::ostream& out) { fa::io::writeFaSweepCsv(out, m_trials->rows()); });
}
