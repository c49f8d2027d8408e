#pragma once
// Spin boxes as every parameter panel wants them: range, value, tooltip, and no signal per
// keystroke (valueChanged fires on Enter or focus-out), so a half-typed number never starts a run.
#include <QDoubleSpinBox>
#include <QSpinBox>

inline QSpinBox* intBox(int lo, int hi, int value, const QString& tip) {
    auto* b = new QSpinBox;
    b->setRange(lo, hi);
    b->setValue(value);
    b->setToolTip(tip);
    b->setKeyboardTracking(false);
    return b;
}

inline QDoubleSpinBox* realBox(double lo, double hi, double value, int decimals,
                               const QString& tip) {
    auto* b = new QDoubleSpinBox;
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setValue(value);
    b->setToolTip(tip);
    b->setKeyboardTracking(false);
    return b;
}
