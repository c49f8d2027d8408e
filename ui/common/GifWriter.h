#pragma once
// An animated GIF, frame by frame, through giflib (Debian's libgif): each frame's colours
// quantised to a 256-colour map of its own (giflib's median cut, deterministic), a fixed delay,
// looping forever. The same frames give the same bytes.
#include <QImage>
#include <QString>

struct GifFileType;

class GifWriter {
  public:
    GifWriter() = default;
    ~GifWriter(); ///< closes an open file (the animation then ends with the frames so far)
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    /// Starts the file; every frame must then have this size. delayMs: per frame (10 ms steps).
    bool open(const QString& path, QSize size, int delayMs);
    bool addFrame(const QImage& frame);
    bool close();
    QString error() const { return m_error; }
    int frames() const { return m_frames; }
    QSize size() const { return m_size; }

  private:
    bool fail(const QString& what, int code);
    GifFileType* m_gif = nullptr;
    QSize m_size;
    int m_delayCs = 10;
    int m_frames = 0;
    QString m_error;
};
