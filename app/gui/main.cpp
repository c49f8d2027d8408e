// faexplorer: the FA Explorer window. [--session FILE] opens a saved session (and the lab it
// belongs to); --preset NAME opens a preset (--list-presets prints them); --mode LAB opens a
// lab (explorer, posterior, neural, latent, nonlinear: the lab registry's ids); --screenshot
// PATH runs headless-capable (also under QT_QPA_PLATFORM=offscreen), saves the whole window
// once the lab in view has run --after-samples N (explorer) or --after-epochs N (the epoch
// labs), prints where it stopped and the throughput, and exits.
#include "core/io/AtomicFile.h"
#include "core/io/FileChecks.h"
#include "ui/common/BackgroundThreads.h"
#include "ui/common/LabPage.h"
#include "ui/common/RunRecorder.h"
#include "ui/common/WidgetExport.h"
#include "ui/session/PresetFile.h"
#include "ui/shell/Labs.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/ViewControls.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QIcon>
#include <QScreen>
#include <QTimer>
#include <cstdio>

namespace {
// QGuiApplication takes "-session"/"--session" for X11 session management and removes it from
// argv, so our --session FILE is taken out first, before QApplication sees it.
QString takeSessionArgument(int& argc, char** argv, bool& given) {
    QString file;
    given = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        int taken = 0;
        if ((a == "--session" || a == "-session") && i + 1 < argc) {
            file = QString::fromLocal8Bit(argv[i + 1]);
            taken = 2;
        } else if (a.startsWith("--session=")) {
            file = QString::fromLocal8Bit(a.mid(10));
            taken = 1;
        }
        if (taken > 0) {
            given = true;
            for (int j = i; j + taken <= argc; ++j)
                argv[j] = argv[j + taken];
            argc -= taken;
            --i;
        }
    }
    return file;
}

// --list-presets needs no display: answered before QApplication (which would need one).
int listPresets() {
    QStringList errors;
    const QString folder = fa::io::presetDirectory();
    const std::vector<fa::io::Preset> presets = fa::io::listPresets(folder, &errors);
    for (const fa::io::Preset& p : presets)
        std::printf("%s\t%s\t%s\n", qPrintable(p.name), qPrintable(p.lab), qPrintable(p.title));
    for (const QString& e : errors)
        std::fprintf(stderr, "faexplorer: preset skipped: %s\n", qPrintable(e));
    if (presets.empty()) {
        std::fprintf(stderr, "faexplorer: no presets in '%s'\n", qPrintable(folder));
        return 1;
    }
    return errors.isEmpty() ? 0 : 1;
}

// --record: the run from its start, frames at fixed positions, then exit (0 written, 1 failed).
/// The length of the page's run once the run asked for last is in place (0: open-ended, or no
/// run within a minute).
long runLength(LabPage* page) {
    QEventLoop loop;
    QObject::connect(page, &LabPage::reached, &loop, &QEventLoop::quit);
    QObject::connect(page, &LabPage::runError, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    page->runUntil(0);
    loop.exec();
    const auto snapshot = page->latestLabSnapshot();
    return snapshot ? snapshot->length : 0;
}

int recordRun(MainWindow& window, const QString& path, long until, const QString& framesText,
              int width) {
    bool ok = false;
    const int frames = framesText.toInt(&ok);
    if (!ok || frames < 1 || frames > 100000) {
        std::fprintf(stderr, "faexplorer: --frames must be between 1 and 100000\n");
        return 2;
    }
    if (until < 1) {
        std::fprintf(stderr, "faexplorer: a recording needs a last position of at least 1\n");
        return 2;
    }
    RecordOptions options = window.recordingDefaults(); // the preset's scale and caption
    options.path = path;
    options.frames = frames;
    options.until = until;
    options.width = width;
    RunRecorder recorder(window.currentPage(), options);
    int code = 1;
    QObject::connect(&recorder, &RunRecorder::finished, qApp, [&](bool done, const QString& why) {
        std::fprintf(done ? stdout : stderr, "faexplorer: %s\n", qPrintable(why));
        code = done ? 0 : 1;
        qApp->quit();
    });
    QTimer::singleShot(0, &recorder, &RunRecorder::start);
    QApplication::exec();
    return code;
}
} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (QByteArray(argv[i]) == "--list-presets")
            return listPresets();
    bool sessionGiven = false;
    const QString sessionFile = takeSessionArgument(argc, argv, sessionGiven);
    QApplication app(argc, argv);
    QApplication::setApplicationName("FA Explorer");
    QApplication::setOrganizationName("FA Explorer");
    QApplication::setWindowIcon(QIcon(":/icons/faexplorer.svg"));
    QCommandLineParser parser;
    parser.setApplicationDescription("Explore online factor analysis live.");
    parser.addHelpOption();
    const QCommandLineOption screenshot(
        "screenshot", "Save a screenshot of the window to PATH and exit.", "PATH");
    const QCommandLineOption after(
        "after-samples",
        "With --screenshot: samples to run first (default: the session's, else 20000).", "N");
    const QCommandLineOption width(
        "width",
        "With --screenshot: the picture's width in pixels (the window painted again at that "
        "size, e.g. 1920 or 3840 for slides; default: as on screen).",
        "PIXELS");
    const QCommandLineOption record(
        "record",
        "Record the run as an animated GIF at PATH and exit: the run from its start, a frame at "
        "each of --frames positions up to --after-samples / --after-epochs (default: the "
        "session's position, else as --screenshot).",
        "PATH");
    const QCommandLineOption frames("frames", "With --record: the number of frames (default 60).",
                                    "N");
    const QCommandLineOption present(
        "presentation", "Start in presentation mode (full screen, parameters hidden; F11).");
    const QCommandLineOption zoom("zoom", "Text and charts at PERCENT (100 to 200).", "PERCENT");
    const QCommandLineOption colourBlind("colour-blind",
                                         "Draw the methods in a colour-blind-safe palette.");
    const QCommandLineOption session("session", "Open this session (JSON) and replay it.", "FILE");
    const QCommandLineOption preset(
        "preset", "Open this preset (a figure of the seeds or a lesson; see --list-presets).",
        "NAME");
    const QCommandLineOption listPresetsOption(
        "list-presets", "Print the presets, one a line: name, lab, title (tab-separated).");
    const QCommandLineOption mode(
        "mode", "Start in this mode: explorer (default), posterior, neural, latent or nonlinear.",
        "MODE");
    const QCommandLineOption afterEpochs(
        "after-epochs",
        "With --screenshot in an epoch lab: epochs (latent lab: iterations) to run first "
        "(default: the session's, else 2000; neural 60; latent 300).",
        "N");
    const QCommandLineOption threads(
        "threads",
        "Threads for background jobs (the explorer's trials, the neural lab's search); default: "
        "every core.",
        "N");
    parser.addOption(threads);
    parser.addOption(mode);
    parser.addOption(afterEpochs);
    parser.addOption(session);
    parser.addOption(preset);
    parser.addOption(width);
    parser.addOption(record);
    parser.addOption(present);
    parser.addOption(zoom);
    parser.addOption(colourBlind);
    const QCommandLineOption dark("dark", "Use the high-contrast dark theme (white on black).");
    parser.addOption(dark);
    parser.addOption(frames);
    parser.addOption(listPresetsOption);
    parser.addOption(screenshot);
    parser.addOption(after);
    parser.process(app);

    // A picture or recording written over the session or preset it shows would replace it (the
    // same path, or a symbolic or hard link to the same file).
    QStringList inputs;
    if (sessionGiven)
        inputs << sessionFile;
    if (parser.isSet(preset))
        inputs << QDir(fa::io::presetDirectory()).filePath(parser.value(preset) + ".json");
    for (const QCommandLineOption* output : {&screenshot, &record})
        for (const QString& input : inputs)
            if (parser.isSet(*output) &&
                fa::io::sameFile(QFile::encodeName(parser.value(*output)).toStdString(),
                                 QFile::encodeName(input).toStdString())) {
                std::fprintf(
                    stderr,
                    "faexplorer: the output '%s' of --%s is also the session or preset it shows "
                    "('%s'): writing it would replace the session; choose another file\n",
                    qPrintable(parser.value(*output)), qPrintable(output->names().first()),
                    qPrintable(input));
                return 2;
            }
    // A recording ended by SIGINT, SIGTERM or SIGHUP leaves no temporary GIF behind (and the
    // file at its path as it was).
    fa::io::removeTemporariesOnSignals();
    // An output that cannot be written (write-protected, a folder, no such folder) is named
    // before the run, not after it: the temporary opened here is removed at once.
    for (const QCommandLineOption* output : {&screenshot, &record})
        if (parser.isSet(*output)) {
            try {
                fa::io::AtomicFile probe(QFile::encodeName(parser.value(*output)).toStdString());
            } catch (const std::exception& e) {
                std::fprintf(stderr, "faexplorer: --%s: %s\n", qPrintable(output->names().first()),
                             e.what());
                return 2;
            }
        }

    if (parser.isSet(threads)) {
        bool ok = false;
        const int n = parser.value(threads).toInt(&ok);
        if (!ok || n < 1 || n > 1024) {
            std::fprintf(stderr, "faexplorer: --threads must be between 1 and 1024\n");
            return 2;
        }
        setBackgroundThreads(n);
    }
    // Without --mode, the registry's first lab.
    const QString modeName = parser.isSet(mode) ? parser.value(mode) : labRegistry().front().id;
    QStringList ids;
    for (const LabEntry& lab : labRegistry())
        ids << lab.id;
    if (!ids.contains(modeName)) {
        std::fprintf(stderr, "faexplorer: --mode must be one of %s\n", qPrintable(ids.join(", ")));
        return 2;
    }
    const bool headless = parser.isSet(screenshot) || parser.isSet(record);
    MainWindow window;
    // Roomy by default, but never larger than the screen (a 1280 x 800 projector); screenshots
    // keep one size whatever the screen, so the README's pictures stay comparable.
    QSize size(1480, 860);
    if (!headless && window.screen())
        size = size.boundedTo(window.screen()->availableGeometry().size());
    else if (headless && parser.isSet(present))
        size = QSize(1280, 800); // a picture of presentation mode: a projector's screen
    window.resize(size);
    window.setCurrentLab(modeName);
    if (parser.isSet(zoom)) {
        bool ok = false;
        const int percent = parser.value(zoom).toInt(&ok);
        if (!ok || percent < 100 || percent > 200) {
            std::fprintf(stderr, "faexplorer: --zoom must be between 100 and 200\n");
            return 2;
        }
        window.viewControls()->setZoom(percent / 100.0, false); // this launch only
    } else if (headless) {
        window.viewControls()->setZoom(1.0, false); // pictures never depend on saved settings
    }
    if (parser.isSet(colourBlind) || headless)
        window.viewControls()->setColourBlind(parser.isSet(colourBlind), false);
    if (parser.isSet(dark) || headless)
        window.viewControls()->setDark(parser.isSet(dark), false);
    window.show();
    if (parser.isSet(present))
        window.viewControls()->setPresenting(true, !headless);
    if (parser.isSet(screenshot) && parser.isSet(record)) {
        std::fprintf(stderr, "faexplorer: give --screenshot or --record, not both\n");
        return 2;
    }
    if (sessionGiven && parser.isSet(preset)) {
        std::fprintf(stderr, "faexplorer: give --session or --preset, not both\n");
        return 2;
    }
    if (parser.isSet(preset) && !window.openPreset(parser.value(preset))) {
        std::fprintf(stderr, "faexplorer: %s\n", qPrintable(window.lastError()));
        if (headless)
            return 2;
    }
    if (sessionGiven && !window.openSession(sessionFile)) {
        std::fprintf(stderr, "faexplorer: %s\n", qPrintable(window.lastError()));
        if (headless)
            return 2;
    }
    if (!headless)
        return app.exec();

    LabPage* page = window.currentPage();
    const bool samples = page->countsSamples();
    const QCommandLineOption& afterOption = samples ? after : afterEpochs;
    bool ok = true;
    // A recording of a preset or session at its start runs to the run's end (its length).
    const long length =
        parser.isSet(record) && !parser.isSet(afterOption) && page->sessionPosition() <= 0
            ? runLength(page)
            : 0;
    const long target = parser.isSet(afterOption)     ? parser.value(afterOption).toLong(&ok)
                        : page->sessionPosition() > 0 ? page->sessionPosition()
                        : length > 0                  ? length
                                                      : page->defaultLength();
    if (!ok || target < 0) {
        std::fprintf(stderr, "faexplorer: --%s needs a non-negative whole number\n",
                     qPrintable(afterOption.names().first()));
        return 2;
    }
    int pixels = 0;
    if (parser.isSet(width)) {
        pixels = parser.value(width).toInt(&ok);
        if (!ok || pixels < 16 || pixels > 16384) {
            std::fprintf(stderr, "faexplorer: --width must be between 16 and 16384 pixels\n");
            return 2;
        }
    }
    if (parser.isSet(record) && pixels > 4096) {
        std::fprintf(stderr, "faexplorer: a recording's --width must be at most 4096 pixels\n");
        return 2;
    }
    if (parser.isSet(record))
        return recordRun(window, parser.value(record), target,
                         parser.isSet(frames) ? parser.value(frames) : QString("60"), pixels);
    const QString path = parser.value(screenshot);
    int code = 0;
    QObject::connect(page, &LabPage::reached, &app, [&](long reached) {
        QTimer::singleShot(300, &app, [&, reached] { // let the last frame paint
            const LabStats s = page->stats();
            const QString unit = page->unitName();
            std::printf("faexplorer: %s at %s %ld; %ld %ss in %.2f s of playing: %.0f per second\n",
                        qPrintable(window.currentLab()), qPrintable(unit), reached,
                        s.unitsWhilePlaying, qPrintable(unit), s.runSeconds,
                        s.runSeconds > 0 ? s.unitsWhilePlaying / s.runSeconds : 0.0);
            QString why;
            if (!widget_export::savePng(&window, path, pixels, &why)) {
                std::fprintf(stderr, "faexplorer: cannot write the screenshot: %s\n",
                             qPrintable(why));
                code = 1;
            }
            app.quit();
        });
    });
    // A run that cannot start or stops on an error ends the screenshot with its reason.
    QObject::connect(page, &LabPage::runError, &app, [&](const QString& why) {
        std::fprintf(stderr, "faexplorer: the run stopped before %s %ld: %s\n",
                     samples ? "sample" : "epoch", target, qPrintable(why));
        code = 1;
        app.quit();
    });
    // A target before the session's own position: the session's replay may already be past
    // it, so the run starts again from the session's start and stops exactly there.
    if (page->sessionPosition() > target)
        page->restart();
    QTimer::singleShot(0, &window, [&] { page->runUntil(target); });
    app.exec();
    return code;
}
