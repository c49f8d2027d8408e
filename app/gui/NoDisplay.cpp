#include "app/gui/NoDisplay.h"

#include "ui/session/PresetFile.h"

#include <QCoreApplication>
#include <cstdio>

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

void describe(QCommandLineParser& parser, const GuiOptions& o) {
    parser.setApplicationDescription("Explore online factor analysis live.");
    parser.addHelpOption();
    o.addTo(parser);
}

// A QCoreApplication answers --help: it needs no display, and process() exits after printing.
void answerHelp(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "-h" || a == "--help" || a == "-?" || a == "--help-all") {
            QCoreApplication core(argc, argv);
            QCommandLineParser parser;
            const GuiOptions o;
            describe(parser, o);
            parser.process(core);
        }
    }
}

// Says how to run without a display, rather than leave Qt's plugin message alone.
bool displayMissing() {
    if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
        !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        return false;
    std::fprintf(stderr,
                 "faexplorer: no display (DISPLAY and WAYLAND_DISPLAY are unset). Run it on "
                 "a desktop, or without one: QT_QPA_PLATFORM=offscreen faexplorer "
                 "--screenshot PATH (or --record PATH).\n");
    return true;
}
