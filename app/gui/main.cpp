// faexplorer: the FA Explorer window. [--session FILE] opens a saved session (and the lab it
// belongs to); --preset NAME opens a preset (--list-presets prints them); --mode LAB opens a
// lab (explorer, posterior, neural, latent, nonlinear: the lab registry's ids); --screenshot
// PATH runs headless-capable (also under QT_QPA_PLATFORM=offscreen), saves the whole window
// once the lab in view has run --after-samples N (explorer) or --after-epochs N (the epoch
// labs), prints where it stopped and the throughput, and exits.
#include "app/HugePages.h"
#include "app/gui/GuiOptions.h"
#include "app/gui/NoDisplay.h"
#include "core/io/AtomicFile.h"
#include "core/io/FileChecks.h"
#include "ui/common/BackgroundThreads.h"
#include "ui/common/ChartFit.h"
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
#include <algorithm>
#include <cstdio>
#include <functional>

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
/// A picture or recording written over the session or preset it shows would replace it (the
/// same path, or a symbolic or hard link to the same file): said, and true.
bool overwritesAnInput(const QCommandLineParser& parser, const GuiOptions& o,
                       const QStringList& inputs) {
    for (const QCommandLineOption* output : {&o.screenshot, &o.record})
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
                return true;
            }
    return false;
}

/// An output that cannot be written (write-protected, a folder, no such folder) is named
/// before the run, not after it: the temporary opened here is removed at once.
bool outputsWritable(const QCommandLineParser& parser, const GuiOptions& o) {
    for (const QCommandLineOption* output : {&o.screenshot, &o.record})
        if (parser.isSet(*output)) {
            try {
                fa::io::AtomicFile probe(QFile::encodeName(parser.value(*output)).toStdString(),
                                         fa::io::FifoReader::Refuse);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "faexplorer: --%s: %s\n", qPrintable(output->names().first()),
                             e.what());
                return false;
            }
        }
    return true;
}

/// --threads applied; false (said why) when out of range.
bool applyThreads(const QCommandLineParser& parser, const GuiOptions& o) {
    if (parser.isSet(o.threads)) {
        bool ok = false;
        const int n = parser.value(o.threads).toInt(&ok);
        if (!ok || n < 1 || n > 1024) {
            std::fprintf(stderr, "faexplorer: --threads must be between 1 and 1024\n");
            return false;
        }
        setBackgroundThreads(n);
    }
    return true;
}

/// --mode, else the registry's first lab; empty (said why) for an id the registry lacks.
QString modeOption(const QCommandLineParser& parser, const GuiOptions& o) {
    const QString modeName = parser.isSet(o.mode) ? parser.value(o.mode) : labRegistry().front().id;
    QStringList ids;
    for (const LabEntry& lab : labRegistry())
        ids << lab.id;
    if (!ids.contains(modeName)) {
        std::fprintf(stderr, "faexplorer: --mode must be one of %s\n", qPrintable(ids.join(", ")));
        return {};
    }
    return modeName;
}

/// The window's size, lab, zoom, palette and theme as the options ask, shown (in presentation
/// mode if asked); false (said why) for a bad --zoom.
bool setUpWindow(MainWindow& window, const QCommandLineParser& parser, const GuiOptions& o,
                 const QString& modeName, bool headless) {
    // Roomy by default, but never larger than the screen (a 1280 x 800 projector); screenshots
    // keep one size whatever the screen, so the README's pictures stay comparable.
    const QSize roomy(1480, 860);
    QSize size = roomy;
    if (!headless && window.screen())
        size = size.boundedTo(window.screen()->availableGeometry().size());
    else if (headless && parser.isSet(o.present))
        size = QSize(1280, 800); // a picture of presentation mode: a projector's screen
    window.resize(size);
    if (!headless && window.screen()) {
        // The position restored from the last session may be one a larger screen had room
        // for: keep the whole window on this one (its status bar included). A screen smaller
        // than the roomy size gets the window maximized, so a window manager's frame fits too.
        const QRect room = window.screen()->availableGeometry();
        const QPoint at(std::clamp(window.x(), room.left(), room.right() + 1 - size.width()),
                        std::clamp(window.y(), room.top(), room.bottom() + 1 - size.height()));
        window.move(at);
        if (size != roomy)
            window.setWindowState(window.windowState() | Qt::WindowMaximized);
    }
    window.setCurrentLab(modeName);
    if (parser.isSet(o.zoom)) {
        bool ok = false;
        const int percent = parser.value(o.zoom).toInt(&ok);
        if (!ok || percent < 100 || percent > 200) {
            std::fprintf(stderr, "faexplorer: --zoom must be between 100 and 200\n");
            return false;
        }
        window.viewControls()->setZoom(percent / 100.0, false); // this launch only
    } else if (headless) {
        window.viewControls()->setZoom(1.0, false); // pictures never depend on saved settings
    }
    if (parser.isSet(o.colourBlind) || headless)
        window.viewControls()->setColourBlind(parser.isSet(o.colourBlind), false);
    if (parser.isSet(o.dark) || headless)
        window.viewControls()->setDark(parser.isSet(o.dark), false);
    window.show();
    if (parser.isSet(o.present))
        window.viewControls()->setPresenting(true, !headless);
    return true;
}

/// Opens --preset or --session (session: nullptr when none was given); false (said why) when
/// the options conflict, or one cannot be opened for a picture or a recording.
bool openInputs(MainWindow& window, const QCommandLineParser& parser, const GuiOptions& o,
                const QString* session, bool headless) {
    if (parser.isSet(o.exportCharts) && !parser.isSet(o.screenshot)) {
        std::fprintf(stderr, "faexplorer: --export-charts goes with --screenshot\n");
        return false;
    }
    if (parser.isSet(o.screenshot) && parser.isSet(o.record)) {
        std::fprintf(stderr, "faexplorer: give --screenshot or --record, not both\n");
        return false;
    }
    if (session && parser.isSet(o.preset)) {
        std::fprintf(stderr, "faexplorer: give --session or --preset, not both\n");
        return false;
    }
    if (parser.isSet(o.preset) && !window.openPreset(parser.value(o.preset))) {
        std::fprintf(stderr, "faexplorer: %s\n", qPrintable(window.lastError()));
        if (headless)
            return false;
    }
    if (session && !window.openSession(*session)) {
        std::fprintf(stderr, "faexplorer: %s\n", qPrintable(window.lastError()));
        if (headless)
            return false;
    }
    return true;
}

/// --screenshot: the page runs until target, the window is saved, and the run is reported.
int takeScreenshot(MainWindow& window, const QString& path, long target, int pixels,
                   const QString& chartFolder) {
    LabPage* page = window.currentPage();
    int code = 0;
    // A view's own computation first, and the run's work beside the stream (the explorer's
    // batch refit, the posterior lab's gradient study at the last epoch), 60 s at most: the
    // picture was taken with "batch: refitting…" and without batch FA's last marker, or with
    // the gradient study of epoch 0 at epoch 2000.
    // Then the charts' text fitting (ui/common/ChartFit.h), 3 s at most: a legend taken half
    // way showed 5 of its 7 entries.
    std::function<void(long)> whenViewsReady;
    int waits = 0, fits = 0;
    QObject::connect(page, &LabPage::reached, qApp, [&](long reached) { whenViewsReady(reached); });
    whenViewsReady = [&](long reached) {
        if ((page->viewsPending() || page->backgroundPending()) && ++waits < 600) {
            QTimer::singleShot(100, qApp, [&, reached] { whenViewsReady(reached); });
            return;
        }
        if (fits == 0 || (presentation::chartTextPending(&window) && fits < 30)) {
            QTimer::singleShot(fits++ == 0 ? 300 : 100, qApp, // let the last frame paint
                               [&, reached] { whenViewsReady(reached); });
            return;
        }
        QTimer::singleShot(0, qApp, [&, reached] {
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
            if (!chartFolder.isEmpty()) {
                QDir().mkpath(chartFolder);
                if (page->exportCharts(chartFolder, pixels).isEmpty()) {
                    std::fprintf(stderr, "faexplorer: cannot export the charts to %s\n",
                                 qPrintable(chartFolder));
                    code = 1;
                }
            }
            qApp->quit();
        });
    };
    // A run that cannot start or stops on an error ends the screenshot with its reason.
    QObject::connect(page, &LabPage::runError, qApp, [&](const QString& why) {
        std::fprintf(stderr, "faexplorer: the run stopped before %s %ld: %s\n",
                     qPrintable(page->unitName()), target, qPrintable(why));
        code = 1;
        qApp->quit();
    });
    // A target before the session's own position: the session's replay may already be past
    // it, so the run starts again from the session's start and stops exactly there.
    if (page->sessionPosition() > target)
        page->restart();
    QTimer::singleShot(0, &window, [&] { page->runUntil(target); });
    QApplication::exec();
    return code;
}

/// --screenshot or --record of the lab in view, at --after-samples (a lab counting samples) or
/// --after-epochs, else the session's position, the run's length (a recording, or a preset or
/// session opened at its start: `opened`) or the page's default length.
int takePicture(MainWindow& window, const QCommandLineParser& parser, const GuiOptions& o,
                bool opened) {
    LabPage* page = window.currentPage();
    const QCommandLineOption& afterOption = page->countsSamples() ? o.after : o.afterEpochs;
    bool ok = true;
    // A recording, or a picture of a preset or session at its start, runs to the run's end (its
    // length): where a preset's caption says what to read (a picture at the lab's default
    // stopped a 5000-epoch preset at 2000, beside a caption that says "read them at 5000").
    const long length = (parser.isSet(o.record) || opened) && !parser.isSet(afterOption) &&
                                page->sessionPosition() <= 0
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
    if (parser.isSet(o.width)) {
        pixels = parser.value(o.width).toInt(&ok);
        if (!ok || pixels < 16 || pixels > 16384) {
            std::fprintf(stderr, "faexplorer: --width must be between 16 and 16384 pixels\n");
            return 2;
        }
    }
    if (parser.isSet(o.record) && pixels > 4096) {
        std::fprintf(stderr, "faexplorer: a recording's --width must be at most 4096 pixels\n");
        return 2;
    }
    if (parser.isSet(o.record))
        return recordRun(window, parser.value(o.record), target,
                         parser.isSet(o.frames) ? parser.value(o.frames) : QString("60"), pixels);
    return takeScreenshot(window, parser.value(o.screenshot), target, pixels,
                          parser.value(o.exportCharts));
}
} // namespace

int main(int argc, char** argv) {
    restartWithHugePages(argv);
    for (int i = 1; i < argc; ++i)
        if (QByteArray(argv[i]) == "--list-presets")
            return listPresets();
    answerHelp(argc, argv);
    if (displayMissing())
        return 1;
    bool sessionGiven = false;
    const QString sessionFile = takeSessionArgument(argc, argv, sessionGiven);
    QApplication app(argc, argv);
    QApplication::setApplicationName("FA Explorer");
    QApplication::setOrganizationName("FA Explorer");
    QApplication::setWindowIcon(QIcon(":/icons/faexplorer.svg"));
    QCommandLineParser parser;
    const GuiOptions o;
    describe(parser, o);
    parser.process(app);

    QStringList inputs;
    if (sessionGiven)
        inputs << sessionFile;
    if (parser.isSet(o.preset))
        inputs << QDir(fa::io::presetDirectory()).filePath(parser.value(o.preset) + ".json");
    if (overwritesAnInput(parser, o, inputs))
        return 2;
    // A recording ended by SIGINT, SIGTERM or SIGHUP leaves no temporary GIF behind (and the
    // file at its path as it was).
    fa::io::removeTemporariesOnSignals();
    if (!outputsWritable(parser, o) || !applyThreads(parser, o))
        return 2;
    const QString modeName = modeOption(parser, o);
    if (modeName.isEmpty())
        return 2;
    const bool headless = parser.isSet(o.screenshot) || parser.isSet(o.record);
    MainWindow window;
    if (!setUpWindow(window, parser, o, modeName, headless) ||
        !openInputs(window, parser, o, sessionGiven ? &sessionFile : nullptr, headless))
        return 2;
    if (!headless)
        return QApplication::exec();
    return takePicture(window, parser, o, !inputs.isEmpty());
}
