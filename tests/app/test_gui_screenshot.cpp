// faexplorer --screenshot as scripts run it: it always ends. A session whose model cannot fit in
// memory is refused before the window runs anything (exit 2, the figure named); a target beyond
// the run's end stops at the end and saves the picture (exit 0). (A run that stops on an error,
// std::bad_alloc under a memory limit, ends with exit 1: the worker's side of that is tested in
// test_lab_worker; the whole program under a 4 GB limit is measured in docs/reliability.md.)
// --help and the word for a missing display come without a window.
#include "tests/support/RunProgram.h"

#include <QtTest>

class TestGuiScreenshot : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    using Result = test::ProgramResult;
    Result run(const QStringList& args) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("XDG_CONFIG_HOME", m_dir.filePath("config")); // no settings of the user's
        return test::runProgram(FAEXPLORER_GUI, args, {}, 60000, env);
    }
    QString session(const QString& name, int dim, int latent, long total) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QString(R"({"format": "faexplorer-session", "version": 1, "mode": "explorer",
 "model": {"dim": %1, "latent": %2, "spectrum": [1, 10], "generator": "haar", "seed": "0"},
 "fitting": {"fitLatent": %2, "em": true, "sga": true, "batch": false, "learningRate": 0.001,
             "warmup": 100, "totalSamples": %3}})")
                    .arg(dim)
                    .arg(latent)
                    .arg(total)
                    .toUtf8());
        return path;
    }

  private slots:
    void helpAndAMissingDisplayNeedNoWindow() {
        // With no display and no platform chosen, Qt could only abort with its plugin message.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(name);
        env.insert("XDG_CONFIG_HOME", m_dir.filePath("config"));
        const Result help = test::runProgram(FAEXPLORER_GUI, {"--help"}, {}, 60000, env);
        QCOMPARE(help.code, 0);
        QVERIFY2(help.out.contains("--screenshot") && help.out.contains("--preset"),
                 qPrintable(help.out + help.err));
        const Result none = test::runProgram(FAEXPLORER_GUI, {}, {}, 60000, env);
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("no display") && none.err.contains("QT_QPA_PLATFORM=offscreen"),
                 qPrintable(none.err));
    }

    void aModelTooLargeForMemoryIsRefusedAtOnce() {
        // D = 10^6, K = 5000: 40 GB for the true F alone. It idled at 0 % CPU forever before.
        const QString png = m_dir.filePath("never.png");
        const Result r =
            run({"--session", session("huge.json", 1000000, 5000, 1000), "--screenshot", png});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("40.0 GB"), qPrintable(r.err));
        QVERIFY(!QFile::exists(png));
    }
    // A target before the session's own position is taken exactly, every time (issue 25: the
    // session's replay was under way, and the picture came at iteration 10, 83, 123, ...).
    void aTargetBeforeTheSessionsPositionIsExact() {
        for (int k = 0; k < 3; ++k) {
            const Result r =
                run({"--session", FAEXPLORER_SOURCE_DIR "/resources/examples/latent-boston.json",
                     "--screenshot", m_dir.filePath("latent.png"), "--after-epochs", "3"});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains("latent at iteration 3;"), qPrintable(r.out + r.err));
        }
    }

    void aTargetPastTheEndStopsAtTheEnd() {
        const QString png = m_dir.filePath("short.png");
        const Result r = run({"--session", session("short.json", 30, 3, 400), "--screenshot", png,
                              "--after-samples", "5000"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("sample 400"), qPrintable(r.out + r.err));
        QVERIFY(QImage(png).width() > 0);
    }
    // A session or preset opened at its start is pictured at its run's end, past the lab's
    // default of 20000 samples (a preset's caption says what to read at its end: a 5000-epoch
    // preset was pictured at 2000).
    void aSessionAtItsStartRunsToItsLength() {
        const QString png = m_dir.filePath("long.png");
        const Result r =
            run({"--session", session("long.json", 30, 3, 30000), "--screenshot", png});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("at sample 30000;"), qPrintable(r.out + r.err));
    }
    void aChosenWidthPaintsTheWindowAgainAtThatSize() {
        const QString small = m_dir.filePath("screen.png"), big = m_dir.filePath("wide.png");
        const QString s = session("width.json", 30, 3, 400);
        QCOMPARE(run({"--session", s, "--screenshot", small}).code, 0);
        QCOMPARE(run({"--session", s, "--screenshot", big, "--width", "3840"}).code, 0);
        const QImage a(small), b(big);
        QCOMPARE(b.width(), 3840);
        QVERIFY(std::abs(b.height() - 3840.0 * a.height() / a.width()) <= 1.0);
        // The same picture: brought back down to the screen's size, at most 5 % of the sampled
        // pixels differ much from the small one (not a blank or a different window).
        const QImage down = b.scaled(a.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        double differ = 0;
        for (int y = 0; y < a.height(); y += 4)
            for (int x = 0; x < a.width(); x += 4)
                differ += std::abs(qGray(a.pixel(x, y)) - qGray(down.pixel(x, y))) > 96;
        QVERIFY2(differ < 0.05 * (a.width() / 4) * (a.height() / 4),
                 qPrintable(QString::number(differ)));
        const Result bad = run({"--session", s, "--screenshot", big, "--width", "0"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("--width"));
    }
};

QTEST_GUILESS_MAIN(TestGuiScreenshot)
#include "test_gui_screenshot.moc"
