#include "ui/common/WidgetExport.h"

#include "core/io/AtomicFile.h"

#include <QBuffer>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>

namespace widget_export {
namespace {
/// The bytes go to a temporary beside path, renamed into place only when all are written: an
/// interrupted or failed export leaves the file that was there (a write-protected one stays).
bool writeAtomically(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        fa::io::AtomicFile file(path.toLocal8Bit().toStdString(), fa::io::FifoReader::Refuse);
        file.stream().write(bytes.constData(), bytes.size());
        file.commit();
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromLocal8Bit(e.what());
        return false;
    }
}

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

bool savePng(QWidget* widget, const QString& path, int width, QString* error) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!render(widget, width).save(&buffer, "PNG")) {
        if (error)
            *error = "the picture could not be encoded as PNG";
        return false;
    }
    return writeAtomically(path, bytes, error);
}

bool saveSvg(QWidget* widget, const QString& path, const QString& title, QString* error) {
    const QSize size = prepared(widget);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    widget->render(&painter);
    return painter.end() && writeAtomically(path, bytes, error);
}

} // namespace widget_export
