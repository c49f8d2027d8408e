#pragma once
// The shared frame of the error charts: a chart with log-log axes over samples seen.
#include <QtCharts/QChart>
#include <QtCharts/QLogValueAxis>

inline QChart* makeLogLogChart(const QString& title, const QString& yLabel, QLogValueAxis* x,
                               QLogValueAxis* y) {
    auto* c = new QChart;
    c->setTitle(title);
    c->legend()->setAlignment(Qt::AlignBottom);
    x->setTitleText("samples seen T");
    y->setTitleText(yLabel);
    for (QLogValueAxis* a : {x, y}) {
        a->setLabelFormat("%g"); // the default prints 0.01 as "0.0"
        a->setBase(10);
        a->setMinorTickCount(8);
    }
    x->setRange(1, 1e5);
    y->setRange(1e-2, 1);
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    return c;
}
