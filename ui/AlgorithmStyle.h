#pragma once
// One name and colour per model across every view (the thesis figures' palette).
#include <QColor>
#include <QString>
#include <string>

inline QString displayName(const std::string& algorithm) {
    if (algorithm == "em")
        return "online EM";
    if (algorithm == "sga")
        return "online SGA";
    if (algorithm == "batch")
        return "batch FA";
    return "true model";
}

inline QColor colourFor(const std::string& algorithm) {
    if (algorithm == "batch")
        return QColor(31, 119, 180);
    if (algorithm == "em")
        return QColor(255, 127, 14);
    if (algorithm == "sga")
        return QColor(44, 160, 44);
    return QColor(20, 20, 20);
}
