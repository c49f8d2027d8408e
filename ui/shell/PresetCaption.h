#pragma once
// The caption of the preset in use, above the lab's page: which figure of the seeds it shows,
// what to watch and why it happens. Shown while its lab is in view; "Hide" (Esc) puts it away.
#include "ui/session/PresetFile.h"

#include <QFrame>

class QLabel;

class PresetCaption : public QFrame {
    Q_OBJECT
  public:
    explicit PresetCaption(QWidget* parent = nullptr);
    void setPreset(const fa::io::Preset& preset);
    const fa::io::Preset& preset() const { return m_preset; }
    /// Shows the caption when its preset's lab is the one in view (and it was not hidden).
    void followLab(const QString& lab);
    void dismiss();
    QString text() const; ///< the caption as shown (plain text), for tests

  private:
    fa::io::Preset m_preset;
    QLabel* m_label;
    bool m_dismissed = true;
};
