// Pictures in the labs (core/data/ImageData.h, LatentData.h; issue 29): the digits reach the
// latent lab as their own pixels, each within half a step of value / 16 (the dequantised jitter
// of docs/maths/images.md §1, whose variance is Δ²/12, the uniform's), split in the file's
// order with each row's class kept; a hidden square is side x side pixels of one picture; the
// imputation of a fitted Gaussian equals the dense conditional mean; the nonlinear lab's pictures
// are the rows it shows and its mosaic's tiles the decoder at their latent points.
#include "core/data/LatentData.h"
#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeLive.h"

#include <QtTest>
#include <cmath>

using namespace fa;

class TestImageData : public QObject {
    Q_OBJECT
    static std::string dataDir() { return FAEXPLORER_SOURCE_DIR "/resources/data"; }

    static LatentData digits(int block = 0, double share = 0.0) {
        LatentDataSpec spec;
        spec.dataset = "digits";
        spec.testFraction = 0.25;
        spec.hideBlock = block;
        spec.hideFraction = share;
        spec.splitSeed = 7;
        return makeLatentData(spec, io::tableLoader(dataDir()));
    }

  private slots:
    void digitsArriveAsTheirPixels() {
        const ImageSet raw = io::loadImageSet("digits", {}, dataDir());
        const LatentData d = digits();
        QCOMPARE(d.image.width, 8);
        QCOMPARE(d.image.resolution, 1.0 / 16.0);
        QCOMPARE(d.train.rows() + d.test.rows(), Eigen::Index(1797));
        QCOMPARE(d.test.rows(), Eigen::Index(std::llround(0.25 * 1797)));
        QCOMPARE(d.train.cols(), Eigen::Index(64));
        QCOMPARE(d.columns[9], std::string("r2c2"));
        // The file's order: the fitting rows first, then the held-out ones, classes kept.
        const Matrix jitter =
            (Matrix(d.train.rows() + d.test.rows(), 64) << d.train, d.test).finished() - raw.pixels;
        QVERIFY(jitter.cwiseAbs().maxCoeff() <= 0.5 / 16.0);
        std::vector<int> labels = d.trainLabels;
        labels.insert(labels.end(), d.testLabels.begin(), d.testLabels.end());
        QCOMPARE(labels, raw.labels);
        // Uniform on ±Δ/2: mean 0, variance Δ²/12 (115,008 draws: 4 standard errors).
        const double n = double(jitter.size()), delta2 = 1.0 / 256.0;
        const double mean = jitter.mean(), var = jitter.array().square().mean() - mean * mean;
        QVERIFY2(std::abs(mean) < 4.0 * std::sqrt(delta2 / 12.0 / n),
                 qPrintable(QString::number(mean)));
        const double varSe = std::sqrt((delta2 * delta2 / 80.0 - delta2 * delta2 / 144.0) / n);
        QVERIFY2(std::abs(var - delta2 / 12.0) < 4.0 * varSe, qPrintable(QString::number(var)));
        // Nothing is z-scored: a picture is still a picture of [0, 1] pixels.
        QVERIFY(d.train.minCoeff() >= -0.5 / 16.0 && d.train.maxCoeff() <= 1.0 + 0.5 / 16.0);
    }

    void aHiddenSquareIsOneSquarePerPicture() {
        const LatentData whole = digits(), holed = digits(3);
        QCOMPARE(holed.hidden.size(), std::size_t(9) * std::size_t(whole.train.rows()));
        for (Eigen::Index n = 0; n < whole.train.rows(); ++n) {
            int top = 8, left = 8, bottom = -1, right = -1, count = 0;
            for (int p = 0; p < 64; ++p)
                if (std::isnan(holed.train(n, p))) {
                    top = std::min(top, p / 8), bottom = std::max(bottom, p / 8);
                    left = std::min(left, p % 8), right = std::max(right, p % 8);
                    ++count;
                } else {
                    QCOMPARE(holed.train(n, p), whole.train(n, p)); // same jitter elsewhere
                }
            QCOMPARE(count, 9);
            QCOMPARE(bottom - top, 2);
            QCOMPARE(right - left, 2);
        }
        for (const HiddenEntry& h : holed.hidden)
            QCOMPARE(h.value, whole.train(h.row, h.col));
        QVERIFY(std::abs(holed.hideFraction - 9.0 / 64.0) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, digits(8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, digits(3, 0.1)); // a square or a share
        LatentDataSpec boston;
        boston.dataset = "boston";
        boston.hideBlock = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 makeLatentData(boston, io::tableLoader(dataDir())));
    }

    // Holes filled by PPCA (imputeConditionalMean) equal the conditional mean of the fitted
    // Gaussian N(c, W Wᵀ + σ² I) formed densely, row by row.
    void filledPixelsAreTheDenseConditionalMean() {
        const LatentData holed = digits(3);
        Matrix complete = holed.train;
        for (const HiddenEntry& h : holed.hidden)
            complete(h.row, h.col) = h.value;
        const PpcaModel fit = ppcaClosedForm(complete, 5);
        const FAModel m = fit.asFa();
        const Matrix filled = imputeConditionalMean(m, holed.train);
        const Matrix C = m.denseCovariance();
        for (Eigen::Index n = 0; n < 40; ++n) {
            std::vector<Eigen::Index> miss, seen;
            for (Eigen::Index p = 0; p < 64; ++p)
                (std::isnan(holed.train(n, p)) ? miss : seen).push_back(p);
            const Matrix Coo = C(seen, seen), Cmo = C(miss, seen);
            const Vector xo = holed.train(n, seen).transpose() - m.c(seen);
            const Vector dense = m.c(miss) + Cmo * Coo.llt().solve(xo);
            QVERIFY((filled(n, miss).transpose() - dense).cwiseAbs().maxCoeff() < 1e-10);
            QCOMPARE(filled(n, seen), holed.train(n, seen));
        }
        QCOMPARE(imputeConditionalMean(m, complete), complete); // nothing missing: the data
    }

    // The mosaic of PPCA's decoder (f(z) = μ + W z, VaeLiveSnapshot::mosaic) tile by tile, with
    // z1 growing to the right and z2 upwards; the shown pictures are the held-out rows, coloured
    // by their class.
    void theMosaicIsTheDecoderOnItsGrid() {
        VaeLiveConfig c;
        c.data.dataset = "digits";
        c.data.images.samples = 300;
        c.methods = {VaeMethod::Ppca};
        c.fit.latent = 2;
        c.gridSize = 5;
        c.loader = io::tableLoader(dataDir());
        const VaeLive live(c);
        const VaeLiveSnapshot s = live.snapshot();
        QCOMPARE(s.image.width, 8);
        QCOMPARE(s.mosaicColumns, 5);
        QCOMPARE(s.mosaic.rows(), Eigen::Index(25));
        const PpcaModel p = ppcaClosedForm(live.data().rows.train, 2);
        for (int r = 0; r < 5; ++r)
            for (int col = 0; col < 5; ++col) {
                const Eigen::Vector2d z(-2.5 + 1.25 * col, 2.5 - 1.25 * r);
                const Vector tile = p.mu + p.W * z;
                QVERIFY((s.mosaic.row(r * 5 + col).transpose() - tile).cwiseAbs().maxCoeff() <
                        1e-9);
            }
        const Matrix& test = live.data().rows.test;
        QCOMPARE(s.shownPictures, Matrix(test.topRows(VaeLiveSnapshot::kShownPictures)));
        QCOMPARE(s.colours.size(), std::size_t(test.rows()));
        for (std::size_t i = 0; i < s.colours.size(); ++i)
            QCOMPARE(s.colours[i], double(live.data().rows.testLabels[i]));
    }
};

QTEST_APPLESS_MAIN(TestImageData)
#include "test_image_data.moc"
