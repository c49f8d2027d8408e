#pragma once
// The data views' pair of axis combos (item 0: the principal axes, then the data's columns), as
// the latent and nonlinear-FA labs use them.
#include <QComboBox>
#include <QSignalBlocker>
#include <utility>

/// After the user changed one combo: the principal axes chosen on one are chosen on both; a
/// column chosen while the other shows the principal axes or the same column moves the other to
/// the next column. Neither combo signals. Returns the view's (x, y) columns, or (-1, -1) for
/// the principal axes.
inline std::pair<int, int> syncPlaneCombos(QComboBox* changed, QComboBox* x, QComboBox* y) {
    QComboBox* other = changed == x ? y : x;
    const QSignalBlocker bx(x), by(y);
    if (changed->currentIndex() <= 0) {
        changed->setCurrentIndex(0);
        other->setCurrentIndex(0);
    } else if (other->currentIndex() <= 0 || other->currentIndex() == changed->currentIndex()) {
        const int columns = changed->count() - 1;
        other->setCurrentIndex(changed->currentIndex() % columns + 1);
    }
    return {x->currentIndex() - 1, y->currentIndex() - 1};
}
