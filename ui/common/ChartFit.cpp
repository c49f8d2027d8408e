#include "ui/common/ChartFit.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QTextDocument>
#include <QTimer>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLogValueAxis>
#include <algorithm>
#include <cmath>
#include <optional>

namespace presentation {
namespace {

constexpr const char* kName = "faChartFitter";
constexpr double kSmallest = 0.6; ///< text is made no smaller than this share of its size

/// Text as one line, whatever its breaks: "<br>" in a title reads as a line separator.
QString oneLine(QString text) {
    text.replace(QChar::LineSeparator, ' ').replace(QChar::ParagraphSeparator, ' ');
    return text.replace('\n', ' ').simplified();
}
QString plain(const QString& maybeHtml) {
    QTextDocument doc;
    doc.setHtml(maybeHtml);
    return oneLine(doc.toPlainText());
}
/// What an elided text kept ("online ..." → "online", "…" → ""); nothing when it is whole.
std::optional<QString> keptOf(const QString& text) {
    QString t = oneLine(text);
    if (t.endsWith(QChar(0x2026)))
        t.chop(1);
    else if (t.endsWith("..."))
        t.chop(3);
    else
        return std::nullopt;
    return t.trimmed();
}

/// One chart's watcher: after each layout, text that Qt cut to "…" is hidden (an axis title) or
/// made smaller (a chart title, a legend, category labels); a crowded log axis is thinned and a
/// legend below a flat plot moved to its right.
class ChartFitter : public QObject {
  public:
    explicit ChartFitter(QChartView* view) : QObject(view), m_view(view) {
        setObjectName(kName);
        view->installEventFilter(this);
        connect(view->chart(), &QChart::plotAreaChanged, this, [this] { schedule(0); });
        schedule(0);
    }
    /// Whether a fitting round is still to come (a picture taken now may show text it cuts).
    bool pending() const { return m_pending; }
    /// Everything this watcher changed, undone; then fitted again.
    void tryAgain() {
        QChart* chart = m_view->chart();
        QLegend* legend = chart->legend();
        if (legend->property("faLegendAlignment").isValid())
            legend->setAlignment(Qt::Alignment(legend->property("faLegendAlignment").toInt()));
        legend->setProperty("faLegendStays", false);
        m_rounds = 0;
        unshrink(
            chart, [chart] { return chart->titleFont(); },
            [chart](const QFont& f) { chart->setTitleFont(f); });
        unshrink(
            legend, [legend] { return legend->font(); },
            [legend](const QFont& f) { legend->setFont(f); });
        for (QAbstractAxis* axis : chart->axes()) {
            if (axis->property("faTitleHidden").toBool()) {
                axis->setProperty("faTitleHidden", false);
                axis->setTitleVisible(true);
            }
            unshrink(
                axis, [axis] { return axis->labelsFont(); },
                [axis](const QFont& f) { axis->setLabelsFont(f); });
            unshrink(
                axis, [axis] { return axis->titleFont(); },
                [axis](const QFont& f) { axis->setTitleFont(f); }, kTitleShrink);
        }
        schedule(0);
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == m_view && event->type() == QEvent::Resize)
            tryAgain();
        return false;
    }

  private:
    void schedule(int ms) {
        if (m_pending)
            return;
        m_pending = true;
        QTimer::singleShot(ms, this, [this] {
            m_pending = false;
            watchLabels();
            fitLogAxes();
            const bool legendChanged = fitLegend();
            // Again after the layout the change asks for; each remedy has a floor, and a bound
            // on the rounds keeps two of them from taking turns for ever.
            if ((mendCutText() || legendChanged) && ++m_rounds < 40)
                schedule(50);
        });
    }

    /// A legend entry whose text changes ("SWAG (off the plot)" back to "SWAG") makes the
    /// chart fit again from its own sizes: a legend made smaller for a long label would stay
    /// small after it, until the chart's next resize.
    void watchLabels() {
        for (QLegendMarker* marker : m_view->chart()->legend()->markers())
            connect(marker, &QLegendMarker::labelChanged, this, &ChartFitter::tryAgain,
                    Qt::UniqueConnection);
    }

    template <class Get, class Set>
    static bool shrink(QObject* owner, Get get, Set set, const char* key = kShrink) {
        const double factor = shrinkOf(owner, key);
        if (factor <= kSmallest + 1e-9)
            return false;
        const double next = std::max(kSmallest, factor * 0.9);
        QFont font = get();
        if (font.pointSizeF() <= 0)
            return false;
        font.setPointSizeF(font.pointSizeF() * next / factor);
        owner->setProperty(key, next);
        set(font);
        return true;
    }
    template <class Get, class Set>
    static void unshrink(QObject* owner, Get get, Set set, const char* key = kShrink) {
        const double factor = owner->property(key).toDouble();
        if (!(factor > 0.0) || factor == 1.0)
            return;
        QFont font = get();
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() / factor);
        owner->setProperty(key, 1.0);
        set(font);
    }

    /// Each text Qt cut: whose it is, and the remedy. True when something changed.
    bool mendCutText() {
        QChart* chart = m_view->chart();
        QLegend* legend = chart->legend();
        bool changed = false, titleDone = false, legendDone = false;
        for (QGraphicsItem* item : m_view->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (!text || !text->isVisible())
                continue;
            const std::optional<QString> cut = keptOf(text->toPlainText());
            if (!cut)
                continue;
            const QString& kept = *cut;
            // A vertical axis's title is turned a quarter.
            const bool turned = std::abs(std::fmod(std::abs(text->rotation()), 180.0)) > 45.0;
            bool mended = false;
            for (QAbstractAxis* axis : chart->axes())
                if (!mended && axis->isTitleVisible() && !axis->titleText().isEmpty() &&
                    (axis->orientation() == Qt::Vertical) == turned &&
                    plain(axis->titleText()).startsWith(kept)) {
                    mended = changed = true;
                    if (shrink(
                            axis, [axis] { return axis->titleFont(); },
                            [axis](const QFont& f) { axis->setTitleFont(f); }, kTitleShrink))
                        continue;
                    axis->setProperty("faTitleHidden", true); // cut even at 60 %
                    axis->setTitleVisible(false);
                }
            if (mended)
                continue;
            if (!titleDone && plain(chart->title()).startsWith(kept)) {
                titleDone = true;
                changed |= shrink(
                    chart, [chart] { return chart->titleFont(); },
                    [chart](const QFont& f) { chart->setTitleFont(f); });
                continue;
            }
            for (QLegendMarker* marker : legend->markers())
                if (!legendDone && oneLine(marker->label()).startsWith(kept)) {
                    legendDone = true;
                    changed |= shrink(
                        legend, [legend] { return legend->font(); },
                        [legend](const QFont& f) { legend->setFont(f); });
                }
            for (QAbstractAxis* a : chart->axes())
                if (auto* axis = qobject_cast<QBarCategoryAxis*>(a))
                    for (const QString& label : axis->categories())
                        if (oneLine(label).startsWith(kept)) {
                            changed |= shrink(
                                axis, [axis] { return axis->labelsFont(); },
                                [axis](const QFont& f) { axis->setLabelsFont(f); });
                            break;
                        }
        }
        return changed;
    }

    /// A legend below a wide chart whose plot is left only a few lines high goes to its right
    /// when its entries fit there one under another; one at the right whose column is taller
    /// than the chart is made smaller, or goes below when even 60 % does not fit (Qt clips it).
    /// True when something changed.
    bool fitLegend() {
        QChart* chart = m_view->chart();
        QLegend* legend = chart->legend();
        if (!legend->isVisible() || chart->axes().isEmpty())
            return false;
        if (!legend->property("faLegendAlignment").isValid())
            legend->setProperty("faLegendAlignment", int(legend->alignment()));
        const double line = QFontMetricsF(chart->axes().first()->labelsFont()).height();
        int entries = 0;
        for (QLegendMarker* marker : legend->markers())
            entries += marker->isVisible();
        const auto column = [&] { return 1.3 * entries * QFontMetricsF(legend->font()).height(); };
        // The entries side by side: each text, its marker and the gap Qt leaves.
        const auto row = [&] {
            const QFontMetricsF fm(legend->font());
            double width = 0.0;
            for (QLegendMarker* marker : legend->markers())
                if (marker->isVisible())
                    width += fm.horizontalAdvance(marker->label()) + 2.0 * fm.height();
            return width;
        };
        const bool below =
            legend->alignment() == Qt::AlignBottom && !legend->property("faLegendStays").toBool();
        if (below &&
            ((m_view->width() >= 1.5 * m_view->height() &&
              chart->plotArea().height() < 4.0 * line && column() < 0.7 * m_view->height()) ||
             // more entries than one row holds (ten picture classes): Qt would cut
             // each to "T-shi…"; one under another at the right they stay whole
             (row() > m_view->width() && column() < 0.85 * m_view->height()))) {
            legend->setAlignment(Qt::AlignRight);
            return true;
        }
        // An entry's text reaching below the legend's box: Qt clips it there.
        bool clipped = false;
        const double bottom = legend->sceneBoundingRect().bottom() + 1.0;
        for (QGraphicsItem* item : m_view->scene()->items())
            if (dynamic_cast<QGraphicsTextItem*>(item) && item->isVisible() &&
                legend->isAncestorOf(item) && item->sceneBoundingRect().bottom() > bottom)
                clipped = true;
        if (legend->alignment() == Qt::AlignRight && clipped) {
            if (shrink(
                    legend, [legend] { return legend->font(); },
                    [legend](const QFont& f) { legend->setFont(f); }))
                return true;
            legend->setAlignment(Qt::AlignBottom);
            legend->setProperty("faLegendStays", true); // not back to the right: no ping-pong
            return true;
        }
        return false;
    }

    /// A horizontal log axis labels every k-th decade (base 10^k), k as its labels' width needs.
    void fitLogAxes() {
        QChart* chart = m_view->chart();
        for (QAbstractAxis* a : chart->axes()) {
            auto* axis = qobject_cast<QLogValueAxis*>(a);
            // Vertical labels Qt thins itself (one line each, overlapping ones left out).
            if (!axis || axis->orientation() != Qt::Horizontal || !(axis->min() > 0.0) ||
                !(axis->max() > axis->min()))
                continue;
            if (!axis->property("faMinorTicks").isValid())
                axis->setProperty("faMinorTicks", axis->minorTickCount());
            const double pixels = chart->plotArea().width();
            const double decades = std::log10(axis->max() / axis->min());
            if (!(pixels > 0.0) || !(decades > 0.0))
                continue;
            // The widest label ("100000", "1e+06") and a gap.
            const QFontMetricsF fm(axis->labelsFont());
            const double room = fm.horizontalAdvance("100000") + fm.height();
            const int every =
                std::clamp(int(std::ceil(room / (pixels / std::ceil(decades)))), 1, 4);
            const double base = std::pow(10.0, every);
            if (axis->base() != base) {
                axis->setBase(base);
                axis->setMinorTickCount(every == 1 ? axis->property("faMinorTicks").toInt() : 0);
            }
        }
    }

    QChartView* m_view;
    bool m_pending = false;
    int m_rounds = 0; ///< remedies since the chart last grew or the zoom changed
};

} // namespace

double shrinkOf(const QObject* owner, const char* key) {
    const QVariant v = owner->property(key);
    return v.isValid() && v.toDouble() > 0.0 ? v.toDouble() : 1.0;
}

int fitChartText(QWidget* root) {
    int taken = 0;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (!view->chart() || view->findChild<QObject*>(kName, Qt::FindDirectChildrenOnly))
            continue;
        new ChartFitter(view);
        ++taken;
    }
    return taken;
}

bool chartTextPending(QWidget* root) {
    for (QChartView* view : root->findChildren<QChartView*>())
        if (QObject* fitter = view->findChild<QObject*>(kName, Qt::FindDirectChildrenOnly))
            if (static_cast<ChartFitter*>(fitter)->pending())
                return true;
    return false;
}

void refitChartText(QWidget* root) {
    for (QChartView* view : root->findChildren<QChartView*>())
        if (QObject* fitter = view->findChild<QObject*>(kName, Qt::FindDirectChildrenOnly))
            static_cast<ChartFitter*>(fitter)->tryAgain();
}

} // namespace presentation
