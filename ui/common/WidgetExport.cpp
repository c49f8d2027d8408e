#include "ui/common/WidgetExport.h"

#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>

namespace widget_export {
namespace {
QSize prepared(QWidget* widget) {
    if (widget->size().isEmpty() || !widget->isVisible()) {
        const QSize size = widget->size().isEmpty() ? QSize(640, 480) : widget->size();
        widget->resize(size); // charts on a hidden tab still render at a sensible size
    }
    return widget->size();
}
} // namespace

QImage render(QWidget* widget, int width) {
    const QSize size = prepared(widget);
    const qreal ratio = width > 0 ? static_cast<qreal>(width) / size.width() : 1.0;
    const QSize pixels(width > 0 ? width : size.width(), qRound(size.height() * ratio));
    // Painting below a ratio of 1 is not supported by the widgets' painting (it clips): smaller
    // pictures are painted at the screen's size and scaled down smoothly.
    const qreal paintRatio = std::max<qreal>(ratio, 1.0);
    QImage image(QSize(qRound(size.width() * paintRatio), qRound(size.height() * paintRatio)),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(paintRatio);
    image.fill(widget->palette().color(QPalette::Window));
    widget->render(&image); // paints at the ratio: fonts and pens at full resolution
    image.setDevicePixelRatio(1.0);
    if (image.size() != pixels)
        image = image.scaled(pixels, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return image;
}

bool savePng(QWidget* widget, const QString& path, int width) {
    return render(widget, width).save(path, "PNG");
}

bool saveSvg(QWidget* widget, const QString& path, const QString& title) {
    const QSize size = prepared(widget);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    widget->render(&painter);
    return painter.end();
}

} // namespace widget_export
