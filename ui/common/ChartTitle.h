#pragma once
// Chart titles that stay whole in a narrow view (a projector's 1280 x 800 window): Qt Charts
// elides a title wider than its chart ("Covariance: ‖Ŝ − S‖_F / ‖S…"); fitTitle breaks it into
// two centred lines instead, at a ", ", then ": ", then " (" (the first kind that fits).
#include <QFontMetricsF>
#include <QtCharts/QChart>
#include <algorithm>

inline QString fittedTitle(const QString& title, const QFont& font, double width) {
    const QFontMetricsF fm(font);
    if (fm.horizontalAdvance(title) <= width)
        return title;
    struct Split {
        QString first, second;
        double widest = 1e300;
    } best;
    for (const QString& separator : {QString(", "), QString(": "), QString(" (")}) {
        const bool keepsPunctuation = separator != " ("; // "x," / "y" but "x" / "(y)"
        for (qsizetype at = title.indexOf(separator); at >= 0;
             at = title.indexOf(separator, at + 1)) {
            const QString first = title.left(keepsPunctuation ? at + 1 : at);
            const QString second = title.mid(at + (keepsPunctuation ? 2 : 1));
            const double widest =
                std::max(fm.horizontalAdvance(first), fm.horizontalAdvance(second));
            if (widest < best.widest)
                best = {first, second, widest};
        }
        if (best.widest <= width)
            break;
    }
    if (best.first.isEmpty())
        return title;
    return QString("<p align=\"center\">%1<br>%2</p>")
        .arg(best.first.toHtmlEscaped(), best.second.toHtmlEscaped());
}

/// Sets the chart's title, in two lines when one does not fit the view's width.
inline void fitTitle(QChart* chart, const QString& title, double viewWidth) {
    const QMargins m = chart->margins();
    const QString fitted =
        fittedTitle(title, chart->titleFont(), viewWidth - m.left() - m.right() - 16);
    if (chart->title() != fitted)
        chart->setTitle(fitted);
}
