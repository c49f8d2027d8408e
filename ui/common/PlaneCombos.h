#pragma once
// The data views' pair of axis combos (item 0: the principal axes, then the data's columns), as
// the latent and nonlinear-FA labs use them: syncPlaneCombos, and PlanePicker that owns them.
#include <QComboBox>
#include <QSignalBlocker>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

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

/// A data view's pair of axis combos and the columns they offer (the latent and nonlinear-FA
/// labs' "view x" and "view y"). Item 0 is the principal axes, then the data's columns.
class PlanePicker {
  public:
    PlanePicker() : m_x(new QComboBox), m_y(new QComboBox) {
        m_x->setToolTip("The data view's horizontal axis: a column, or the principal axes.");
        m_y->setToolTip("The data view's vertical axis (with the principal axes: the second).");
    }
    QComboBox* x() const { return m_x; }
    QComboBox* y() const { return m_y; }
    /// The view the combos show: (x, y) columns, or (-1, -1) for the principal axes.
    std::pair<int, int> view() const { return {m_x->currentIndex() - 1, m_y->currentIndex() - 1}; }
    /// Offers these columns (refilling the combos only when they changed: true then).
    bool offer(const std::vector<std::string>& columns) {
        if (columns == m_columns)
            return false;
        m_columns = columns;
        for (QComboBox* box : {m_x, m_y}) {
            box->clear();
            box->addItem(box == m_x ? "principal axis 1" : "principal axis 2");
            for (const auto& c : columns)
                box->addItem(QString::fromStdString(c));
        }
        return true;
    }
    /// A combo's index for the view's label: its column's + 1, else 0 (the principal axes).
    int indexOf(const std::string& label) const {
        const auto it = std::find(m_columns.begin(), m_columns.end(), label);
        return label == "principal axis 1" || it == m_columns.end()
                   ? 0
                   : static_cast<int>(it - m_columns.begin()) + 1;
    }
    /// Shows the run's view (a session's, or one a refusal kept), so a restart keeps it.
    void select(const std::string& xLabel, const std::string& yLabel) {
        m_x->setCurrentIndex(indexOf(xLabel));
        m_y->setCurrentIndex(indexOf(yLabel));
    }
    /// Back to the principal axes (a new data set).
    void reset() {
        m_x->setCurrentIndex(0);
        m_y->setCurrentIndex(0);
    }
    /// After the user changed one of the two (syncPlaneCombos).
    std::pair<int, int> sync(QComboBox* changed) { return syncPlaneCombos(changed, m_x, m_y); }
    /// The columns are offered again on the next offer() (a refused run's controls restored).
    void forget() { m_columns.clear(); }

  private:
    QComboBox *m_x, *m_y;
    std::vector<std::string> m_columns;
};
