// MainWindow's presets: the Presets menu, opening one (its session and caption), and what a
// recording of the lab in view takes from it (the frames' scale, the caption above each frame).
#include "ui/shell/MainWindow.h"

#include "ui/common/LabPage.h"
#include "ui/session/PresetFile.h"
#include "ui/session/SessionFile.h"
#include "ui/shell/PresetCaption.h"

#include <QMap>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <cstdio>

void MainWindow::buildPresetMenu() {
    QMenu* menu = menuBar()->addMenu("&Presets");
    menu->setToolTipsVisible(true);
    QStringList errors;
    const std::vector<fa::io::Preset> presets =
        fa::io::listPresets(fa::io::presetDirectory(), &errors);
    for (const QString& e : errors) // a broken preset is left out of the menu, and said why
        std::fprintf(stderr, "faexplorer: preset skipped: %s\n", qPrintable(e));
    if (presets.empty()) {
        menu->addAction(QString("(no presets in %1)").arg(fa::io::presetDirectory()))
            ->setEnabled(false);
        return;
    }
    QMap<QString, QMenu*> groups;
    for (const fa::io::Preset& p : presets) {
        QMenu*& group = groups[p.group];
        if (!group) {
            group = menu->addMenu(p.group);
            group->setToolTipsVisible(true);
        }
        QAction* a = group->addAction(p.title, this, [this, name = p.name] {
            if (!openPreset(name))
                QMessageBox::warning(this, "Open preset", m_lastError);
        });
        a->setToolTip((p.source.isEmpty() ? QString() : p.source + ": ") + p.caption);
        a->setStatusTip(p.source);
    }
    menu->addSeparator();
    menu->addAction("Hide the &caption", QKeySequence(Qt::Key_F1 | Qt::ShiftModifier), m_caption,
                    &PresetCaption::dismiss)
        ->setToolTip("Put the preset's caption away (Shift+F1)");
}

bool MainWindow::openPreset(const QString& name) {
    fa::io::Preset preset;
    try {
        preset = fa::io::findPreset(fa::io::presetDirectory(), name);
    } catch (const fa::io::SessionError& e) {
        m_lastError = "Cannot open the preset: " + QString::fromUtf8(e.what());
        say("⚠ " + m_lastError, 15000);
        return false;
    }
    if (!openSession(preset.path))
        return false;
    m_caption->setPreset(preset);
    m_caption->followLab(currentLab());
    // The instruction first: a narrow status bar (200 % zoom) cuts the title, which the notes show.
    say(kPlayHint + preset.title, 15000);
    return true;
}

RecordOptions MainWindow::recordingDefaults() const {
    RecordOptions options;
    const fa::io::Preset& preset = m_caption->preset();
    const bool ours = !preset.name.isEmpty() && preset.lab == currentLab();
    options.logarithmic = ours && !preset.recordingScale.isEmpty()
                              ? preset.recordingScale == "log"
                              : currentPage()->recordsOnLogScale();
    if (ours && m_caption->isVisible())
        options.header = m_caption;
    return options;
}
