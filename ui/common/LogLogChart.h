#pragma once
// The shared frame of the error charts: a chart with log-log axes over samples seen.
#include "ui/common/ChartFrame.h"

#include <QtCharts/QChart>
#include <QtCharts/QLogValueAxis>

inline QChart* makeLogLogChart(const QString& title, const QString& yLabel, QLogValueAxis* x,
                               QLogValueAxis* y) {
    for (QLogValueAxis* a : {x, y}) {
        a->setBase(10);
        a->setMinorTickCount(8);
    }
    x->setRange(1, 1e5);
    y->setRange(1e-2, 1);
    // "%g": the default prints 0.01 as "0.0"
    auto* c = framedChart(title, x, {"samples seen T", "%g"}, y, {yLabel, "%g"});
    c->legend()->setAlignment(Qt::AlignBottom);
    return c;
}
