#pragma once
// Presentation helpers that work on any page without knowing it: the charts' text scaled (Qt
// Charts take their fonts from their theme, not from the application's font), and the method
// colours swapped for a colour-blind-safe palette (Okabe and Ito's eight colours) in every
// series already drawn; series drawn later take their colour from colourFor(), which asks
// colourBlindPalette().
#include <QColor>

class QWidget;

namespace presentation {

/// Every chart under root: titles, axis labels and titles, and legends at `scale` times the
/// size they had when first seen (so applying twice, or after the axes were made again, is
/// safe). Returns how many fonts changed.
int scaleChartFonts(QWidget* root, double scale);
/// The method palette (matplotlib's tab10, as the registry's colours) to Okabe–Ito and back;
/// other colours are returned as they are, alpha kept.
QColor toColourBlind(const QColor& c);
QColor fromColourBlind(const QColor& c);
/// Every series under root recoloured to the palette chosen (pens, brushes, markers).
int recolourSeries(QWidget* root, bool colourBlind);
/// Every linear axis under root that a view left at Qt's fixed five ticks (labels such as
/// "313 627 940") gets round ticks (1, 2 or 5 times a power of ten), kept when its range
/// changes. Axes a view already gives round ticks are left alone. Returns the axes taken over.
int roundAllTicks(QWidget* root);

} // namespace presentation
