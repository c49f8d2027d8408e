#pragma once
// View → High-contrast dark theme, for projectors: a black window with white text, and every
// chart (background, titles, axes, grid, legend) in the same scheme. Method colours stay as they
// are (each keeps a contrast of at least 3 : 1 on black); series drawn in black or dark grey (the
// exact posterior, the truth, EM's bound) and other colours too dark to see on black are made
// light. Works on any page without knowing it, like Presentation.h: what it changed it remembers
// and puts back, and a colour a page sets again later is taken as new.
#include <QColor>

class QPalette;
class QWidget;

namespace presentation {

/// The application palette of the dark theme (Fusion's roles, white on black).
QPalette darkPalette();
/// A colour as the dark theme draws it: one with less than 3 : 1 contrast on black (relative
/// luminance under 0.10) made light, a grey by inverting its lightness; others as they are,
/// alpha kept.
QColor onBlack(const QColor& c);
/// WCAG 2 contrast ratio of two colours, 1 to 21 (alpha ignored).
double contrastRatio(const QColor& a, const QColor& b);
/// Every chart and custom-painted view under root in the dark theme (on) or back as it was.
/// Safe to call again (charts and series made since are taken on). Returns the colours changed.
int applyDarkTheme(QWidget* root, bool on);

} // namespace presentation
