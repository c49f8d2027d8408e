#pragma once
// faexplorer's command-line options (app/gui/main.cpp reads them); --help lists them in the order
// addTo adds them.
#include <QCommandLineOption>
#include <QCommandLineParser>

struct GuiOptions {
    const QCommandLineOption screenshot{
        "screenshot", "Save a screenshot of the window to PATH and exit.", "PATH"};
    const QCommandLineOption after{
        "after-samples",
        "With --screenshot: samples to run first (default: the session's position; a preset or "
        "session at its start: its run's length; else 20000).",
        "N"};
    const QCommandLineOption width{
        "width",
        "With --screenshot: the picture's width in pixels (the window painted again at that "
        "size, e.g. 1920 or 3840 for slides; default: as on screen).",
        "PIXELS"};
    const QCommandLineOption record{
        "record",
        "Record the run as an animated GIF at PATH and exit: the run from its start, a frame at "
        "each of --frames positions up to --after-samples / --after-epochs (default: the "
        "session's position, else as --screenshot).",
        "PATH"};
    const QCommandLineOption frames{"frames", "With --record: the number of frames (default 60).",
                                    "N"};
    const QCommandLineOption present{
        "presentation", "Start in presentation mode (full screen, parameters hidden; F11)."};
    const QCommandLineOption zoom{"zoom", "Text and charts at PERCENT (100 to 200).", "PERCENT"};
    const QCommandLineOption colourBlind{"colour-blind",
                                         "Draw the methods in a colour-blind-safe palette."};
    const QCommandLineOption session{"session", "Open this session (JSON) and replay it.", "FILE"};
    const QCommandLineOption preset{
        "preset", "Open this preset (a figure of the seeds or a lesson; see --list-presets).",
        "NAME"};
    const QCommandLineOption listPresets{
        "list-presets", "Print the presets, one a line: name, lab, title (tab-separated)."};
    const QCommandLineOption mode{
        "mode", "Start in this mode: explorer (default), posterior, neural, latent or nonlinear.",
        "MODE"};
    const QCommandLineOption afterEpochs{
        "after-epochs",
        "With --screenshot in an epoch lab: epochs (latent lab: iterations) to run first "
        "(default: the session's position; a preset or session at its start: its run's length; "
        "else 2000; neural 60; latent 300).",
        "N"};
    const QCommandLineOption threads{
        "threads",
        "Threads for background jobs (the explorer's trials, the neural lab's search); default: "
        "every core.",
        "N"};
    const QCommandLineOption dark{"dark", "Use the high-contrast dark theme (white on black)."};
    const QCommandLineOption exportCharts{
        "export-charts",
        "With --screenshot: also write every chart of the lab in view to FOLDER as PNG (at "
        "--width) and SVG, as Ctrl+Shift+E does.",
        "FOLDER"};

    void addTo(QCommandLineParser& parser) const {
        for (const QCommandLineOption* o :
             {&threads, &mode, &afterEpochs, &session, &preset, &width, &record, &present, &zoom,
              &colourBlind, &dark, &frames, &listPresets, &screenshot, &exportCharts, &after})
            parser.addOption(*o);
    }
};
