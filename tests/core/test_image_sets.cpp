// The image data sets (core/io/ImageSets.h, issue 29) against published facts: the bundled UCI
// digits are 1,797 images of 8 x 8 whose class counts are 178, 182, 177, 183, 181, 182, 181,
// 179, 174, 180 and whose first image is the "0" every description of the set prints; Fashion-
// MNIST's first ten training labels are 9 0 0 3 0 2 7 2 5 5 and its training pixels' mean is
// 0.2860 (the constant everyone normalises with); queries keep the classes and counts asked
// for; a class outside the set and a missing Fashion-MNIST are refused, the latter naming the
// Debian package.
#include "core/io/ImageSets.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

class TestImageSets : public QObject {
    Q_OBJECT
    static std::string dataDir() { return FAEXPLORER_SOURCE_DIR "/resources/data"; }

  private slots:
    void digitsAreTheUciSet() {
        const fa::ImageSet d = fa::io::loadImageSet("digits", {}, dataDir());
        QCOMPARE(d.size(), Eigen::Index(1797));
        QCOMPARE(d.pixels.cols(), Eigen::Index(64));
        QCOMPARE(d.width, 8);
        QCOMPARE(d.height, 8);
        std::vector<int> counts(10, 0);
        for (int l : d.labels)
            ++counts[std::size_t(l)];
        QCOMPARE(counts, (std::vector<int>{178, 182, 177, 183, 181, 182, 181, 179, 174, 180}));
        const int first[16] = {0, 0, 5, 13, 9, 1, 0, 0, 0, 0, 13, 15, 10, 15, 5, 0};
        for (int j = 0; j < 16; ++j)
            QCOMPARE(d.pixels(0, j), first[j] / 16.0);
        QCOMPARE(d.labels[0], 0);
        QVERIFY(d.pixels.minCoeff() == 0.0 && d.pixels.maxCoeff() == 1.0);

        fa::ImageQuery q;
        q.classes = {3, 7};
        q.samples = 50;
        const fa::ImageSet some = fa::io::loadImageSet("digits", q, dataDir());
        QCOMPARE(some.size(), Eigen::Index(50));
        std::size_t next = 0; // the first 50 rows of class 3 or 7, in the file's order
        for (std::size_t i = 0; i < d.labels.size() && next < 50; ++i)
            if (d.labels[i] == 3 || d.labels[i] == 7) {
                QCOMPARE(some.labels[next], d.labels[i]);
                QCOMPARE(some.pixels.row(Eigen::Index(next)), d.pixels.row(Eigen::Index(i)));
                ++next;
            }
        q.classes = {10};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fa::io::loadImageSet("digits", q, dataDir()));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fa::io::loadImageSet("mnist", {}, dataDir()));
    }

    // A digits file cut short (a broken copy) or with a cell that is not a whole number is
    // refused with its path, never read as fewer images.
    void aBrokenDigitsFileIsRefused() {
        QFile whole(QString::fromStdString(dataDir()) + "/digits.csv.gz");
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QByteArray bytes = whole.readAll();
        QTemporaryDir dir;
        QFile cut(dir.filePath("digits.csv.gz"));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(bytes.left(bytes.size() / 2));
        cut.close();
        try {
            fa::io::loadImageSet("digits", {}, dir.path().toStdString());
            QFAIL("a truncated file was read");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("digits.csv.gz"), e.what());
        }
        QFile plain(dir.filePath("digits.csv.gz")); // zlib reads a plain file as it is
        QVERIFY(plain.open(QIODevice::WriteOnly | QIODevice::Truncate));
        plain.write(QByteArray("0,").repeated(63) + "0.5,3\n");
        plain.close();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 fa::io::loadImageSet("digits", {}, dir.path().toStdString()));
    }

    void fashionMnistIsThePublishedSet() {
        if (!QFile::exists(QString::fromStdString(fa::io::fashionMnistDirectory()) +
                           "/train-images-idx3-ubyte.gz"))
            QSKIP("dataset-fashion-mnist is not installed (scripts/install-deps.sh installs it)");
        fa::ImageQuery q;
        q.samples = 60000; // the training set
        const fa::ImageSet f = fa::io::loadImageSet("fashion-mnist", q);
        QCOMPARE(f.size(), Eigen::Index(60000));
        QCOMPARE(f.pixels.cols(), Eigen::Index(784));
        QCOMPARE(std::vector<int>(f.labels.begin(), f.labels.begin() + 10),
                 (std::vector<int>{9, 0, 0, 3, 0, 2, 7, 2, 5, 5}));
        QCOMPARE(f.classNames[9], std::string("Ankle boot"));
        const double mean = f.pixels.mean();
        QVERIFY2(std::abs(mean - 0.2860) < 5e-5, qPrintable(QString::number(mean, 'f', 6)));
        q.samples = 0;
        q.classes = {1};
        const fa::ImageSet trousers = fa::io::loadImageSet("fashion-mnist", q);
        QCOMPARE(trousers.size(), Eigen::Index(7000)); // 6000 training and 1000 test images
    }

    void aMissingFashionMnistNamesItsPackage() {
        QTemporaryDir empty;
        qputenv("FAEXPLORER_FASHION_MNIST", empty.path().toUtf8());
        try {
            fa::io::loadImageSet("fashion-mnist", {});
            QFAIL("accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("dataset-fashion-mnist"), e.what());
        }
        qunsetenv("FAEXPLORER_FASHION_MNIST");
    }
};

QTEST_APPLESS_MAIN(TestImageSets)
#include "test_image_sets.moc"
