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

void ImageTiles::setSpacing(int pixels) {
    m_spacing = std::max(0, pixels);
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

namespace {
/// The title in at most two lines (wrapped at words, the second elided), and its height.
int drawTitle(QPainter& p, const QFontMetrics& fm, const QString& title, int width) {
    if (title.isEmpty())
        return 0;
    if (fm.horizontalAdvance(title) <= width) {
        p.drawText(QRect(0, 0, width, fm.height() + 4), Qt::AlignCenter, title);
        return fm.height() + 4;
    }
    // The words that fit on the first line; the rest on the second, elided.
    const QStringList words = title.split(' ');
    QString first;
    int taken = 0;
    for (; taken < words.size(); ++taken) {
        const QString longer = first.isEmpty() ? words[taken] : first + ' ' + words[taken];
        if (fm.horizontalAdvance(longer) > width && !first.isEmpty())
            break;
        first = longer;
    }
    const QString rest = words.mid(taken).join(' ');
    p.drawText(QRect(0, 0, width, fm.height() + 2), Qt::AlignCenter,
               fm.elidedText(first, Qt::ElideRight, width));
    p.drawText(QRect(0, fm.height() + 2, width, fm.height() + 2), Qt::AlignCenter,
               fm.elidedText(rest, Qt::ElideRight, width));
    return 2 * fm.height() + 4;
}
} // namespace

void ImageTiles::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    p.setPen(palette().windowText().color());
    const QFontMetrics fm(font());
    const int titleHeight = drawTitle(p, fm, m_title, width());
    if (m_images.empty())
        return;
    const int n = int(m_images.size());
    const QRect area = rect().adjusted(2, titleHeight, -2, -2);
    const QSize picture = m_images.front().size();
    // In `c` columns: which rows have a caption (only those keep a line for it) and the scale
    // that fits every picture in its cell.
    const auto captioned = [&](int c) {
        std::vector<bool> rows(std::size_t((n + c - 1) / c), false);
        for (int i = 0; i < n; ++i)
            if (!m_tiles[std::size_t(i)].caption.isEmpty())
                rows[std::size_t(i / c)] = true;
        return rows;
    };
    const auto fits = [&](int c) {
        const std::vector<bool> rows = captioned(c);
        const auto lines = std::count(rows.begin(), rows.end(), true);
        const int height = area.height() - int(lines) * fm.height();
        return std::min(double(area.width() / c - m_spacing) / picture.width(),
                        double(height / int(rows.size()) - m_spacing) / picture.height());
    };
    // The columns: as asked, or the count that gives the largest tiles.
    int columns = m_columns;
    for (int c = 1; m_columns <= 0 && c <= n; ++c)
        if (columns <= 0 || fits(c) > fits(columns))
            columns = c;
    columns = std::max(1, columns);
    const std::vector<bool> rows = captioned(columns);
    // Whole screen pixels per picture pixel where that leaves them large (crisp blocks); below
    // three, the fraction that fills the cell (nearest pixel, no smoothing): a 28-pixel picture
    // in a 55-pixel cell is drawn 51 pixels wide, not 28.
    double scale = std::max(0.25, fits(columns));
    if (scale >= 3.0)
        scale = std::floor(scale);
    const QSize drawn(int(picture.width() * scale), int(picture.height() * scale));
    // Cells of the drawn size plus the spacing (0: the tiles touch), the grid centred across;
    // with captions, each column takes its share of the width, so that no caption overlaps.
    const bool anyCaption = std::find(rows.begin(), rows.end(), true) != rows.end();
    const int cellW = anyCaption ? std::max(drawn.width() + m_spacing, area.width() / columns)
                                 : drawn.width() + m_spacing;
    const int left = area.left() + std::max(0, (area.width() - columns * cellW) / 2);
    int top = area.top();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (int i = int(r) * columns; i < std::min(n, int(r + 1) * columns); ++i) {
            const QRect target(left + (i % columns) * cellW + (cellW - drawn.width()) / 2,
                               top + m_spacing / 2, drawn.width(), drawn.height());
            p.drawImage(target, m_images[std::size_t(i)]); // nearest pixel: no smoothing
            if (rows[r])
                p.drawText(
                    QRect(target.center().x() - cellW / 2, target.bottom() + 1, cellW, fm.height()),
                    Qt::AlignHCenter | Qt::AlignTop,
                    fm.elidedText(m_tiles[std::size_t(i)].caption, Qt::ElideRight, cellW));
        }
        top += drawn.height() + m_spacing + (rows[r] ? fm.height() : 0);
    }
}
