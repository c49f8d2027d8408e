#pragma once
// What faexplorer answers without a display, before QApplication (which would need one):
// --list-presets, --help, and a clear word where there is no display to open a window on.
#include "app/gui/GuiOptions.h"

/// The options, described once for --help and for the run.
void describe(QCommandLineParser& parser, const GuiOptions& o);
/// Prints the presets, one a line: name, lab, title; 0, or 1 if a preset was skipped or none.
int listPresets();
/// -h, --help, -? or --help-all among the arguments: prints the help and exits the process.
void answerHelp(int argc, char** argv);
/// True (with a message) where Qt would pick X11 or Wayland and neither has a display.
bool displayMissing();
