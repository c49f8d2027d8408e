#pragma once
// The lab registry: every lab the window offers, in menu order. Adding a lab is a core run
// (fa::LiveRun), a page (LabPage) and one entry here; MainWindow reads nothing else.
#include <QString>
#include <functional>
#include <vector>

class LabPage;

struct LabEntry {
    QString id;      ///< --mode NAME and the settings group: explorer, posterior, neural
    QString title;   ///< the tab and the Mode menu
    QString tooltip; ///< what the lab shows
    std::function<LabPage*()> make;
};

const std::vector<LabEntry>& labRegistry();
