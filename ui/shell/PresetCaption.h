#pragma once
// The caption of the preset in use, above the lab's page: which figure of the seeds it shows,
// what to watch and why it happens. Shown while its lab is in view; "Hide" (Esc) puts it away.
#include "ui/session/PresetFile.h"

#include <QFrame>

class QLabel;
class QScrollArea;

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
    /// At most this many pixels of text (0: all of it); more scrolls. A projector's 200 % keeps
    /// the caption's size and the page still fits 1280 x 800.
    void setMaxTextHeight(int pixels);
    QScrollArea* textArea() const { return m_scroll; }

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void fitHeight();
    fa::io::Preset m_preset;
    QLabel* m_label;
    QScrollArea* m_scroll;
    int m_maxTextHeight = 0;
    bool m_dismissed = true;
};
