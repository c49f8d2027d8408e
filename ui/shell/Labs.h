#pragma once
// The lab registry: every lab the window offers, in menu order. Adding a lab is a core run
// (fa::LiveRun), a page (LabPage) and one entry here; MainWindow reads nothing else. The lab ids
// are written here only: the shell and faexplorer ask the page (LabPage's virtuals: its unit,
// its default length, its speed field) and never compare an id.
#include "ui/shell/ViewHelp.h"

#include <QString>
#include <functional>
#include <vector>

class LabPage;

struct LabEntry {
    QString id;      ///< --mode NAME and the settings group
    QString title;   ///< the tab and the Mode menu
    QString tooltip; ///< what the lab shows
    std::function<LabPage*()> make;
    /// Help → What am I looking at?: an entry per exported chart (ui/shell/ViewHelp.cpp)
    const std::vector<ViewHelp>& (*help)();
};

const std::vector<LabEntry>& labRegistry();
/// Adds a lab after the built-in ones, before any window is made: how a lab from outside this
/// list reaches the shell (tests/ui/test_toy_lab.cpp builds one from docs/ARCHITECTURE.md's
/// steps, to check that nothing else needs to know of it).
void addLab(LabEntry lab);
