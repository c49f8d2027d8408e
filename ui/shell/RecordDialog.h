#pragma once
// File → Record the run as an animation: asks where the recording ends, how many frames and how
// wide, then a file name, and records with a progress dialog (cancel keeps the frames so far).
#include "ui/common/RunRecorder.h"

#include <QDialog>

class LabPage;
class QComboBox;
class QSpinBox;

class RecordDialog : public QDialog {
    Q_OBJECT
  public:
    RecordDialog(LabPage* page, bool logarithmic, QWidget* parent = nullptr);
    long until() const;
    int frames() const;
    int width() const; ///< 0: as on screen
    /// Asks, records, reports; returns the message shown (empty when the dialog was cancelled).
    static QString recordInteractively(LabPage* page, RecordOptions options, QWidget* parent);

  private:
    QSpinBox *m_until, *m_frames;
    QComboBox* m_width;
};
