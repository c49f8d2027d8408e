#pragma once
// The posterior lab's log-scale sliders: position p in [lo, hi] is 10^(p / 100).
#include <QSlider>
#include <QString>
#include <algorithm>
#include <cmath>

namespace logslider {

constexpr int kLambdaLo = -400, kLambdaHi = 400; // 1e-4 .. 1e4
inline double fromSlider(int p) {
    return std::pow(10.0, p / 100.0);
}
/// The position nearest v > 0 (the SGD rate's slider spans its schema's range this way).
inline int sliderPosition(double v) {
    return static_cast<int>(std::lround(100.0 * std::log10(std::max(v, 1e-300))));
}
inline int toSlider(double v, int lo, int hi) {
    return std::clamp(sliderPosition(v), lo, hi);
}
inline QSlider* logSlider(int lo, int hi, const QString& tip) {
    auto* s = new QSlider(Qt::Horizontal);
    s->setRange(lo, hi);
    s->setSingleStep(10);
    s->setPageStep(100);
    s->setToolTip(tip);
    return s;
}

} // namespace logslider
