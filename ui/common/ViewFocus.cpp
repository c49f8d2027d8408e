#include "ui/common/ViewFocus.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLayout>
#include <QLineEdit>
#include <QMouseEvent>
#include <QTabBar>
#include <QTabWidget>
#include <QTextEdit>
#include <QVBoxLayout>
#include <QtCharts/QChartView>

namespace {
constexpr const char* kViewArea = "faViewArea";

/// A widget that takes a double-click for itself (selecting a word, opening an entry).
bool takesDoubleClick(const QWidget* w) {
    for (; w; w = w->parentWidget())
        if (qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QLineEdit*>(w) ||
            qobject_cast<const QComboBox*>(w) || qobject_cast<const QAbstractButton*>(w) ||
            qobject_cast<const QAbstractSlider*>(w) || qobject_cast<const QTextEdit*>(w) ||
            qobject_cast<const QAbstractItemView*>(w) || qobject_cast<const QTabBar*>(w))
            return true;
        else if (w->property(kViewArea).toBool())
            return false;
    return false;
}

/// The view area's widget that holds `w`: the marked widget itself, or the tab of a marked tab
/// widget; nullptr if `w` is not in a view area.
QWidget* areaOf(QWidget* w) {
    for (QWidget* child = nullptr; w; child = w, w = w->parentWidget()) {
        if (!w->property(kViewArea).toBool())
            continue;
        auto* tabs = qobject_cast<QTabWidget*>(w);
        if (!tabs)
            return w;
        // child is the tab widget's stack; the tab is the stack's child on the way up.
        return child ? tabs->currentWidget() : nullptr;
    }
    return nullptr;
}

/// Holds a view's place in its layout while the view is in focus: its size hints and policy,
/// so the layout gives the place the room it gave the view.
class Stand : public QWidget {
  public:
    explicit Stand(const QWidget* view)
        : m_hint(view->sizeHint()), m_least(view->minimumSizeHint()) {
        setSizePolicy(view->sizePolicy());
        setMinimumSize(view->minimumSize());
        setMaximumSize(view->maximumSize());
    }
    QSize sizeHint() const override { return m_hint; }
    QSize minimumSizeHint() const override { return m_least; }

  private:
    QSize m_hint, m_least;
};

/// The view `w` belongs to: the chart it is part of, else the area's child that holds it.
QWidget* viewOf(QWidget* w, const QWidget* area) {
    for (QWidget* v = w; v && v != area; v = v->parentWidget())
        if (qobject_cast<QChartView*>(v))
            return v;
    QWidget* v = w;
    while (v && v->parentWidget() != area)
        v = v->parentWidget();
    return v;
}
} // namespace

ViewFocus::ViewFocus(QObject* owner, std::function<void(const QString&)> say)
    : QObject(owner), m_say(std::move(say)) {
    qApp->installEventFilter(this);
}

ViewFocus::~ViewFocus() {
    if (qApp)
        qApp->removeEventFilter(this);
}

void ViewFocus::markViewArea(QWidget* views) {
    views->setProperty(kViewArea, true);
}

bool ViewFocus::toggle(QWidget* clicked) {
    if (!clicked || takesDoubleClick(clicked))
        return false;
    QWidget* area = areaOf(clicked);
    if (!area)
        return false;
    QWidget* view =
        viewOf(clicked, m_cover && m_cover->isAncestorOf(clicked) ? m_cover.data() : area);
    if (m_focus && view == m_focus)
        return restore();
    restore();
    return view && focusOn(view, area);
}

bool ViewFocus::focusOn(QWidget* view, QWidget* area) {
    QLayout* layout = view->parentWidget() ? view->parentWidget()->layout() : nullptr;
    if (!layout || layout->indexOf(view) < 0 || layout->count() < 2)
        return false; // not laid out, or a lone view: nothing to make room for
    auto* stand = new Stand(view);
    delete layout->replaceWidget(view, stand, Qt::FindDirectChildrenOnly);
    auto* cover = new QWidget(area);
    cover->setAutoFillBackground(true);
    auto* coverLayout = new QVBoxLayout(cover);
    coverLayout->setContentsMargins(0, 0, 0, 0);
    coverLayout->addWidget(view);
    cover->setGeometry(area->rect());
    cover->raise();
    cover->show();
    m_focus = view;
    m_area = area;
    m_cover = cover;
    m_stand = stand;
    m_layout = layout;
    if (m_say)
        m_say("One view fills the page: double-click it again or press Esc for every view");
    return true;
}

bool ViewFocus::restore() {
    if (!m_cover)
        return false;
    if (m_focus && m_stand && m_layout) {
        // Its place's size first: a chart's size hint is its last size (QGraphicsView's scene
        // rect), which would otherwise take the place of its neighbours.
        m_focus->resize(m_stand->size());
        delete m_layout->replaceWidget(m_stand, m_focus, Qt::FindDirectChildrenOnly);
    }
    delete m_stand.data();
    delete m_cover.data();
    m_focus = nullptr;
    m_area = nullptr;
    return true;
}

bool ViewFocus::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::MouseButtonDblClick:
        if (static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton && watched->isWidgetType())
            return toggle(static_cast<QWidget*>(watched));
        break;
    case QEvent::KeyPress:
        if (m_cover && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape)
            return restore();
        break;
    case QEvent::Resize:
        if (m_cover && watched == m_area)
            m_cover->setGeometry(m_area->rect());
        break;
    case QEvent::Hide:
        if (m_cover && watched == m_area) // its tab or lab left the screen: every view back
            QMetaObject::invokeMethod(this, &ViewFocus::restore, Qt::QueuedConnection);
        break;
    default:
        break;
    }
    return false;
}
