// Image tiles (ui/common/ImageTiles.h) against their documented colour scales, computed here:
// a grey picture's pixel x in [0, 1] is the grey level round(255 x) (outside clamped), a NaN
// is the hole colour; a signed picture is white at 0, pure red at +m and pure blue at −m (m its
// largest |value|); a positive one black at 0 and white at its largest value. The widget keeps
// each tile's picture and caption.
#include "ui/common/ImageTiles.h"

#include <QtTest>
#include <cmath>
#include <random>

namespace {
int level(double v) {
    return int(std::lround(255.0 * std::min(1.0, std::max(0.0, v))));
}
} // namespace

class TestImageTiles : public QObject {
    Q_OBJECT
  private slots:
    void greyPixelsRoundTrip() {
        std::mt19937 gen(3);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const int w = 7, h = 5;
        fa::Vector x(w * h);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x(i) = u(gen);
        x(0) = 0.0, x(1) = 1.0, x(2) = -0.3, x(3) = 1.4, x(4) = 0.5 / 255.0;
        x(9) = std::nan("");
        const QImage img = ImageTiles::picture(x, w, h, ImageTiles::Scale::Grey);
        QCOMPARE(img.size(), QSize(w, h));
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                const double v = x(r * w + c);
                const QRgb expected =
                    std::isnan(v) ? ImageTiles::kHoleColour : qRgb(level(v), level(v), level(v));
                QCOMPARE(img.pixel(c, r), expected);
            }
        QCOMPARE(qRed(img.pixel(4, 0)), 1); // round(0.5): a half step up
    }

    void signedAndPositiveScales() {
        fa::Vector v(4);
        v << 0.0, 2.0, -4.0, 1.0;
        const QImage s = ImageTiles::picture(v, 2, 2, ImageTiles::Scale::Signed);
        QCOMPARE(s.pixel(0, 0), qRgb(255, 255, 255)); // 0: white
        QCOMPARE(s.pixel(1, 0), qRgb(255, 127, 127)); // +m/2: 255 − round(127.5)
        QCOMPARE(s.pixel(0, 1), qRgb(0, 0, 255));     // −m: blue
        QCOMPARE(s.pixel(1, 1), qRgb(255, 191, 191)); // +m/4: 255 − round(63.75)
        v << 0.0, 2.0, 4.0, std::nan("");
        const QImage p = ImageTiles::picture(v, 2, 2, ImageTiles::Scale::Positive);
        QCOMPARE(p.pixel(0, 0), qRgb(0, 0, 0));
        QCOMPARE(p.pixel(1, 0), qRgb(128, 128, 128));
        QCOMPARE(p.pixel(0, 1), qRgb(255, 255, 255));
        QCOMPARE(p.pixel(1, 1), ImageTiles::kHoleColour);
    }

    void widgetKeepsTilesAndCaptions() {
        ImageTiles tiles;
        fa::Vector a = fa::Vector::Constant(4, 0.25), b = fa::Vector::Constant(4, 0.75);
        tiles.setTiles(2, 2, {{a, "a", ImageTiles::Scale::Grey}, {b, "b", ImageTiles::Scale::Grey}},
                       2);
        QCOMPARE(tiles.count(), 2);
        QCOMPARE(tiles.caption(1), QString("b"));
        QCOMPARE(tiles.image(0).pixel(1, 1), qRgb(64, 64, 64));
        QCOMPARE(tiles.image(1).pixel(0, 0), qRgb(191, 191, 191));
        tiles.resize(200, 120);
        QImage shot(tiles.size(), QImage::Format_RGB32);
        tiles.render(&shot); // two cells side by side, each picture a block in its cell
        QCOMPARE(shot.pixel(51, 20), qRgb(64, 64, 64));
        QCOMPARE(shot.pixel(149, 20), qRgb(191, 191, 191));
        tiles.clear();
        QCOMPARE(tiles.count(), 0);
    }
};

QTEST_MAIN(TestImageTiles)
#include "test_image_tiles.moc"
