// faexplorer: the FA Explorer window. [--session FILE] opens a saved session;
// --screenshot PATH [--after-samples N] runs headless-capable (also under
// QT_QPA_PLATFORM=offscreen), saves the whole window after N samples, prints the run's
// throughput on stdout and exits. --mode posterior opens the posterior lab instead; there
// --after-epochs N sets how far it runs before the screenshot.
#include "ui/common/MainWindow.h"
#include "ui/neural/NeuralPage.h"
#include "ui/posterior/PosteriorPage.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
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
} // namespace

int main(int argc, char** argv) {
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
    const QCommandLineOption session("session", "Open this session (JSON) and replay it.", "FILE");
    const QCommandLineOption mode(
        "mode", "Start in this mode: explorer (default), posterior or neural.", "MODE");
    const QCommandLineOption afterEpochs(
        "after-epochs",
        "With --screenshot in the posterior lab: epochs to run first (default: the "
        "session's, else 2000).",
        "N");
    parser.addOption(mode);
    parser.addOption(afterEpochs);
    parser.addOption(session);
    parser.addOption(screenshot);
    parser.addOption(after);
    parser.process(app);

    const QString modeName = parser.value(mode);
    if (parser.isSet(mode) && modeName != "explorer" && modeName != "posterior" &&
        modeName != "neural") {
        std::fprintf(stderr, "faexplorer: --mode must be explorer, posterior or neural\n");
        return 2;
    }
    MainWindow window;
    window.resize(1480, 860);
    window.setMode(modeName == "posterior" ? MainWindow::Mode::Posterior
                   : modeName == "neural"  ? MainWindow::Mode::Neural
                                           : MainWindow::Mode::Explorer);
    window.show();
    long sessionSamples = -1;
    if (sessionGiven) {
        if (!window.openSession(sessionFile)) {
            std::fprintf(stderr, "faexplorer: %s\n", qPrintable(window.lastError()));
            if (parser.isSet(screenshot))
                return 2;
        } else {
            sessionSamples = window.latestSessionSamples();
        }
    }
    if (!parser.isSet(screenshot))
        return app.exec();

    const QString path = parser.value(screenshot);
    int code = 0;
    auto save = [&] {
        if (!window.grab().save(path)) {
            std::fprintf(stderr, "faexplorer: cannot write screenshot '%s'\n", qPrintable(path));
            code = 1;
        }
        app.quit();
    };
    bool ok = true;
    if (window.mode() == MainWindow::Mode::Neural) {
        const long epochs = parser.isSet(afterEpochs) ? parser.value(afterEpochs).toLong(&ok) : 60;
        if (!ok || epochs < 0) {
            std::fprintf(stderr, "faexplorer: --after-epochs needs a non-negative whole number\n");
            return 2;
        }
        QObject::connect(window.neuralPage(), &LabPage::reached, &app, [&](long reached) {
            std::printf("faexplorer: neural lab at epoch %ld\n", reached);
            QTimer::singleShot(300, &app, save);
        });
        QTimer::singleShot(0, &window, [&] { window.neuralPage()->runUntil(epochs); });
        app.exec();
        return code;
    }
    if (window.posteriorMode()) {
        const long epochs = parser.isSet(afterEpochs) ? parser.value(afterEpochs).toLong(&ok)
                            : sessionSamples > 0      ? sessionSamples
                                                      : 2000;
        if (!ok || epochs < 0) {
            std::fprintf(stderr, "faexplorer: --after-epochs needs a non-negative whole number\n");
            return 2;
        }
        QObject::connect(window.posteriorPage(), &LabPage::reached, &app, [&](long reached) {
            std::printf("faexplorer: posterior lab at epoch %ld\n", reached);
            QTimer::singleShot(300, &app, save); // let the last frame paint
        });
        QTimer::singleShot(0, &window, [&] { window.posteriorPage()->runUntil(epochs); });
        app.exec();
        return code;
    }
    const long n = parser.isSet(after)  ? parser.value(after).toLong(&ok)
                   : sessionSamples > 0 ? sessionSamples
                                        : 20000;
    if (!ok || n < 0) {
        std::fprintf(stderr, "faexplorer: --after-samples needs a non-negative whole number\n");
        return 2;
    }
    QObject::connect(&window, &MainWindow::reachedSamples, &app, [&] {
        QTimer::singleShot(200, &app, [&] { // let the last frame paint
            const LabStats s = window.latestStats();
            std::printf("faexplorer: %ld samples in %.2f s of playing: %.0f obs/s\n",
                        s.unitsWhilePlaying, s.runSeconds,
                        s.runSeconds > 0 ? s.unitsWhilePlaying / s.runSeconds : 0.0);
            save();
        });
    });
    QTimer::singleShot(0, &window, [&] { window.runUntil(n); });
    app.exec();
    return code;
}
