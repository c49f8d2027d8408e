#include "ui/shell/RecordDialog.h"

#include "ui/common/LabPage.h"
#include "ui/common/RunRecorder.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSpinBox>
#include <algorithm>

RecordDialog::RecordDialog(LabPage* page, bool logarithmic, QWidget* parent)
    : QDialog(parent), m_until(new QSpinBox), m_frames(new QSpinBox), m_width(new QComboBox) {
    setWindowTitle("Record the run as an animation");
    const fa::LabSnapshot* s = page->latestLabSnapshot().get();
    const long length = s ? s->length : 0, position = s ? s->position : 0;
    m_until->setRange(1, 1'000'000'000);
    m_until->setValue(static_cast<int>(
        std::min<long>(length > 0 ? length : std::max<long>(position, 1000), 1'000'000'000)));
    m_until->setToolTip("The run starts again from its parameters and seeds and the last frame "
                        "is taken here (samples or epochs)");
    m_frames->setRange(2, 2000);
    m_frames->setValue(60);
    m_frames->setToolTip(logarithmic ? "Frames, evenly spaced on the log axis of samples"
                                     : "Frames, evenly spaced in epochs");
    for (const int w : {0, 960, 1280, 1920})
        m_width->addItem(w == 0 ? QString("as on screen") : QString("%1 px").arg(w), w);
    m_width->setCurrentIndex(1);
    m_width->setToolTip("Width of the frames; the page is painted again at that size");
    auto* form = new QFormLayout(this);
    form->addRow("last frame at", m_until);
    form->addRow("frames", m_frames);
    form->addRow("width", m_width);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

long RecordDialog::until() const {
    return m_until->value();
}
int RecordDialog::frames() const {
    return m_frames->value();
}
int RecordDialog::width() const {
    return m_width->currentData().toInt();
}

QString RecordDialog::recordInteractively(LabPage* page, RecordOptions options, QWidget* parent) {
    const bool logarithmic = options.logarithmic;
    if (!page->latestLabSnapshot()) {
        QMessageBox::warning(parent, "Record", "There is no run to record.");
        return {};
    }
    RecordDialog dialog(page, logarithmic, parent);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    const QString path = QFileDialog::getSaveFileName(
        parent, "Record the run", page->objectName() + "-run.gif", "Animated GIF (*.gif)");
    if (path.isEmpty())
        return {};
    options.path = path;
    options.frames = dialog.frames();
    options.until = dialog.until();
    options.width = dialog.width();
    RunRecorder recorder(page, options);
    QProgressDialog progress("Recording…", "Stop", 0, static_cast<int>(recorder.positions().size()),
                             parent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    QEventLoop loop;
    bool ok = false;
    QString message;
    QObject::connect(&recorder, &RunRecorder::progress, &progress, &QProgressDialog::setValue);
    QObject::connect(&progress, &QProgressDialog::canceled, &recorder, &RunRecorder::cancel);
    QObject::connect(&recorder, &RunRecorder::finished, &loop, [&](bool done, const QString& why) {
        ok = done;
        message = why;
        loop.quit();
    });
    recorder.start();
    if (message.isEmpty())
        loop.exec();
    progress.reset();
    if (!ok)
        QMessageBox::warning(parent, "Record", "The recording did not finish: " + message);
    return message;
}
