// The explorer's files: sessions (JSON), curves and trials as fa-sweep CSV.
#include "ui/explorer/ExplorerPage.h"

#include "core/explorer/FaSweepCsv.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/TrialsPanel.h"
#include "ui/session/SessionFile.h"

#include <QDir>

bool ExplorerPage::openSession(const QString& path) {
    // Not built to check it: the reader checks every value, and a run of D = 10^6 is large.
    const auto s = readSession<fa::io::Session>(path, fa::io::loadSession, false);
    if (!s)
        return false; // nothing changed
    m_controls->setViewOptions(s->view);
    // its learning-rate changes replay at their samples
    replaySession(s->config, s->speed, s->samples, speedBox(), path, "samples");
    return true;
}

bool ExplorerPage::saveSession(const QString& path) {
    return saveSessionFile<fa::io::Session>(
        path, fa::io::saveSession, &fa::io::Session::samples, speedBox(),
        [this](fa::io::Session& s) { s.view = m_controls->viewOptions(); });
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
