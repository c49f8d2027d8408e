// faexplorer: the FA Explorer window. --screenshot PATH [--after-samples N] runs headless-capable
// (also under QT_QPA_PLATFORM=offscreen), saves the whole window after N samples and exits.
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTimer>
#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("FA Explorer");
    QApplication::setOrganizationName("FA Explorer");
    QApplication::setWindowIcon(QIcon(":/icons/faexplorer.svg"));
    QCommandLineParser parser;
    parser.setApplicationDescription("Explore online factor analysis live.");
    parser.addHelpOption();
    const QCommandLineOption screenshot("screenshot", "Save a screenshot of the window to PATH and exit.", "PATH");
    const QCommandLineOption after("after-samples", "With --screenshot: samples to run first (default 20000).", "N",
                                   "20000");
    parser.addOption(screenshot);
    parser.addOption(after);
    parser.process(app);

    MainWindow window;
    window.resize(1480, 820);
    window.show();
    if (!parser.isSet(screenshot))
        return app.exec();

    bool ok = false;
    const long n = parser.value(after).toLong(&ok);
    if (!ok || n < 0) {
        std::fprintf(stderr, "faexplorer: --after-samples needs a non-negative whole number\n");
        return 2;
    }
    const QString path = parser.value(screenshot);
    int code = 0;
    QObject::connect(&window, &MainWindow::reachedSamples, &app, [&] {
        QTimer::singleShot(200, &app, [&] { // let the last frame paint
            if (!window.grab().save(path)) {
                std::fprintf(stderr, "faexplorer: cannot write screenshot '%s'\n", qPrintable(path));
                code = 1;
            }
            app.quit();
        });
    });
    QTimer::singleShot(0, &window, [&] { window.runUntil(n); });
    app.exec();
    return code;
}
