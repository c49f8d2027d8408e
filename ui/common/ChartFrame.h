#pragma once
// The frame most charts share: a new chart with its x axis at the bottom and its y axis at the
// left, each titled and given its label format (a QValueAxis or a QLogValueAxis). What else an
// axis needs (range, base, ticks) is set before, as before adding it.
#include <QString>
#include <QtCharts/QChart>

struct AxisLabel {
    QString title;
    QString format; ///< printf-style, as QValueAxis::setLabelFormat: "%g", "%.0f"
};

template <class X, class Y>
QChart* framedChart(const QString& title, X* x, const AxisLabel& xLabel, Y* y,
                    const AxisLabel& yLabel) {
    auto* c = new QChart;
    if (!title.isEmpty())
        c->setTitle(title);
    x->setTitleText(xLabel.title);
    x->setLabelFormat(xLabel.format);
    y->setTitleText(yLabel.title);
    y->setLabelFormat(yLabel.format);
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    return c;
}
