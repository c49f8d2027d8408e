#pragma once
// One name and colour per method across every view, read from the method registry
// (core/lab/Methods.h). Unknown names are shown as they are, in black. A lab that reuses another
// lab's id ("em": online EM in the explorer, batch EM in the latent lab) passes its Lab.
#include "core/lab/Methods.h"
#include "ui/common/DarkTheme.h"
#include "ui/common/Presentation.h"

#include <QColor>
#include <QString>
#include <optional>
#include <string>

inline const fa::MethodInfo* methodInfo(const std::string& method, std::optional<fa::Lab> lab) {
    return lab ? fa::findMethod(method, *lab) : fa::findMethod(method);
}

inline QString displayName(const std::string& method, std::optional<fa::Lab> lab = {}) {
    const fa::MethodInfo* m = methodInfo(method, lab);
    return m ? QString::fromUtf8(m->label.data(), static_cast<qsizetype>(m->label.size()))
             : QString::fromStdString(method);
}

/// Short names for crowded chart legends (the posterior lab's five to seven entries).
inline QString legendName(const std::string& method, std::optional<fa::Lab> lab = {}) {
    const fa::MethodInfo* m = methodInfo(method, lab);
    return m ? QString::fromUtf8(m->shortLabel.data(), static_cast<qsizetype>(m->shortLabel.size()))
             : QString::fromStdString(method);
}

inline QString methodTip(const std::string& method, std::optional<fa::Lab> lab = {}) {
    const fa::MethodInfo* m = methodInfo(method, lab);
    return m ? QString::fromUtf8(m->tip.data(), static_cast<qsizetype>(m->tip.size())) : QString();
}

/// View → Colour-blind-safe palette: the methods' colours become Okabe and Ito's.
inline bool& colourBlindPalette() {
    static bool on = false;
    return on;
}

/// View → High-contrast dark theme: colours a page sets again on every frame (SeriesChart) go
/// through themed(); those set once are recoloured by presentation::applyDarkTheme.
inline bool& darkTheme() {
    static bool on = false;
    return on;
}
/// A colour as the theme in force draws it (presentation::onBlack in the dark theme).
inline QColor themed(const QColor& c) {
    return darkTheme() ? presentation::onBlack(c) : c;
}

inline QColor colourFor(const std::string& method, std::optional<fa::Lab> lab = {}) {
    const fa::MethodInfo* m = methodInfo(method, lab);
    const QColor c = m ? QColor::fromRgb(m->rgb) : QColor(20, 20, 20);
    return colourBlindPalette() ? presentation::toColourBlind(c) : c;
}
