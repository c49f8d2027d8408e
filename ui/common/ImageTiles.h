#pragma once
// Pictures as tiles (issue 29): a titled grid of small images, each one row of pixels (row-major,
// width x height) with a caption beneath it. Grey pictures map [0, 1] to black..white; signed
// ones (loadings, errors) map ±m to blue..white..red with m the largest |value| of the tile; a
// positive scale (Ψ, a variance) maps [0, m] to black..white. A NaN pixel (a hole) is drawn in
// a marker colour. Every pixel is a square block of screen pixels; the grid fills the widget.
#include "core/math/Types.h"

#include <QColor>
#include <QImage>
#include <QWidget>
#include <vector>

class ImageTiles : public QWidget {
    Q_OBJECT
  public:
    enum class Scale { Grey, Signed, Positive };
    struct Tile {
        fa::Vector pixels;
        QString caption;
        Scale scale = Scale::Grey;
    };
    static constexpr QRgb kHoleColour = 0xffff9f1c; ///< an orange no picture contains

    explicit ImageTiles(QWidget* parent = nullptr);
    void setTitle(const QString& title);
    QString title() const { return m_title; }
    /// The pictures, laid out in `columns` columns (0: as square a grid as fits).
    void setTiles(int width, int height, std::vector<Tile> tiles, int columns = 0);
    void clear();
    int count() const { return int(m_images.size()); }
    const QImage& image(int i) const { return m_images[std::size_t(i)]; }
    QString caption(int i) const { return m_tiles[std::size_t(i)].caption; }

    /// One picture as an image of width x height pixels (exactly: one pixel each).
    static QImage picture(const fa::Vector& pixels, int width, int height, Scale scale);
    QSize sizeHint() const override { return {360, 300}; }
    QSize minimumSizeHint() const override { return {120, 100}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QString m_title;
    std::vector<Tile> m_tiles;
    std::vector<QImage> m_images;
    int m_columns = 0;
};
