#pragma once
// The layout every mode of the window shares: its parameter panels stacked in a scroll area on
// the left, its views (a tab widget) on the right, with a splitter between. The mouse wheel
// over the panels scrolls them: a field, list or slider changes with the wheel only once it has
// the focus (installWheelGuard, ui/common/FormWidgets.h).
#include "ui/common/FormWidgets.h"

#include <QGridLayout>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <QWidget>
#include <initializer_list>

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
    scroll->setMinimumWidth(left->sizeHint().width() + 24);
    installWheelGuard(); // the wheel scrolls the panels; a field takes it only with the focus
    auto* split = new QSplitter;
    split->addWidget(scroll);
    split->addWidget(views);
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
