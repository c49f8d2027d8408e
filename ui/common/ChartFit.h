#pragma once
// Chart text that stays whole on a small chart at a projector's zoom (issue 25): an axis title
// Qt would elide to "…" (no room beside the ticks at 200 %) is made smaller (to 60 %), and
// hidden only if it is cut even then, the chart's own title naming the quantity; a chart title,
// legend or category labels cut so are made smaller (to 60 %); all shown again as they were when
// the chart is resized, the zoom changes or a legend entry's text changes (then fitted anew); a log
// axis whose decade labels would run together ("1000100000") labels every second or third decade
// (base 100, 1000); a legend below a wide chart that leaves its plot a few lines high, or with
// more entries than one row holds whole, moves to its right. Works on any page without knowing
// it, like Presentation.h.
class QObject;
class QWidget;

namespace presentation {

/// Watches every chart under root not yet watched (call again for charts made since). Returns
/// how many it took on.
int fitChartText(QWidget* root);
/// Every watched chart under root undoes what it changed and fits again (after a zoom change; a
/// chart's resize does it too).
void refitChartText(QWidget* root);
/// Whether a watched chart under root has a fitting round still to come (each takes 50 ms and
/// may ask for another: a picture should wait for them).
bool chartTextPending(QWidget* root);
/// The properties that say how much a text was made smaller: a chart's title, a legend, an
/// axis's labels (kShrink), an axis's title (kTitleShrink).
inline constexpr const char* kShrink = "faShrink";
inline constexpr const char* kTitleShrink = "faTitleShrink";
/// The share of its size a chart title, legend or axis's labels (key kShrink), or an axis's
/// title (kTitleShrink), was made smaller by (1: none), which scaleChartFonts keeps.
double shrinkOf(const QObject* owner, const char* key = kShrink);

} // namespace presentation
