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
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTextEdit>
#include <QVBoxLayout>
#include <QtCharts/QChartView>

namespace {
constexpr const char* kViewArea = "faViewArea";
constexpr const char* kView = "faView";

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

/// The view `w` belongs to: the outermost chart or marked view that holds it (heat maps,
/// tiles, the mosaic with its strip), or the stack that shows that by turns with others;
/// nullptr for anything else (a label, a row of fields).
QWidget* viewOf(QWidget* w, const QWidget* area) {
    QWidget* v = nullptr;
    for (QWidget* u = w; u && u != area; u = u->parentWidget())
        if (qobject_cast<QChartView*>(u) || u->property(kView).toBool())
            v = u;
    if (!v)
        return nullptr;
    while (qobject_cast<QStackedWidget*>(v->parentWidget()) && v->parentWidget() != area &&
           !qobject_cast<QTabWidget*>(v->parentWidget()->parentWidget()))
        v = v->parentWidget(); // the page sets the stack's current widget: the stack moves
    return v;
}

/// The widgets laid out in a layout and its nested layouts.
int widgetsIn(QLayout* layout) {
    int n = 0;
    for (int i = 0; i < layout->count(); ++i) {
        QLayoutItem* item = layout->itemAt(i);
        n += item->widget() ? 1 : item->layout() ? widgetsIn(item->layout()) : 0;
    }
    return n;
}
} // namespace

ViewFocus::ViewFocus(QObject* owner, std::function<void(const QString&)> say)
    : QObject(owner), m_say(std::move(say)) {
    qApp->installEventFilter(this);
}

ViewFocus::~ViewFocus() {
    if (qApp)
        qApp->removeEventFilter(this);
    restore();
}

void ViewFocus::markViewArea(QWidget* views) {
    views->setProperty(kViewArea, true);
}

void ViewFocus::markView(QWidget* view) {
    view->setProperty(kView, true);
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
    // The layout of the view's parent, searched into its nested layouts (a row of charts
    // inside a column).
    QLayout* layout = view->parentWidget() ? view->parentWidget()->layout() : nullptr;
    if (!layout || widgetsIn(layout) < 2)
        return false; // not laid out, or a lone view: nothing to make room for
    auto* stand = new Stand(view);
    QLayoutItem* was = layout->replaceWidget(view, stand);
    if (!was) {
        delete stand;
        return false;
    }
    delete was;
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
    m_gone = connect(view, &QObject::destroyed, this, [this] { dropFocus(); });
    if (m_say)
        m_say("One view fills the page: double-click it again or press Esc for every view");
    return true;
}

bool ViewFocus::restore() {
    if (!m_cover)
        return false;
    QWidget* view = m_focus;
    m_focus = nullptr; // its reparenting below is not a page taking it away
    disconnect(m_gone);
    if (view && m_stand && m_layout) {
        // Its place's size first: a chart's size hint is its last size (QGraphicsView's scene
        // rect), which would otherwise take the place of its neighbours.
        view->resize(m_stand->size());
        delete m_layout->replaceWidget(m_stand, view);
    } else if (view && m_cover->isAncestorOf(view)) { // its place is gone: kept, not deleted
        view->hide();
        view->setParent(m_area);
    }
    delete m_stand.data();
    m_cover->deleteLater(); // a double-click on the cover itself may be under way
    m_cover->hide();
    m_cover = nullptr;
    m_area = nullptr;
    return true;
}

/// The page took the view in focus away (laid it out anew, deleted it): the stand-in and the
/// cover go, and the view is left where the page put it.
void ViewFocus::dropFocus() {
    m_focus = nullptr;
    disconnect(m_gone);
    delete m_stand.data();
    if (m_cover) {
        m_cover->deleteLater();
        m_cover->hide();
    }
    m_cover = nullptr;
    m_area = nullptr;
}

bool ViewFocus::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::MouseButtonDblClick: {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() != Qt::LeftButton || !watched->isWidgetType())
            break;
        // The widget under the pointer decides, also when it is disabled and the event went
        // on to its parent.
        QWidget* under = QApplication::widgetAt(mouse->globalPosition().toPoint());
        return toggle(under ? under : static_cast<QWidget*>(watched));
    }
    case QEvent::KeyPress:
        // Esc in the window, not in a dialog, a menu or an open list.
        if (m_cover && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape &&
            watched->isWidgetType() && m_area &&
            static_cast<QWidget*>(watched)->window() == m_area->window() &&
            !QApplication::activePopupWidget() && !QApplication::activeModalWidget())
            return restore();
        break;
    case QEvent::Resize:
        if (m_cover && watched == m_area)
            m_cover->setGeometry(m_area->rect());
        break;
    case QEvent::Hide:
        if (m_cover && watched == m_area) // its tab or lab left the screen: every view back
            QMetaObject::invokeMethod(
                this,
                [this, area = m_area] {
                    if (m_area == area && area && !area->isVisible())
                        restore();
                },
                Qt::QueuedConnection);
        break;
    case QEvent::ParentChange:
        if (m_cover && watched == m_focus && m_focus->parentWidget() != m_cover)
            dropFocus();
        break;
    default:
        break;
    }
    return false;
}
