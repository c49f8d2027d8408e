#pragma once
// One name and colour per model across every view (the thesis figures' palette).
#include <QColor>
#include <QString>
#include <string>

inline QString displayName(const std::string& algorithm) {
    // The posterior lab's approximations (fa::methodName) and its reference.
    if (algorithm == "exact")
        return "exact posterior";
    if (algorithm == "vifa-gauss")
        return "VIFA, Gaussian prior";
    if (algorithm == "vifa-laplace")
        return "VIFA, Laplace prior";
    if (algorithm == "vippca")
        return "VIPPCA";
    if (algorithm == "sgd-em")
        return "SGD + online EM";
    if (algorithm == "sgd-sga")
        return "SGD + online SGA";
    if (algorithm == "swag")
        return "SWAG";
    if (algorithm == "em")
        return "online EM";
    if (algorithm == "sga")
        return "online SGA";
    if (algorithm == "batch")
        return "batch FA";
    return "true model";
}

/// Short names for crowded chart legends (the posterior lab's five to seven entries).
inline QString legendName(const std::string& algorithm) {
    if (algorithm == "exact")
        return "exact";
    if (algorithm == "vifa-gauss")
        return "VIFA-G";
    if (algorithm == "vifa-laplace")
        return "VIFA-L";
    if (algorithm == "sgd-em")
        return "SGD+EM";
    if (algorithm == "sgd-sga")
        return "SGD+SGA";
    return displayName(algorithm);
}

inline QColor colourFor(const std::string& algorithm) {
    if (algorithm == "vifa-gauss")
        return QColor(214, 39, 40);
    if (algorithm == "vifa-laplace")
        return QColor(148, 103, 189);
    if (algorithm == "vippca")
        return QColor(140, 86, 75);
    if (algorithm == "sgd-em")
        return QColor(255, 127, 14);
    if (algorithm == "sgd-sga")
        return QColor(44, 160, 44);
    if (algorithm == "swag")
        return QColor(23, 190, 207);
    if (algorithm == "batch")
        return QColor(31, 119, 180);
    if (algorithm == "em")
        return QColor(255, 127, 14);
    if (algorithm == "sga")
        return QColor(44, 160, 44);
    return QColor(20, 20, 20);
}
