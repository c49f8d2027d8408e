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

/// Every entry of a lab (explorer, posterior, neural, latent, nonlinear); empty for others.
const std::vector<ViewHelp>& viewHelp(const QString& lab);
/// The lab's entries as one HTML page.
QString viewHelpHtml(const QString& lab, const QString& labTitle);

class QMenuBar;
/// Help → Keyboard shortcuts: every menu entry that has a key, by menu, read from the menus
/// themselves (so the table cannot go stale), as one HTML table.
QString shortcutsHtml(const QMenuBar* bar);
