#include "ui/shell/ViewControls.h"

#include "ui/common/ChartFit.h"
#include "ui/common/DarkTheme.h"
#include "ui/common/LabPage.h"
#include "ui/common/MethodStyle.h"
#include "ui/common/Presentation.h"
#include "ui/shell/PresetCaption.h"

#include <QAction>
#include <QApplication>
#include <QFontMetricsF>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <algorithm>
#include <utility>

ViewControls::ViewControls(Host host, QMenu* view, QToolBar* bar)
    : QObject(host.window), m_window(host.window), m_pages(std::move(host.pages)),
      m_caption(host.caption), m_speed(new QSpinBox) {
    view->setToolTipsVisible(true);
    m_present = view->addAction("&Presentation mode", QKeySequence(Qt::Key_F11), this,
                                [this](bool on) { setPresenting(on); });
    m_present->setCheckable(true);
    m_present->setToolTip("Full screen with every lab's parameter column hidden: the charts fill "
                          "the screen; play, step and the speed stay in the toolbar (F11)");
    QMenu* zoom = view->addMenu("&Zoom text and charts");
    zoom->setToolTipsVisible(true);
    for (const int percent : {100, 125, 150, 175, 200}) {
        QAction* a = zoom->addAction(QString("%1 %").arg(percent), this,
                                     [this, percent] { setZoom(percent / 100.0); });
        a->setCheckable(true);
        a->setData(percent);
        a->setToolTip("Text, chart titles, axis labels and legends at this size");
        m_zoomActions.push_back(a);
    }
    zoom->addSeparator();
    QAction* larger =
        zoom->addAction("Larger", QKeySequence::ZoomIn, this, [this] { setZoom(m_zoom + 0.25); });
    // Ctrl+= too: on most keyboards + is Shift+=, and = is what a lecturer presses.
    larger->setShortcuts(QKeySequence::keyBindings(QKeySequence::ZoomIn) << QKeySequence("Ctrl+="));
    zoom->addAction("Smaller", QKeySequence::ZoomOut, this, [this] { setZoom(m_zoom - 0.25); });
    m_colourBlindAction = view->addAction("&Colour-blind-safe palette", this,
                                          [this](bool on) { setColourBlind(on); });
    m_colourBlindAction->setCheckable(true);
    m_colourBlindAction->setToolTip("The methods' colours from Okabe and Ito's palette, told "
                                    "apart with any colour vision");
    m_darkAction = view->addAction("High-contrast &dark theme", QKeySequence("Ctrl+Shift+D"), this,
                                   [this](bool on) { setDark(on); });
    m_darkAction->setCheckable(true);
    m_darkAction->setToolTip("White text and light lines on black, for a projector in a bright "
                             "room (Ctrl+Shift+D); remembered");
    view->addSeparator();
    QMenu* width = view->addMenu("Export &width");
    width->setToolTipsVisible(true);
    for (const int pixels : {0, 1920, 2560, 3840}) {
        QAction* a = width->addAction(pixels == 0 ? QString("As on screen")
                                                  : QString("%1 px wide").arg(pixels),
                                      this, [this, pixels] { setExportWidth(pixels); });
        a->setCheckable(true);
        a->setData(pixels);
        a->setToolTip("Width of the PNGs written by Export charts (Ctrl+Shift+E): the page is "
                      "painted again at that size, text and lines sharp; SVGs are vectors");
        m_widthActions.push_back(a);
    }

    bar->addSeparator();
    auto* label = new QLabel(" speed ");
    bar->addWidget(label);
    m_speed->setRange(0, 10000000);
    m_speed->setSpecialValueText("as fast as possible");
    m_speed->setObjectName("toolbarSpeed");
    m_speed->setAccelerated(true);
    m_speed->setToolTip("The pace of the lab in view (its speed field): observations or epochs "
                        "per second; 0 = as fast as possible");
    bar->addWidget(m_speed);
    connect(m_speed, &QSpinBox::valueChanged, this, [this](int v) {
        if (m_pageSpeed && m_pageSpeed->value() != v)
            m_pageSpeed->setValue(v);
    });
    // Axes made anew after the zoom was set come back to the zoom here.
    auto* refresh = new QTimer(this);
    refresh->setInterval(500);
    connect(refresh, &QTimer::timeout, this, &ViewControls::touchUp);
    refresh->start();
    // and before a picture is taken at a position (--screenshot, a recording's frame)
    for (LabPage* page : m_pages)
        connect(page, &LabPage::reached, this, &ViewControls::touchUp);

    QSettings s;
    setExportWidth(s.value("export/width", 0).toInt());
    setColourBlind(s.value("view/colourBlind", false).toBool());
    setDark(s.value("view/dark", false).toBool());
    setZoom(s.value("view/zoom", 1.0).toDouble());
}

void ViewControls::setPresenting(bool on, bool fullScreen) {
    m_presenting = on;
    m_present->setChecked(on);
    for (LabPage* page : m_pages)
        if (QWidget* column = page->parameterColumn())
            column->setVisible(!on);
    if (on && fullScreen) {
        m_wasMaximized = m_window->isMaximized();
        m_window->showFullScreen();
    } else if (m_window->isFullScreen()) {
        m_wasMaximized ? m_window->showMaximized() : m_window->showNormal();
    }
}

void ViewControls::setZoom(double scale, bool remember) {
    m_zoom = std::clamp(std::round(scale * 4.0) / 4.0, 1.0, 2.0);
    for (QAction* a : m_zoomActions)
        a->setChecked(a->data().toInt() == qRound(m_zoom * 100));
    if (remember)
        QSettings().setValue("view/zoom", m_zoom);
    applyZoom();
}

void ViewControls::applyZoom() {
    // The application's font as it was before any zoom (one for every window).
    static const double basePointSize = QApplication::font().pointSizeF();
    QFont font = QApplication::font();
    if (basePointSize > 0) {
        font.setPointSizeF(basePointSize * m_zoom);
        QApplication::setFont(font);
        // The preset's caption grows with the rest; beyond 125 % it keeps the height its five
        // lines had there and scrolls, or its lines would push the explorer's and the neural
        // lab's charts off a 1280 x 800 projector (tested at 200 %).
        if (m_caption) {
            m_caption->setFont(font);
            QFont at125 = font;
            at125.setPointSizeF(basePointSize * 1.25);
            m_caption->setMaxTextHeight(
                m_zoom > 1.25 ? qRound(5 * QFontMetricsF(at125).lineSpacing()) : 0);
        }
    }
    presentation::scaleChartFonts(m_window, m_zoom);
    presentation::refitChartText(m_window);
}

void ViewControls::setColourBlind(bool on, bool remember) {
    m_colourBlind = on;
    m_colourBlindAction->setChecked(on);
    colourBlindPalette() = on;
    presentation::recolourSeries(m_window, on);
    if (remember)
        QSettings().setValue("view/colourBlind", on);
}

void ViewControls::setDark(bool on, bool remember) {
    m_dark = on;
    m_darkAction->setChecked(on);
    darkTheme() = on;
    QApplication::setPalette(on ? presentation::darkPalette()
                                : QApplication::style()->standardPalette());
    presentation::applyDarkTheme(m_window, on);
    for (LabPage* page : m_pages)
        page->redrawNow(); // colours a page sets on every frame (SeriesChart) follow now
    if (remember)
        QSettings().setValue("view/dark", on);
}

void ViewControls::setExportWidth(int pixels) {
    m_exportWidth = std::clamp(pixels, 0, 16384);
    for (QAction* a : m_widthActions)
        a->setChecked(a->data().toInt() == m_exportWidth);
    QSettings().setValue("export/width", m_exportWidth);
}

void ViewControls::syncSpeed() {
    if (m_pageSpeed && m_speed->value() != m_pageSpeed->value()) {
        const QSignalBlocker block(m_speed);
        m_speed->setValue(m_pageSpeed->value());
    }
}

void ViewControls::follow(LabPage* page) {
    disconnect(m_pageSpeedLink);
    m_pageSpeed = page ? page->speedBox() : nullptr;
    m_speed->setEnabled(m_pageSpeed != nullptr);
    if (m_pageSpeed) {
        const QSignalBlocker block(m_speed);
        m_speed->setRange(m_pageSpeed->minimum(), m_pageSpeed->maximum());
        m_speed->setSuffix(m_pageSpeed->suffix());
        m_speed->setSingleStep(m_pageSpeed->singleStep());
        m_speed->setValue(m_pageSpeed->value());
        m_pageSpeedLink = connect(m_pageSpeed, &QSpinBox::valueChanged, m_speed, [this](int v) {
            const QSignalBlocker block(m_speed);
            m_speed->setValue(v);
        });
    }
    touchUp();
    if (m_colourBlind)
        presentation::recolourSeries(m_window, true);
}

void ViewControls::touchUp() {
    if (m_zoom != 1.0)
        presentation::scaleChartFonts(m_window, m_zoom);
    presentation::roundAllTicks(m_window); // axes made since (a lab's new run)
    presentation::fitChartText(m_window);
    if (m_dark)
        presentation::applyDarkTheme(m_window, true); // charts and series made since
}
