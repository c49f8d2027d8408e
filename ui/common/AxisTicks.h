#pragma once
// Round axis ticks for narrow charts: QValueAxis's fixed five ticks give labels such as
// "253 506 758" that overlap and are elided ("-0.0…") when a chart is only 250 px wide (a
// projector's 1280 x 800 window). Ticks at multiples of 1, 2 or 5 times a power of ten, as many
// as the axis's length holds, keep the labels short and whole.
#include <QFontMetricsF>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <functional>

/// The smallest round step (1, 2 or 5 times a power of ten) that cuts span into at most
/// `intervals` pieces.
inline double roundStep(double span, double intervals) {
    if (!(span > 0.0) || !std::isfinite(span))
        return 1.0;
    intervals = std::max(intervals, 1.0);
    double step = std::pow(10.0, std::floor(std::log10(span / intervals)));
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (span / (step * m) <= intervals)
            return step * m;
    return step * 10.0;
}

/// roundStep, made smaller while fewer than two of its multiples fall in [lo, hi] (epochs
/// 0 .. 4900 in one interval would label only "0"): a second labelled tick always shows.
inline double visibleStep(double lo, double hi, double intervals) {
    const auto ticks = [&](double step) {
        return std::floor(hi / step + 1e-9) - std::ceil(lo / step - 1e-9) + 1;
    };
    double step = roundStep(hi - lo, intervals);
    for (double n = intervals + 1; ticks(step) < 2 && n <= 12; ++n)
        step = roundStep(hi - lo, n);
    return step;
}

/// Qt's dynamic ticks with a tick at zero that reads "0". Qt Charts
/// (ChartAxisElement::createValueLabels) takes the first tick as anchor − ⌊(anchor − min)/step⌋
/// · step and each next one as the previous plus step, so with step 0.01 from −0.03 the tick at
/// zero is a sum of rounded numbers and reads "3.47e-18". The anchor is put at the first tick and
/// it and the step are moved by a few units in the last place until those sums, done the same
/// way, reach an exact 0; the labels (at most seven digits) cannot show the move. Where the
/// range holds no zero: anchor 0 and the step as given.
struct TickGrid {
    double anchor = 0.0, step = 1.0;
};
inline TickGrid zeroTickGrid(double lo, double hi, double step) {
    if (!(lo < 0.0 && hi > 0.0 && step > 0.0) || (hi - lo) / step > 1000.0)
        return {0.0, step};
    const auto zeroIsExact = [&](double anchor, double by) {
        double value = anchor - std::floor((anchor - lo) / by) * by;
        for (; value <= hi; value += by)
            if (std::abs(value) < 0.5 * by)
                return value == 0.0;
        return false;
    };
    // Candidates by distance in units in the last place: x, x + 1, x − 1, x + 2, …
    const auto near = [](double x, int i) {
        for (int k = 0; k < (i + 1) / 2; ++k)
            x = std::nextafter(x, i % 2 ? HUGE_VAL : -HUGE_VAL);
        return x;
    };
    const double first = std::ceil(lo / step) * step;
    for (int i = 0; i <= 64; ++i)
        for (int j = 0; j <= 64; ++j) {
            const double by = near(step, i), anchor = near(first, j);
            if (anchor >= lo && zeroIsExact(anchor, by))
                return {anchor, by};
        }
    return {0.0, step};
}

/// Sets a dynamic-tick axis's step for its present range, on zeroTickGrid's grid.
inline void setTickStep(QValueAxis* axis, double step) {
    const TickGrid grid = zeroTickGrid(axis->min(), axis->max(), step);
    axis->setTickAnchor(grid.anchor);
    axis->setTickInterval(grid.step);
}

/// Keeps a dynamic-tick axis's step matched to its range, whoever changes the range (a series
/// attached, a new run's data): Qt lays the axis out as soon as its min or max changes, and a
/// step left from a far narrower range would ask for billions of ticks (memory, a hang). The
/// step is renewed on minChanged and maxChanged, which Qt emits before that layout;
/// intervals() says how many pieces the axis holds now.
inline void guardTicks(QValueAxis* axis, std::function<double()> intervals) {
    const auto refit = [axis, intervals = std::move(intervals)] {
        if (axis->tickType() == QValueAxis::TicksDynamic)
            setTickStep(axis, visibleStep(axis->min(), axis->max(), intervals()));
    };
    QObject::connect(axis, &QValueAxis::minChanged, axis, refit);
    QObject::connect(axis, &QValueAxis::maxChanged, axis, refit);
}

/// The pixels one tick label needs along the axis in its font (zoomed on a projector): "-0.005"
/// across, or two lines up; at least `least` (the room at 100 %).
inline double labelRoom(const QValueAxis* axis, double least) {
    const QFontMetricsF fm(axis->labelsFont());
    return std::max(least, axis->orientation() == Qt::Vertical
                               ? 2.2 * fm.height()
                               : fm.horizontalAdvance("-0.005") + 24.0);
}

/// Sets the axis's range with round ticks, one label per labelPixels of its pixels at most (more
/// where the labels' font needs it).
inline void setRoundTicks(QValueAxis* axis, double lo, double hi, double pixels,
                          double labelPixels) {
    const double intervals =
        std::clamp(std::floor(pixels / labelRoom(axis, labelPixels)), 1.0, 6.0);
    if (!axis->property("faTickIntervals").isValid())
        guardTicks(axis, [axis] { return axis->property("faTickIntervals").toDouble(); });
    axis->setProperty("faTickIntervals", intervals);
    // The step always fits the range in force: first the present one, then the new one.
    setTickStep(axis, visibleStep(axis->min(), axis->max(), intervals));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setRange(lo, hi);
    setTickStep(axis, visibleStep(lo, hi, intervals));
}
