#pragma once
// A widget as a picture at any width: the widget is painted again at a higher device-pixel
// ratio (text, lines and markers drawn sharp at that size, not a scaled screenshot), and as SVG.
// For slides: the charts and the whole page at 1920 or 3840 px, the same layout as on screen.
#include <QImage>
#include <QString>

class QWidget;

namespace widget_export {

/// The widget painted into an image `width` pixels wide (0: its size on screen), aspect kept.
/// A widget never shown (a hidden tab) is laid out at its current or a 640 × 480 size first.
QImage render(QWidget* widget, int width = 0);
/// Writes render(widget, width) as PNG through a temporary renamed into place (an interrupted
/// export leaves the old file); false if it cannot be written, with the system's reason in error.
bool savePng(QWidget* widget, const QString& path, int width = 0, QString* error = nullptr);
/// Writes the widget as SVG (vector, its on-screen size as the view box), the same way.
bool saveSvg(QWidget* widget, const QString& path, const QString& title, QString* error = nullptr);

} // namespace widget_export
