// Issue 25: what `faexplorer --screenshot/--record` does to files. An output that is the session
// it shows (the same path or a link to it) is refused and the session kept; `--record` writes a
// temporary beside the GIF and renames it into place, so SIGTERM mid-recording leaves the old GIF
// as it was and no temporary (it was truncated at once, and a broken GIF stayed); a session from
// a FIFO is refused at once instead of waiting for ever, and so is a screenshot into a FIFO
// that no program reads. A screenshot goes the same way as the
// recording: a write-protected picture is kept (QImage::save replaced it, root or not) and a
// written one leaves no temporary. An output that cannot be written is named before the run.
#include "tests/support/RunProgram.h"

#include <QtTest>

#include <csignal>
#include <sys/stat.h>

class TestGuiFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    using Result = test::ProgramResult;
    QProcessEnvironment environment() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("XDG_CONFIG_HOME", m_dir.filePath("config")); // no settings of the user's
        return env;
    }
    Result run(const QStringList& args, int timeoutMs = 60000) {
        return test::runProgram(FAEXPLORER_GUI, args, {}, timeoutMs, environment());
    }
    /// A small explorer session that runs `total` samples.
    QString session(const QString& name, long total) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QString(R"({"format": "faexplorer-session", "version": 1, "mode": "explorer",
 "model": {"dim": 20, "latent": 2, "spectrum": [1, 10], "generator": "haar", "seed": "0"},
 "fitting": {"fitLatent": 2, "em": true, "sga": true, "batch": false, "learningRate": 0.001,
             "warmup": 100, "totalSamples": %1}})")
                    .arg(total)
                    .toUtf8());
        return path;
    }
    static QByteArray read(const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
    }
    QStringList temporaries() const {
        return QDir(m_dir.path()).entryList({"*.tmp-*"}, QDir::Files | QDir::System);
    }

  private slots:
    void anOutputThatIsTheSessionIsRefused() {
        const QString s = session("s.json", 1000);
        const QByteArray before = read(s);
        QVERIFY(QFile::link(s, m_dir.filePath("link.json")));
        for (const QString& option : {QString("--screenshot"), QString("--record")})
            for (const QString& out : {s, m_dir.filePath("link.json")}) {
                const Result r = run({"--session", s, option, out});
                QCOMPARE(r.code, 2);
                QVERIFY2(r.err.contains("is also the session"), qPrintable(r.err));
                QCOMPARE(read(s), before);
            }
    }
    void aSessionFromAFifoIsRefusedAtOnce() {
        const QString fifo = m_dir.filePath("session.fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const Result r =
            run({"--session", fifo, "--screenshot", m_dir.filePath("never.png")}, 20000);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("not a regular file"), qPrintable(r.err));
        QVERIFY(!QFile::exists(m_dir.filePath("never.png")));
    }
    // The window never blocks on a file: a screenshot into a FIFO that no program reads is
    // refused before the run, where opening it would have waited for a reader for ever.
    void aScreenshotIntoAFifoWithoutAReaderIsRefusedAtOnce() {
        const QString fifo = m_dir.filePath("picture.fifo");
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        const Result r = run({"--screenshot", fifo}, 20000);
        QVERIFY2(r.code != 0 && r.err.contains("no program reads"), qPrintable(r.err));
    }
    void aRecordingEndedBySigtermKeepsTheOldGif() {
        const QString gif = m_dir.filePath("old.gif");
        {
            QFile f(gif);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the previous recording");
        }
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(FAEXPLORER_GUI,
                {"--session", session("long.json", 100000000), "--record", gif, "--frames", "2000",
                 "--after-samples", "100000000", "--width", "200"});
        QVERIFY(p.waitForStarted());
        // The recording's own temporary appears beside the GIF; the GIF is not touched.
        const QString mine = QString("old.gif.tmp-%1").arg(p.processId());
        QTRY_VERIFY_WITH_TIMEOUT(temporaries().contains(mine), 30000);
        QCOMPARE(read(gif), QByteArray("the previous recording"));
        QCOMPARE(::kill(static_cast<pid_t>(p.processId()), SIGTERM), 0);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitStatus(), QProcess::CrashExit); // ended by the signal
        QVERIFY2(temporaries().isEmpty(), qPrintable(temporaries().join(", ")));
        QCOMPARE(read(gif), QByteArray("the previous recording"));
    }
    void aFinishedRecordingIsPutInPlace() {
        const QString gif = m_dir.filePath("done.gif");
        const Result r = run({"--session", session("short.json", 400), "--record", gif, "--frames",
                              "3", "--after-samples", "400", "--width", "200"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(read(gif).startsWith("GIF89a"));
        QVERIFY(temporaries().isEmpty());
    }
    void aScreenshotKeepsAWriteProtectedPictureAndReplacesOthers() {
        const QString png = m_dir.filePath("kept.png");
        {
            QFile f(png);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("the lecturer's figure");
        }
        QVERIFY(QFile::setPermissions(png, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
        const QString s = session("shot.json", 200);
        Result r = run({"--session", s, "--screenshot", png, "--after-samples", "200"});
        QCOMPARE(r.code, 2); // named before the run
        QVERIFY2(r.err.contains("write-protected"), qPrintable(r.err));
        QCOMPARE(read(png), QByteArray("the lecturer's figure"));
        QVERIFY(QFile::setPermissions(png, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        r = run({"--session", s, "--screenshot", png, "--after-samples", "200"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(read(png).startsWith("\x89PNG"));
        QVERIFY2(temporaries().isEmpty(), qPrintable(temporaries().join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestGuiFiles)
#include "test_gui_files.moc"
