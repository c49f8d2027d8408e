#pragma once
// Double-click a view (a chart, the heat maps, the pictures) and it fills its lab's view area,
// the tab it is in; double-click it again or press Esc and every view is back. For a projector
// at 200 %, where four charts share 640 × 400 logical pixels. The view moves into a cover over
// the area; a stand-in with its size hints holds its place in its layout meanwhile, so nothing
// underneath moves, is hidden or is resized (a page that shows or hides views of its own, the
// neural lab's trajectory, keeps doing so), and the view goes back to the same place.
#include <QObject>
#include <QPointer>
#include <functional>

class QLayout;
class QWidget;

class ViewFocus : public QObject {
  public:
    /// Watches the whole application (an event filter on qApp) for the lifetime of owner; say
    /// tells the user what happened (the status bar).
    ViewFocus(QObject* owner, std::function<void(const QString&)> say);
    ~ViewFocus() override;
    ViewFocus(const ViewFocus&) = delete;
    ViewFocus& operator=(const ViewFocus&) = delete;

    /// Marks a lab page's view area (modeLayout's right side): a view below it can take the
    /// focus. A tab widget's area is each of its tabs.
    static void markViewArea(QWidget* views);
    /// Marks a view that is not a chart (heat maps, tiles, pictures): it can take the focus.
    static void markView(QWidget* view);

    /// The view under `clicked` takes the focus, or gives it back if it has it: what a
    /// double-click does. False where there is no view to focus (a field, a lone view).
    bool toggle(QWidget* clicked);
    /// Every view back; false if none was in focus.
    bool restore();
    QWidget* focused() const { return m_focus; }

    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    bool focusOn(QWidget* view, QWidget* area);
    void dropFocus();
    std::function<void(const QString&)> m_say;
    QPointer<QWidget> m_focus, m_area, m_cover, m_stand;
    QMetaObject::Connection m_gone; ///< the view in focus destroyed: dropFocus
    QPointer<QLayout> m_layout;     ///< the one the view came from (or holds it), with m_stand
};
