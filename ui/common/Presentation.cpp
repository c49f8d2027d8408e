#include "ui/common/Presentation.h"

#include "ui/common/AxisTicks.h"
#include "ui/common/ChartFit.h"

#include <QWidget>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>
#include <QtCharts/QXYSeries>
#include <array>
#include <utility>

namespace presentation {
namespace {
// tab10 (the registry's colours) beside Okabe and Ito's palette, matched by role: the blue,
// orange, green, red, purple, olive and cyan of the methods; brown and pink, beyond their eight,
// become grey and Tol's wine.
constexpr std::array<std::pair<QRgb, QRgb>, 9> kPairs{{{0x1f77b4, 0x0072b2},
                                                       {0xff7f0e, 0xe69f00},
                                                       {0x2ca02c, 0x009e73},
                                                       {0xd62728, 0xd55e00},
                                                       {0x9467bd, 0xcc79a7},
                                                       {0x8c564b, 0x999999},
                                                       {0xe377c2, 0x882255},
                                                       {0xbcbd22, 0xf0e442},
                                                       {0x17becf, 0x56b4e9}}};

QColor mapped(const QColor& c, bool forward) {
    const QRgb rgb = c.rgb() & 0xffffff;
    for (const auto& [tab, safe] : kPairs)
        if (rgb == (forward ? tab : safe)) {
            QColor out = QColor::fromRgb(forward ? safe : tab);
            out.setAlpha(c.alpha());
            return out;
        }
    return c;
}

template <class Get, class Set>
int scaleFont(QObject* owner, const char* key, double scale, Get get, Set set,
              const char* shrinkKey = kShrink) {
    scale *= shrinkOf(owner, shrinkKey); // what ChartFit made smaller to stay whole stays so
    QVariant base = owner->property(key);
    if (!base.isValid()) {
        owner->setProperty(key, get());
        base = owner->property(key);
    }
    QFont font = base.value<QFont>();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * scale);
    else if (font.pixelSize() > 0)
        font.setPixelSize(qRound(font.pixelSize() * scale));
    if (get() == font)
        return 0;
    set(font);
    return 1;
}
} // namespace

QColor toColourBlind(const QColor& c) {
    return mapped(c, true);
}
QColor fromColourBlind(const QColor& c) {
    return mapped(c, false);
}

int scaleChartFonts(QWidget* root, double scale) {
    int changed = 0;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        QChart* chart = view->chart();
        if (!chart)
            continue;
        changed += scaleFont(
            chart, "faBaseTitleFont", scale, [chart] { return chart->titleFont(); },
            [chart](const QFont& f) { chart->setTitleFont(f); });
        QLegend* legend = chart->legend();
        changed += scaleFont(
            legend, "faBaseFont", scale, [legend] { return legend->font(); },
            [legend](const QFont& f) { legend->setFont(f); });
        for (QAbstractAxis* axis : chart->axes()) {
            // A label that does not fit overlaps a little rather than reading "…": the ticks
            // are thinned to the labels' size (roundAllTicks), so it seldom has to.
            axis->setTruncateLabels(false);
            changed += scaleFont(
                axis, "faBaseLabelsFont", scale, [axis] { return axis->labelsFont(); },
                [axis](const QFont& f) { axis->setLabelsFont(f); });
            changed += scaleFont(
                axis, "faBaseTitleFont", scale, [axis] { return axis->titleFont(); },
                [axis](const QFont& f) { axis->setTitleFont(f); }, kTitleShrink);
        }
    }
    return changed;
}

/// A series' pen and brush (QXYSeries and QAreaSeries have both, from no common base) with
/// their colours through swap.
template <class Series, class Swap> void recolour(Series* series, const Swap& swap) {
    QPen pen = series->pen();
    pen.setColor(swap(pen.color()));
    series->setPen(pen);
    QBrush brush = series->brush();
    brush.setColor(swap(brush.color()));
    series->setBrush(brush);
}

int recolourSeries(QWidget* root, bool colourBlind) {
    int changed = 0;
    const auto swap = [&](const QColor& c) {
        const QColor out = mapped(c, colourBlind);
        changed += out != c;
        return out;
    };
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (!view->chart())
            continue;
        for (QAbstractSeries* series : view->chart()->series()) {
            if (auto* xy = qobject_cast<QXYSeries*>(series))
                recolour(xy, swap);
            else if (auto* area = qobject_cast<QAreaSeries*>(series))
                recolour(area, swap);
        }
    }
    return changed;
}

int roundAllTicks(QWidget* root) {
    int taken = 0;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        QChart* chart = view->chart();
        if (!chart)
            continue;
        for (QAbstractAxis* a : chart->axes()) {
            a->setTruncateLabels(false); // never "…": the ticks below are thinned to fit
            auto* axis = qobject_cast<QValueAxis*>(a);
            if (!axis || axis->property("faRoundTicks").toBool() ||
                axis->tickType() == QValueAxis::TicksDynamic)
                continue;
            axis->setProperty("faRoundTicks", true);
            const auto intervals = [axis, chart] {
                const bool horizontal = axis->orientation() == Qt::Horizontal;
                const double pixels =
                    horizontal ? chart->plotArea().width() : chart->plotArea().height();
                // One label per label's room in its (zoomed) font, at least the 70 / 40 px of
                // 100 %; visibleStep still shows two labelled ticks.
                const double room = labelRoom(axis, horizontal ? 70.0 : 40.0);
                return std::clamp(std::floor(std::max(pixels, 120.0) / room), 1.0, 6.0);
            };
            guardTicks(axis, intervals);
            setTickStep(axis, visibleStep(axis->min(), axis->max(), intervals()));
            axis->setTickType(QValueAxis::TicksDynamic);
            ++taken;
        }
    }
    return taken;
}

} // namespace presentation
