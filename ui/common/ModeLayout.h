#pragma once
// The layout every mode of the window shares: its parameter panels stacked in a scroll area on
// the left, its views (a tab widget) on the right, with a splitter between. The mouse wheel
// over the panels scrolls them: a field, list or slider changes with the wheel only once it has
// the focus (installWheelGuard, ui/common/FormWidgets.h).
#include "ui/common/FormWidgets.h"
#include "ui/common/ViewFocus.h"

#include <QEvent>
#include <QGridLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>
#include <QWidget>
#include <algorithm>
#include <initializer_list>

/// Keeps the parameter column as wide as its panels need beside the vertical scroll bar while
/// they change (a box given longer entries, a label that becomes "pictures (at most)"), so that
/// it never scrolls sideways nor cuts a field at its right edge.
class ColumnWidthKeeper : public QObject {
  public:
    ColumnWidthKeeper(QScrollArea* scroll, QWidget* content)
        : QObject(scroll), m_scroll(scroll), m_least(content->sizeHint().width() + 24) {
        content->installEventFilter(this);
        fit(content);
    }
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() == QEvent::LayoutRequest)
            fit(static_cast<QWidget*>(watched));
        return false;
    }

  private:
    void fit(const QWidget* content) {
        const int needed = content->minimumSizeHint().width() +
                           m_scroll->verticalScrollBar()->sizeHint().width() +
                           2 * m_scroll->frameWidth();
        m_scroll->setMinimumWidth(std::max(m_least, needed));
    }
    QScrollArea* m_scroll;
    int m_least; ///< the width the column was given at first
};

/// The page's layout: its panels and views side by side. column, if given, is set to the
/// parameter column (what LabPage::parameterColumn() returns and presentation mode hides).
inline void modeLayout(QWidget* page, std::initializer_list<QWidget*> panels, QWidget* views,
                       QWidget** column = nullptr) {
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    for (QWidget* p : panels)
        leftLayout->addWidget(p);
    leftLayout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setWidget(left);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // wide enough: ColumnWidthKeeper
    new ColumnWidthKeeper(scroll, left);
    installWheelGuard(); // the wheel scrolls the panels; a field takes it only with the focus
    auto* split = new QSplitter;
    split->addWidget(scroll);
    split->addWidget(views);
    ViewFocus::markViewArea(views); // a double-clicked view fills it
    split->setStretchFactor(1, 1);
    if (column)
        *column = scroll;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

/// Four views in a 2 × 2 grid, row by row, and a line of text across below them.
inline QWidget* fourViews(std::initializer_list<QWidget*> views, QWidget* below) {
    auto* grid = new QWidget;
    auto* layout = new QGridLayout(grid);
    layout->setContentsMargins(0, 0, 0, 0);
    int k = 0;
    for (QWidget* view : views) {
        layout->addWidget(view, k / 2, k % 2);
        ++k;
    }
    layout->addWidget(below, 2, 0, 1, 2);
    return grid;
}
