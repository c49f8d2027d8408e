#include "ui/common/DarkTheme.h"

#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPalette>
#include <QWidget>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QXYSeries>
#include <algorithm>
#include <cmath>
#include <functional>

namespace presentation {
namespace {

double luminance(const QColor& c) {
    const auto channel = [](double v) {
        v /= 255.0;
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

const QColor kBlack(0, 0, 0), kText(240, 240, 240), kGrid(75, 75, 75), kMinorGrid(45, 45, 45),
    kLine(170, 170, 170), kFrame(90, 90, 90);

/// One colour a theme switch changes, on an object that keeps what it was: `key` names the
/// pair (the colour set, the colour it replaced). On: a colour not set by us is new (the page
/// set it) and is mapped; off: ours is put back, a newer one left alone.
template <class Store>
int swapColour(Store& store, const QString& key, const QColor& now, bool on,
               const std::function<QColor(const QColor&)>& map,
               const std::function<void(const QColor&)>& set) {
    const QVariant ours = store.get(key + "Set"), was = store.get(key + "Was");
    const bool mine = ours.isValid() && ours.value<QColor>() == now;
    if (on) {
        if (mine)
            return 0;
        const QColor mapped = map(now);
        store.put(key + "Set", mapped);
        store.put(key + "Was", now);
        if (mapped == now)
            return 0;
        set(mapped);
        return 1;
    }
    store.put(key + "Set", QVariant());
    store.put(key + "Was", QVariant());
    if (!mine || !was.isValid() || was.value<QColor>() == now)
        return 0;
    set(was.value<QColor>());
    return 1;
}

struct ObjectStore {
    QObject* o;
    QVariant get(const QString& k) const { return o->property(("fa" + k).toUtf8()); }
    void put(const QString& k, const QVariant& v) { o->setProperty(("fa" + k).toUtf8(), v); }
};
struct ItemStore { // QGraphicsItem::data, keys by hash
    QGraphicsItem* i;
    QVariant get(const QString& k) const { return i->data(int(qHash(k) & 0x7fffffff)); }
    void put(const QString& k, const QVariant& v) { i->setData(int(qHash(k) & 0x7fffffff), v); }
};

int themeChart(QChart* chart, bool on) {
    ObjectStore c{chart};
    int n = 0;
    // The theme's chrome (backgrounds, text, grid): one colour each; what it was comes back.
    const auto chrome = [&](ObjectStore& s, const QString& key, const QColor& now,
                            const QColor& dark, const std::function<void(const QColor&)>& set) {
        n += swapColour(
            s, key, now, on, [dark](const QColor&) { return dark; }, set);
    };
    // The background: the light theme's is a gradient (no one colour), kept whole to come back.
    const QBrush black(kBlack);
    if (on && chart->backgroundBrush() != black) {
        chart->setProperty("faBackgroundWas", chart->backgroundBrush());
        chart->setBackgroundBrush(black);
        ++n;
    } else if (!on && chart->backgroundBrush() == black &&
               chart->property("faBackgroundWas").isValid()) {
        chart->setBackgroundBrush(chart->property("faBackgroundWas").value<QBrush>());
        chart->setProperty("faBackgroundWas", QVariant());
        ++n;
    }
    chrome(c, "Frame", chart->backgroundPen().color(), kFrame, [chart](const QColor& v) {
        QPen p = chart->backgroundPen();
        p.setColor(v);
        chart->setBackgroundPen(p);
    });
    chrome(c, "Title", chart->titleBrush().color(), kText,
           [chart](const QColor& v) { chart->setTitleBrush(QBrush(v)); });
    ObjectStore l{chart->legend()};
    chrome(l, "Label", chart->legend()->labelColor(), kText,
           [chart](const QColor& v) { chart->legend()->setLabelColor(v); });
    for (QAbstractAxis* axis : chart->axes()) {
        ObjectStore a{axis};
        chrome(a, "Labels", axis->labelsColor(), kText,
               [axis](const QColor& v) { axis->setLabelsColor(v); });
        chrome(a, "AxisTitle", axis->titleBrush().color(), kText,
               [axis](const QColor& v) { axis->setTitleBrush(QBrush(v)); });
        chrome(a, "Grid", axis->gridLineColor(), kGrid,
               [axis](const QColor& v) { axis->setGridLineColor(v); });
        chrome(a, "MinorGrid", axis->minorGridLineColor(), kMinorGrid,
               [axis](const QColor& v) { axis->setMinorGridLineColor(v); });
        chrome(a, "Line", axis->linePenColor(), kLine,
               [axis](const QColor& v) { axis->setLinePenColor(v); });
    }
    // Series: the method colours stay, black and near-black ones turn light.
    for (QAbstractSeries* series : chart->series()) {
        ObjectStore s{series};
        if (auto* xy = qobject_cast<QXYSeries*>(series)) {
            n += swapColour(s, "Pen", xy->pen().color(), on, onBlack, [xy](const QColor& v) {
                QPen p = xy->pen();
                p.setColor(v);
                xy->setPen(p);
            });
            n += swapColour(s, "Brush", xy->brush().color(), on, onBlack, [xy](const QColor& v) {
                QBrush b = xy->brush();
                b.setColor(v);
                xy->setBrush(b);
            });
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            n += swapColour(s, "Pen", area->pen().color(), on, onBlack, [area](const QColor& v) {
                QPen p = area->pen();
                p.setColor(v);
                area->setPen(p);
            });
        } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
            for (QBarSet* set : bars->barSets()) {
                ObjectStore b{set};
                n += swapColour(b, "Bar", set->color(), on, onBlack,
                                [set](const QColor& v) { set->setColor(v); });
            }
        }
    }
    return n;
}

/// Marks a page drew into a chart's scene (a live change's line and label).
int themeScene(QGraphicsScene* scene, bool on) {
    int n = 0;
    for (QGraphicsItem* item : scene->items()) {
        ItemStore s{item};
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item))
            n += swapColour(s, "Text", text->brush().color(), on, onBlack,
                            [text](const QColor& v) { text->setBrush(v); });
        else if (auto* line = dynamic_cast<QGraphicsLineItem*>(item))
            n += swapColour(s, "Line", line->pen().color(), on, onBlack, [line](const QColor& v) {
                QPen p = line->pen();
                p.setColor(v);
                line->setPen(p);
            });
    }
    return n;
}

} // namespace

QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(10, 10, 10));
    p.setColor(QPalette::WindowText, kText);
    p.setColor(QPalette::Base, kBlack);
    p.setColor(QPalette::AlternateBase, QColor(28, 28, 28));
    p.setColor(QPalette::Text, kText);
    p.setColor(QPalette::Button, QColor(38, 38, 38));
    p.setColor(QPalette::ButtonText, kText);
    p.setColor(QPalette::BrightText, QColor(255, 210, 80));
    p.setColor(QPalette::Highlight, QColor(255, 200, 40));
    p.setColor(QPalette::HighlightedText, kBlack);
    p.setColor(QPalette::ToolTipBase, QColor(45, 40, 0)); // a preset's caption: dark amber
    p.setColor(QPalette::ToolTipText, QColor(255, 255, 255));
    p.setColor(QPalette::PlaceholderText, QColor(170, 170, 170));
    p.setColor(QPalette::Link, QColor(120, 190, 255));
    p.setColor(QPalette::Light, QColor(90, 90, 90));
    p.setColor(QPalette::Midlight, QColor(60, 60, 60));
    p.setColor(QPalette::Mid, QColor(45, 45, 45));
    p.setColor(QPalette::Dark, QColor(20, 20, 20));
    p.setColor(QPalette::Shadow, kBlack);
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(130, 130, 130));
    return p;
}

QColor onBlack(const QColor& c) {
    // Seen on black at 3 : 1 or more (WCAG's figure for graphics): luminance 0.10.
    if (luminance(c) >= 0.10)
        return c;
    const bool grey =
        std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) < 24;
    int lightness = grey ? std::max(255 - c.lightness(), 150) : std::max(c.lightness(), 150);
    QColor out = QColor::fromHsl(c.hslHue(), c.hslSaturation(), lightness).toRgb();
    while (luminance(out) < 0.10 && lightness < 255) {
        lightness = std::min(255, lightness + 10);
        out = QColor::fromHsl(c.hslHue(), c.hslSaturation(), lightness).toRgb();
    }
    out.setAlpha(c.alpha());
    return out;
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

int applyDarkTheme(QWidget* root, bool on) {
    int changed = 0;
    for (QChartView* view : root->findChildren<QChartView*>())
        if (view->chart()) {
            changed += themeChart(view->chart(), on);
            if (view->scene())
                changed += themeScene(view->scene(), on);
        }
    return changed;
}

} // namespace presentation
