// The IDX reader (core/io/IdxFile.h, issue 29) against files written here byte by byte, plain
// and gzip-compressed: the shape and every value come back; a prefix of the items is read; a
// truncated file, a bad magic number, another value type, a zero size and a FIFO are refused
// with the path and the reason (the FIFO at once, without waiting for a writer).
#include "core/io/IdxFile.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>
#include <zlib.h>

#include <fstream>

namespace {

std::vector<std::uint8_t> idxBytes(const std::vector<std::uint32_t>& shape,
                                   const std::vector<std::uint8_t>& values, std::uint8_t type = 8) {
    std::vector<std::uint8_t> b{0, 0, type, static_cast<std::uint8_t>(shape.size())};
    for (std::uint32_t n : shape)
        for (int shift : {24, 16, 8, 0})
            b.push_back(static_cast<std::uint8_t>(n >> shift));
    b.insert(b.end(), values.begin(), values.end());
    return b;
}

void writePlain(const QString& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void writeGzip(const QString& path, const std::vector<std::uint8_t>& bytes) {
    gzFile f = gzopen(path.toStdString().c_str(), "wb");
    QVERIFY(f != nullptr);
    QCOMPARE(gzwrite(f, bytes.data(), unsigned(bytes.size())), int(bytes.size()));
    gzclose(f);
}

/// Three 2 x 3 "images" with values 0, 7, 14, ... (mod 256).
std::vector<std::uint8_t> values(std::size_t n) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = static_cast<std::uint8_t>((7 * i) % 256);
    return v;
}

QString refusal(const QString& path, std::size_t maxItems = SIZE_MAX) {
    try {
        fa::io::readIdx(path.toStdString(), maxItems);
    } catch (const std::invalid_argument& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestIdxFile : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void readsPlainAndGzipAlike() {
        const auto bytes = idxBytes({3, 2, 3}, values(18));
        for (const bool gzip : {false, true}) {
            const QString path = m_dir.filePath(gzip ? "images.gz" : "images");
            gzip ? writeGzip(path, bytes) : writePlain(path, bytes);
            const fa::io::IdxArray a = fa::io::readIdx(path.toStdString());
            QCOMPARE(a.shape, (std::vector<std::size_t>{3, 2, 3}));
            QCOMPARE(a.itemSize(), std::size_t(6));
            QCOMPARE(a.data, values(18));
            const fa::io::IdxArray two = fa::io::readIdx(path.toStdString(), 2);
            QCOMPARE(two.shape, (std::vector<std::size_t>{2, 2, 3}));
            QCOMPARE(two.data, values(12));
        }
        const QString labels = m_dir.filePath("labels.gz");
        writeGzip(labels, idxBytes({4}, {9, 0, 3, 255}));
        const fa::io::IdxArray l = fa::io::readIdx(labels.toStdString());
        QCOMPARE(l.shape, std::vector<std::size_t>{4});
        QCOMPARE(l.itemSize(), std::size_t(1));
        QCOMPARE(l.data, (std::vector<std::uint8_t>{9, 0, 3, 255}));
    }

    void refusesWhatIsNotAnIdxFileOfBytes() {
        auto bytes = idxBytes({3, 2, 3}, values(18));
        bytes.pop_back(); // one value short
        const QString truncated = m_dir.filePath("truncated.gz");
        writeGzip(truncated, bytes);
        QVERIFY2(refusal(truncated).contains("truncated"), qPrintable(refusal(truncated)));
        QVERIFY(refusal(truncated).contains(truncated));
        QVERIFY(refusal(truncated, 2).isEmpty()); // the first two items are whole
        const QString header = m_dir.filePath("header");
        writePlain(header, {0, 0, 8, 3, 0, 0});
        QVERIFY(refusal(header).contains("header"));
        const QString magic = m_dir.filePath("magic");
        auto bad = idxBytes({2}, {1, 2});
        bad[0] = 0x1f;
        writePlain(magic, bad);
        QVERIFY(refusal(magic).contains("first two bytes"));
        const QString doubles = m_dir.filePath("doubles");
        writePlain(doubles, idxBytes({1}, {0, 0, 0, 0, 0, 0, 0, 0}, 0x0D));
        QVERIFY(refusal(doubles).contains("unsigned bytes"));
        const QString empty = m_dir.filePath("zero");
        writePlain(empty, idxBytes({0, 28}, {}));
        QVERIFY(refusal(empty).contains("size 0"));
        QVERIFY(refusal(m_dir.filePath("absent")).contains("cannot be opened"));
        const QString fifo = m_dir.filePath("fifo");
        QCOMPARE(::mkfifo(fifo.toStdString().c_str(), 0600), 0);
        QVERIFY(refusal(fifo).contains("not a regular file"));
        QVERIFY(refusal(m_dir.path()).contains("not a regular file"));
    }
};

QTEST_APPLESS_MAIN(TestIdxFile)
#include "test_idx_file.moc"
