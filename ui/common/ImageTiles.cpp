#include "ui/common/ImageTiles.h"
#include "ui/common/ViewFocus.h"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

int greyLevel(double v) {
    return int(std::lround(255.0 * std::clamp(v, 0.0, 1.0)));
}

} // namespace

ImageTiles::ImageTiles(QWidget* parent) : QWidget(parent) {
    ViewFocus::markView(this); // a double-click enlarges it
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
/// The words of a text, each with the separator that follows it: a space is dropped, a slash
/// kept ("T-shirt/top" breaks after the slash, "Ankle boot" at the space).
QStringList wordsOf(const QString& text) {
    QStringList words{QString()};
    for (const QChar c : text) {
        if (c != ' ')
            words.back() += c;
        if ((c == ' ' || c == '/') && !words.back().isEmpty())
            words.append(QString());
    }
    if (words.back().isEmpty())
        words.removeLast();
    return words;
}
QString joined(const QStringList& words) {
    QString out;
    for (const QString& w : words)
        out += (out.isEmpty() || out.endsWith('/') ? "" : " ") + w;
    return out;
}

/// The text in one line if it fits the width, else wrapped at words into at most maxLines
/// lines (the last elided, and a word too wide for a line elided there).
QStringList wrapped(const QFontMetrics& fm, const QString& text, int width, int maxLines = 2) {
    if (fm.horizontalAdvance(text) <= width)
        return {text};
    QStringList words = wordsOf(text), lines;
    while (!words.isEmpty() && int(lines.size()) < maxLines - 1) {
        int taken = 1; // the words that fit on this line (at least one, elided if need be)
        while (taken < words.size() &&
               fm.horizontalAdvance(joined(words.mid(0, taken + 1))) <= width)
            ++taken;
        lines << fm.elidedText(joined(words.mid(0, taken)), Qt::ElideRight, width);
        words = words.mid(taken);
    }
    if (!words.isEmpty())
        lines << fm.elidedText(joined(words), Qt::ElideRight, width);
    return lines;
}

/// The title in at most three lines, and its height.
int drawTitle(QPainter& p, const QFontMetrics& fm, const QString& title, int width) {
    if (title.isEmpty())
        return 0;
    const QStringList lines = wrapped(fm, title, width, 3);
    for (int i = 0; i < lines.size(); ++i)
        p.drawText(QRect(0, i * (fm.height() + 2), width, fm.height() + 2), Qt::AlignCenter,
                   lines[i]);
    return int(lines.size()) * fm.height() + 4;
}

/// The captions' font: the widget's, made smaller (to no less than 2/3 of it, 1/2 at a large
/// zoom) where that lets the widest word of any caption fit a cell `width` wide, so that
/// "Pullover" under a tile stays whole at 200 % zoom.
QFont captionFont(const QFont& base, const std::vector<ImageTiles::Tile>& tiles, int width) {
    const QFontMetrics fm(base);
    int widest = 0;
    for (const ImageTiles::Tile& t : tiles)
        for (const QString& w : wordsOf(t.caption))
            widest = std::max(widest, fm.horizontalAdvance(w));
    QFont f = base;
    if (widest <= width || width <= 0)
        return f;
    // (5 % to spare: a smaller font's advance does not scale exactly.) Down to 2/3, or at a
    // large zoom to half, as long as the text stays 7 points or more: at 200 % "W10" and
    // "Pullover" stay whole at the size 100 % would give them.
    const double size = base.pointSizeF() > 0 ? base.pointSizeF() : base.pixelSize() * 0.75;
    const double smallest = std::min(2.0 / 3.0, std::max(0.5, size > 0 ? 7.0 / size : 1.0));
    const double factor = std::max(smallest, 0.95 * width / widest);
    if (base.pointSizeF() > 0)
        f.setPointSizeF(base.pointSizeF() * factor);
    else if (base.pixelSize() > 0) // a font sized in pixels (the presentation mode's)
        f.setPixelSize(std::max(1, int(base.pixelSize() * factor)));
    return f;
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
    // The captions' font and lines for cells of about area.width() / columns.
    QFont small = captionFont(font(), m_tiles, area.width() / std::max(1, m_columns) - m_spacing);
    QFontMetrics cm(small);
    // In `c` columns: the caption lines each row keeps (the most any of its captions needs) and
    // the scale that fits every picture in its cell.
    const auto captionLines = [&](int c) {
        std::vector<int> rows(std::size_t((n + c - 1) / c), 0);
        for (int i = 0; i < n; ++i)
            if (const QString& t = m_tiles[std::size_t(i)].caption; !t.isEmpty())
                rows[std::size_t(i / c)] =
                    std::max(rows[std::size_t(i / c)],
                             int(wrapped(cm, t, area.width() / c - m_spacing).size()));
        return rows;
    };
    const auto fits = [&](int c) {
        const std::vector<int> rows = captionLines(c);
        const int lines = std::accumulate(rows.begin(), rows.end(), 0);
        const int height = area.height() - lines * cm.height();
        return std::min(double(area.width() / c - m_spacing) / picture.width(),
                        double(height / int(rows.size()) - m_spacing) / picture.height());
    };
    // The columns: as asked, or the count that gives the largest tiles.
    int columns = m_columns;
    for (int c = 1; m_columns <= 0 && c <= n; ++c)
        if (columns <= 0 || fits(c) > fits(columns))
            columns = c;
    columns = std::max(1, columns);
    if (m_columns <= 0) { // the captions' font for the cells chosen ("W10" was cut to "W…")
        small = captionFont(font(), m_tiles, area.width() / columns - m_spacing);
        cm = QFontMetrics(small);
    }
    const std::vector<int> rows = captionLines(columns);
    // Whole screen pixels per picture pixel where that leaves them large (crisp blocks); below
    // three, the fraction that fills the cell (nearest pixel, no smoothing): a 28-pixel picture
    // in a 55-pixel cell is drawn 51 pixels wide, not 28.
    double scale = std::max(0.25, fits(columns));
    if (scale >= 3.0)
        scale = std::floor(scale);
    const QSize drawn(int(picture.width() * scale), int(picture.height() * scale));
    // Cells of the drawn size plus the spacing (0: the tiles touch), the grid centred across;
    // with captions, each column takes its share of the width, so that no caption overlaps.
    const bool anyCaption = std::accumulate(rows.begin(), rows.end(), 0) > 0;
    const int cellW = anyCaption ? std::max(drawn.width() + m_spacing, area.width() / columns)
                                 : drawn.width() + m_spacing;
    const int left = area.left() + std::max(0, (area.width() - columns * cellW) / 2);
    int top = area.top();
    p.setFont(small);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (int i = int(r) * columns; i < std::min(n, int(r + 1) * columns); ++i) {
            const QRect target(left + (i % columns) * cellW + (cellW - drawn.width()) / 2,
                               top + m_spacing / 2, drawn.width(), drawn.height());
            p.drawImage(target, m_images[std::size_t(i)]); // nearest pixel: no smoothing
            const QStringList lines = wrapped(cm, m_tiles[std::size_t(i)].caption, cellW);
            for (int l = 0; l < std::min(int(lines.size()), rows[r]); ++l)
                p.drawText(QRect(target.center().x() - cellW / 2,
                                 target.bottom() + 1 + l * cm.height(), cellW, cm.height()),
                           Qt::AlignHCenter | Qt::AlignTop, lines[l]);
        }
        top += drawn.height() + m_spacing + rows[r] * cm.height();
    }
}
