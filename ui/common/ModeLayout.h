#pragma once
// The layout every mode of the window shares: its parameter panels stacked in a scroll area on
// the left, its views (a tab widget) on the right, with a splitter between. The mouse wheel
// over the panels scrolls them: a field or list changes with the wheel only once it has the
// focus (clicked or tabbed to), so scrolling past a field never changes a parameter.
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>
#include <QWidget>
#include <initializer_list>

/// Hands wheel events over unfocused fields to the panel's scroll bar.
class WheelToScroll : public QObject {
  public:
    WheelToScroll(QScrollArea* area, QObject* parent) : QObject(parent), m_area(area) {}
    bool eventFilter(QObject* watched, QEvent* event) override {
        auto* w = qobject_cast<QWidget*>(watched);
        if (event->type() != QEvent::Wheel || !w || w->hasFocus())
            return false;
        QCoreApplication::sendEvent(m_area->verticalScrollBar(), event);
        return true;
    }

  private:
    QScrollArea* m_area;
};

inline QSplitter* modeLayout(std::initializer_list<QWidget*> panels, QWidget* views) {
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
    auto* guard = new WheelToScroll(scroll, scroll);
    for (QWidget* field : left->findChildren<QAbstractSpinBox*>()) {
        field->setFocusPolicy(Qt::StrongFocus);
        field->installEventFilter(guard);
    }
    for (QWidget* field : left->findChildren<QComboBox*>()) {
        field->setFocusPolicy(Qt::StrongFocus);
        field->installEventFilter(guard);
    }
    auto* split = new QSplitter;
    split->addWidget(scroll);
    split->addWidget(views);
    split->setStretchFactor(1, 1);
    return split;
}
