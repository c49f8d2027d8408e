// Recordings: the frame positions; the GIF writer read back by Qt's own GIF decoder (colours,
// frame count, delay, looping); and a recorded run twice gives the same bytes, with frames that
// follow the run (batch refits in background included). A preset's recording follows the
// lesson's time scale (the EM staircase's first iterations, log-spaced) under its caption, and
// another session opened in that lab drops the caption.
#include "tests/support/SettingsIsolation.h"
#include "ui/common/GifWriter.h"
#include "ui/common/RunRecorder.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/ExplorerPage.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/PresetCaption.h"

#include <QImageReader>
#include <QSignalSpy>
#include <QtTest>

namespace {
QList<QImage> readFrames(const QString& path, int* delay = nullptr, int* loops = nullptr) {
    QImageReader reader(path, "gif");
    QList<QImage> frames;
    if (loops)
        *loops = reader.loopCount();
    for (QImage image = reader.read(); !image.isNull(); image = reader.read()) {
        frames << image.convertToFormat(QImage::Format_RGB32);
        if (delay)
            *delay = reader.nextImageDelay();
        if (!reader.jumpToNextImage() && reader.currentImageNumber() + 1 >= reader.imageCount())
            break;
    }
    return frames;
}
} // namespace

class TestRecording : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void framePositionsAreFixedAndEndAtTheLast() {
        using V = std::vector<long>;
        QCOMPARE(RunRecorder::framePositions(100, 4, false), (V{25, 50, 75, 100}));
        QCOMPARE(RunRecorder::framePositions(10000, 4, true), (V{10, 100, 1000, 10000}));
        QCOMPARE(RunRecorder::framePositions(3, 10, false), (V{1, 2, 3})); // no repeats
        QCOMPARE(RunRecorder::framePositions(1000, 6, true), (V{3, 10, 32, 100, 316, 1000}));
        QVERIFY(RunRecorder::framePositions(0, 5, false).empty());
    }

    void theGifReadsBackFrameForFrame() {
        const QString path = m_dir.filePath("colours.gif");
        const QList<QColor> colours{QColor(214, 39, 40), QColor(31, 119, 180), Qt::white};
        GifWriter gif;
        QVERIFY2(gif.open(path, QSize(40, 30), 250), qPrintable(gif.error()));
        for (const QColor& c : colours) {
            QImage frame(40, 30, QImage::Format_RGB32);
            frame.fill(c);
            frame.setPixelColor(5, 7, Qt::black); // one pixel of another colour
            QVERIFY2(gif.addFrame(frame), qPrintable(gif.error()));
        }
        QVERIFY(!gif.addFrame(QImage(41, 30, QImage::Format_RGB32))); // another size: refused
        QVERIFY(gif.error().contains("41"));
        QVERIFY2(gif.close(), qPrintable(gif.error()));
        int delay = 0, loops = 0;
        const QList<QImage> frames = readFrames(path, &delay, &loops);
        QCOMPARE(frames.size(), 3);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(frames[k].size(), QSize(40, 30));
            // giflib's median cut works on 5 bits a channel: within 8 of each value.
            const QColor got = frames[k].pixelColor(20, 20), dark = frames[k].pixelColor(5, 7);
            QVERIFY(std::abs(got.red() - colours[k].red()) < 8);
            QVERIFY(std::abs(got.green() - colours[k].green()) < 8);
            QVERIFY(std::abs(got.blue() - colours[k].blue()) < 8);
            QVERIFY(dark.red() < 8 && dark.green() < 8 && dark.blue() < 8);
        }
        QCOMPARE(delay, 250);
        QCOMPARE(loops, -1); // forever
        GifWriter nowhere;
        QVERIFY(!nowhere.open(m_dir.filePath("no/such/folder/x.gif"), QSize(4, 4), 100));
        QVERIFY(nowhere.error().contains("cannot write"));
    }

    void theSameRunRecordsTheSameFrames() {
        ExplorerPage page;
        page.resize(1000, 640);
        page.show();
        fa::ExplorerConfig c;
        c.generator.dim = 30;
        c.generator.latent = 3;
        c.fitLatent = 3;
        c.seed = 4;
        c.totalSamples = 3000;
        c.runBatch = true; // refits at 100 and 1000 in the background: in the frames, always
        page.controls()->setConfig(c);
        page.reset();
        QByteArray bytes[2];
        for (int k = 0; k < 2; ++k) {
            const QString path = m_dir.filePath(QString("run%1.gif").arg(k));
            RecordOptions o;
            o.path = path;
            o.frames = 6;
            o.until = 3000;
            o.width = 500;
            o.logarithmic = true;
            RunRecorder recorder(&page, o);
            QSignalSpy done(&recorder, &RunRecorder::finished);
            QSignalSpy progress(&recorder, &RunRecorder::progress);
            recorder.start();
            QVERIFY(done.wait(60000));
            QVERIFY2(done[0][0].toBool(), qPrintable(done[0][1].toString()));
            QCOMPARE(progress.size(), 6);
            QCOMPARE(page.latestLabSnapshot()->position, 3000L);
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            bytes[k] = f.readAll();
            if (k == 0)
                page.runUntil(2000); // somewhere else: the next recording starts again anyway
        }
        QCOMPARE(bytes[0].size(), bytes[1].size());
        QVERIFY(bytes[0] == bytes[1]);
        const QList<QImage> frames = readFrames(m_dir.filePath("run0.gif"));
        QCOMPARE(frames.size(), 6);
        QCOMPARE(frames[0].width(), 500);
        QVERIFY(std::abs(frames[0].height() - 500.0 * page.height() / page.width()) <= 1.0);
        for (int k = 1; k < frames.size(); ++k)
            QVERIFY2(frames[k] != frames[k - 1], qPrintable(QString("frame %1").arg(k)));

        // Stop ends the recording at once, with a finished file of the frames so far.
        RecordOptions o;
        o.path = m_dir.filePath("stopped.gif");
        o.frames = 50;
        o.until = 3000;
        o.width = 300;
        RunRecorder recorder(&page, o);
        QSignalSpy done(&recorder, &RunRecorder::finished);
        QSignalSpy progress(&recorder, &RunRecorder::progress);
        recorder.start();
        QVERIFY(progress.wait(20000));
        recorder.cancel();
        QCOMPARE(done.size(), 1); // no waiting for the next frame
        QVERIFY(!done[0][0].toBool());
        QVERIFY(done[0][1].toString().contains("stopped after"));
        QVERIFY(readFrames(o.path).size() >= 1);
        QTest::qWait(200);
        QCOMPARE(done.size(), 1);
    }

    void aPresetRecordsOnItsScaleUnderItsCaption() {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY2(window.openPreset("lesson-em-staircase"), qPrintable(window.lastError()));
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        RecordOptions o = window.recordingDefaults();
        QVERIFY(o.logarithmic); // the preset's scale: the latent lab's own is linear
        QVERIFY(o.header && o.header->isVisible());
        o.path = m_dir.filePath("staircase.gif");
        o.frames = 12;
        o.until = 500; // past the preset's 15 iterations: the frames' spacing is what is tested
        o.width = 640;
        LabPage* page = window.currentPage();
        RunRecorder recorder(page, o);
        // The staircase's first iterations have frames (linear spacing: 42, 83, …)
        const std::vector<long>& at = recorder.positions();
        QVERIFY2(at.front() <= 2 && at[3] <= 10, qPrintable(QString::number(at[3])));
        QCOMPARE(at.back(), 500L);
        QSignalSpy done(&recorder, &RunRecorder::finished);
        recorder.start();
        QVERIFY(done.wait(60000));
        QVERIFY2(done[0][0].toBool(), qPrintable(done[0][1].toString()));
        const QList<QImage> frames = readFrames(o.path);
        QCOMPARE(frames.size(), 12);
        // The caption above the page: the frame is taller than the page at that width by at
        // least two lines of text, and its top is the caption's (light yellow) background.
        const double pageHeight = 640.0 * page->height() / page->width();
        QVERIFY2(frames[0].height() > pageHeight + 20,
                 qPrintable(QString("%1 vs %2").arg(frames[0].height()).arg(pageHeight)));
        const QColor caption = o.header->palette().color(QPalette::ToolTipBase);
        int near = 0, all = 0;
        for (int y = 0; y < 12; ++y)
            for (int x = 0; x < frames[0].width(); x += 4, ++all) {
                const QColor c = frames[0].pixelColor(x, y);
                near += std::abs(c.red() - caption.red()) + std::abs(c.green() - caption.green()) +
                            std::abs(c.blue() - caption.blue()) <
                        40;
            }
        QVERIFY2(near > all / 2, qPrintable(QString("%1 of %2").arg(near).arg(all)));

        // Another session in the same lab: the preset's caption and scale no longer apply.
        const QString session = m_dir.filePath("other.json");
        QVERIFY(page->saveSession(session));
        QVERIFY(window.openSession(session));
        QVERIFY(!window.presetCaption()->isVisible());
        o = window.recordingDefaults();
        QVERIFY(!o.logarithmic);
        QVERIFY(!o.header);
    }
};

QTEST_MAIN(TestRecording)
#include "test_recording.moc"
