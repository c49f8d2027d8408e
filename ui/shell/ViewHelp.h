#pragma once
// Help → What am I looking at? (F1): for each view of the lab in view, the quantity plotted,
// its formula, and what a good and a bad curve look like. One entry per exported chart (the
// stems of LabPage::charts()), plus the views that are not charts.
#include <QString>
#include <QStringList>
#include <vector>

struct ViewHelp {
    QStringList charts; ///< the chart stems this entry explains ("covariance-distance", ...)
    QString title, quantity, good, bad;
};

/// Every entry of the lab with this id (its registry entry's help, ui/shell/Labs.cpp); empty
/// for an unknown id.
const std::vector<ViewHelp>& viewHelp(const QString& lab);
/// Each lab's entries, which the lab registry hands out.
const std::vector<ViewHelp>& explorerViewHelp();
const std::vector<ViewHelp>& posteriorViewHelp();
const std::vector<ViewHelp>& neuralViewHelp();
const std::vector<ViewHelp>& latentViewHelp();
const std::vector<ViewHelp>& nonlinearViewHelp();
/// The lab's entries as one HTML page.
QString viewHelpHtml(const QString& lab, const QString& labTitle);

class QMenuBar;
/// Help → Keyboard shortcuts: every menu entry that has a key, by menu, read from the menus
/// themselves (so the table cannot go stale), as one HTML table.
QString shortcutsHtml(const QMenuBar* bar);
