#pragma once
// An animated GIF, frame by frame, through giflib (Debian's libgif): each frame's colours
// quantised to a 256-colour map of its own (giflib's median cut, deterministic), a fixed delay,
// looping forever. The same frames give the same bytes. Written as every output file is
// (core/io/AtomicFile): into a temporary beside PATH, renamed over it by close(), so a recording
// that fails, is discarded or is ended by a signal leaves PATH as it was and no broken GIF; a
// symbolic link is followed, a FIFO written directly, a write-protected file refused.
#include <QImage>
#include <QString>
#include <memory>

struct GifFileType;
namespace fa::io {
class AtomicFile;
}

class GifWriter {
  public:
    GifWriter();  // out of line: AtomicFile is complete only in the .cpp
    ~GifWriter(); ///< closes an open file (the animation then ends with the frames so far)
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    /// Starts the file; every frame must then have this size. delayMs: per frame (10 ms steps).
    bool open(const QString& path, QSize size, int delayMs);
    bool addFrame(const QImage& frame);
    /// Ends the animation and puts the file in place; false with error() set on failure (the
    /// temporary is then removed and PATH keeps what it held).
    bool close();
    /// Drops the recording: the temporary is removed, PATH keeps what it held.
    void discard();
    QString error() const { return m_error; }
    int frames() const { return m_frames; }
    QSize size() const { return m_size; }

  private:
    bool fail(const QString& what, int code);
    GifFileType* m_gif = nullptr;
    std::unique_ptr<fa::io::AtomicFile> m_file;
    QSize m_size;
    int m_delayCs = 10;
    int m_frames = 0;
    QString m_error;
};
