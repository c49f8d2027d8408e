#pragma once
// Records a lab's run as an animated GIF: the run starts again from its parameters and seeds,
// and a frame is taken at each of a fixed list of positions (samples or epochs), once the run
// stands exactly there and its background work for that position (the explorer's batch refits)
// is in. So the same session gives the same frames, however fast the machine.
#include "ui/common/GifWriter.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <vector>

class LabPage;

struct RecordOptions {
    QString path;             ///< the .gif to write
    int frames = 60;          ///< frames in the animation (the last at `until`)
    long until = 0;           ///< the position of the last frame
    int width = 0;            ///< frame width in pixels; 0: the page as on screen
    int delayMs = 100;        ///< per frame
    bool logarithmic = false; ///< positions evenly spaced in log (the explorer's axes)
    /// Painted above every frame when shown (a preset's caption: what the class should watch).
    QPointer<QWidget> header;
};

class RunRecorder : public QObject {
    Q_OBJECT
  public:
    RunRecorder(LabPage* page, RecordOptions options, QObject* parent = nullptr);
    /// Distinct increasing positions, the last one `until`: until·k/frames, or geometric from 1.
    static std::vector<long> framePositions(long until, int frames, bool logarithmic);
    /// Starts the recording; progress() follows each frame and finished() ends it.
    void start();
    /// Ends at once; the file keeps the frames so far. A recording that fails (the run stops
    /// on an error, the lab closes, a frame cannot be written) writes nothing.
    void cancel();
    const std::vector<long>& positions() const { return m_positions; }

  signals:
    void progress(int done, int total);
    void finished(bool ok, const QString& message);

  private:
    void next();
    void whenSettled();
    void capture();
    QImage frameImage() const; ///< the page, under the header when that is shown
    static void settleLayouts(QWidget* page);
    void finish(bool ok, const QString& message);

    QPointer<LabPage> m_page;
    RecordOptions m_options;
    std::vector<long> m_positions;
    std::size_t m_next = 0;
    GifWriter m_gif;
    bool m_done = false, m_cancelled = false;
    QMetaObject::Connection m_reached, m_error;
};
