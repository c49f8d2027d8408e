#include "ui/common/ImageTiles.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace {

int greyLevel(double v) {
    return int(std::lround(255.0 * std::clamp(v, 0.0, 1.0)));
}

} // namespace

ImageTiles::ImageTiles(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageTiles::setTitle(const QString& title) {
    m_title = title;
    update();
}

QImage ImageTiles::picture(const fa::Vector& pixels, int width, int height, Scale scale) {
    QImage out(width, height, QImage::Format_RGB32);
    double top = 0.0;
    for (Eigen::Index i = 0; i < pixels.size(); ++i)
        if (std::isfinite(pixels(i)))
            top = std::max(top, std::abs(pixels(i)));
    for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c) {
            const Eigen::Index at = Eigen::Index(r) * width + c;
            const double v = at < pixels.size() ? pixels(at) : std::nan("");
            QRgb colour = kHoleColour;
            if (std::isfinite(v)) {
                if (scale == Scale::Grey) {
                    const int g = greyLevel(v);
                    colour = qRgb(g, g, g);
                } else if (scale == Scale::Positive) {
                    const int g = greyLevel(top > 0.0 ? v / top : 0.0);
                    colour = qRgb(g, g, g);
                } else { // white at 0, red above, blue below
                    const int fade = 255 - greyLevel(top > 0.0 ? std::abs(v) / top : 0.0);
                    colour = v >= 0.0 ? qRgb(255, fade, fade) : qRgb(fade, fade, 255);
                }
            }
            out.setPixel(c, r, colour);
        }
    return out;
}

void ImageTiles::setTiles(int width, int height, std::vector<Tile> tiles, int columns) {
    m_tiles = std::move(tiles);
    m_images.clear();
    for (const Tile& t : m_tiles)
        m_images.push_back(picture(t.pixels, width, height, t.scale));
    m_columns = columns;
    update();
}

void ImageTiles::clear() {
    m_tiles.clear();
    m_images.clear();
    update();
}

void ImageTiles::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    p.setPen(palette().windowText().color());
    const QFontMetrics fm(font());
    const int titleHeight = m_title.isEmpty() ? 0 : fm.height() + 4;
    if (!m_title.isEmpty())
        p.drawText(QRect(0, 0, width(), titleHeight), Qt::AlignCenter,
                   fm.elidedText(m_title, Qt::ElideRight, width()));
    if (m_images.empty())
        return;
    const int n = int(m_images.size());
    const bool captions = std::any_of(m_tiles.begin(), m_tiles.end(),
                                      [](const Tile& t) { return !t.caption.isEmpty(); });
    const int captionHeight = captions ? fm.height() : 0;
    const QRect area = rect().adjusted(2, titleHeight, -2, -2);
    const QSize picture = m_images.front().size();
    // The columns: as asked, or the count that gives the largest tiles.
    int columns = m_columns, best = 0;
    for (int c = 1; m_columns <= 0 && c <= n; ++c) {
        const int rows = (n + c - 1) / c;
        const int scale = std::min((area.width() / c - 4) / picture.width(),
                                   ((area.height() / rows) - captionHeight - 4) / picture.height());
        if (scale > best)
            best = scale, columns = c;
    }
    columns = std::max(1, columns);
    const int rows = (n + columns - 1) / columns;
    const int cellW = area.width() / columns, cellH = area.height() / rows;
    const int scale = std::max(
        1, std::min((cellW - 4) / picture.width(), (cellH - captionHeight - 4) / picture.height()));
    const QSize drawn(picture.width() * scale, picture.height() * scale);
    for (int i = 0; i < n; ++i) {
        const QRect cell(area.left() + (i % columns) * cellW, area.top() + (i / columns) * cellH,
                         cellW, cellH);
        const QRect target(cell.left() + (cellW - drawn.width()) / 2, cell.top() + 2, drawn.width(),
                           drawn.height());
        p.drawImage(target, m_images[std::size_t(i)]); // scaled by whole pixels: no smoothing
        if (captions)
            p.drawText(QRect(cell.left(), target.bottom() + 1, cellW, captionHeight),
                       Qt::AlignHCenter | Qt::AlignTop,
                       fm.elidedText(m_tiles[std::size_t(i)].caption, Qt::ElideRight, cellW));
    }
}
