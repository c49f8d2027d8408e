#pragma once
// The View menu's presentation tools and the toolbar's speed box, for any lab: presentation mode
// (F11: full screen, the parameter column of every lab hidden), a zoom of text and charts
// (100–200 %), a colour-blind-safe palette, a high-contrast dark theme, the export width. The speed
// box mirrors the speed field of the lab in view, so the pace stays at hand with the parameters
// hidden. It knows the window only as a widget, the labs only as LabPages (their speed field and
// parameter column) and the preset caption it is handed; MainWindow owns it.
#include <QObject>
#include <QPointer>
#include <vector>

class LabPage;
class PresetCaption;
class QAction;
class QMenu;
class QSpinBox;
class QToolBar;

class ViewControls : public QObject {
    Q_OBJECT
  public:
    /// What the tools act on: the window (full screen, every chart in it), every lab's page and
    /// the preset's caption above the pages (zoomed with the rest).
    struct Host {
        QWidget* window;
        std::vector<LabPage*> pages;
        PresetCaption* caption;
    };
    ViewControls(Host host, QMenu* view, QToolBar* bar);

    bool presenting() const { return m_presenting; }
    /// fullScreen false: the parameters hidden in the window as it is (pictures of the mode).
    void setPresenting(bool on, bool fullScreen = true);
    double zoom() const { return m_zoom; }
    /// 1.0 to 2.0; remember: kept for the next launch (false for command-line options)
    void setZoom(double scale, bool remember = true);
    bool colourBlind() const { return m_colourBlind; }
    void setColourBlind(bool on, bool remember = true);
    bool dark() const { return m_dark; }
    /// The high-contrast dark theme (presentation::applyDarkTheme) on or off, remembered.
    void setDark(bool on, bool remember = true);
    int exportWidth() const { return m_exportWidth; }
    void setExportWidth(int pixels);
    QSpinBox* speedBox() const { return m_speed; }
    /// The lab in view changed to page: the speed box follows its speed field; zoom and palette
    /// reach charts drawn since.
    void follow(LabPage* page);
    /// The speed field changed without a signal (a session opened): the box shows it again.
    void syncSpeed();

  private:
    void applyZoom();
    /// The zoom, round ticks, fitted text and theme brought to charts and series made since.
    void touchUp();

    QWidget* m_window;
    std::vector<LabPage*> m_pages;
    PresetCaption* m_caption;
    QAction *m_present, *m_colourBlindAction, *m_darkAction;
    std::vector<QAction*> m_zoomActions, m_widthActions;
    QSpinBox* m_speed;
    QPointer<QSpinBox> m_pageSpeed;
    QMetaObject::Connection m_pageSpeedLink;
    bool m_presenting = false, m_colourBlind = false, m_dark = false, m_wasMaximized = false;
    double m_zoom = 1.0;
    int m_exportWidth = 0;
};
