#include "ui/common/GifWriter.h"

#include "core/io/AtomicFile.h"

#include <gif_lib.h>
#include <stdexcept>
#include <vector>

namespace {
/// giflib's output function: the bytes go to the AtomicFile's stream (its temporary).
int writeBytes(GifFileType* gif, const GifByteType* data, int length) {
    auto* out = static_cast<std::ostream*>(gif->UserData);
    out->write(reinterpret_cast<const char*>(data), length);
    return *out ? length : 0;
}
} // namespace

GifWriter::GifWriter() = default;

GifWriter::~GifWriter() {
    if (m_gif)
        close();
}

bool GifWriter::fail(const QString& what, int code) {
    m_error = QString("%1: %2").arg(what, QString::fromUtf8(GifErrorString(code)));
    return false;
}

bool GifWriter::open(const QString& path, QSize size, int delayMs) {
    if (m_gif)
        close();
    m_error.clear();
    m_frames = 0;
    if (size.isEmpty() || size.width() > 65535 || size.height() > 65535) {
        m_error = "a GIF frame must be between 1 and 65535 pixels a side";
        return false;
    }
    // Not EGifOpenFileName (which truncates PATH at once and makes files only their owner may
    // read): a temporary beside it, with the user's umask, renamed into place by close().
    try {
        m_file = std::make_unique<fa::io::AtomicFile>(path.toLocal8Bit().toStdString(),
                                                      fa::io::FifoReader::Refuse);
    } catch (const std::exception& e) {
        m_error = QString::fromLocal8Bit(e.what());
        return false;
    }
    int code = 0;
    m_gif = EGifOpen(&m_file->stream(), writeBytes, &code);
    if (!m_gif) {
        m_file.reset();
        return fail("cannot write " + path, code);
    }
    m_size = size;
    m_delayCs = std::max(1, (delayMs + 5) / 10);
    EGifSetGifVersion(m_gif, true); // GIF89a: delays and the loop extension
    // A failure from here on drops the temporary: no half-made file is ever put in place.
    const auto broken = [&] {
        const int error = m_gif->Error;
        discard();
        return fail("cannot write " + path, error);
    };
    if (EGifPutScreenDesc(m_gif, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR)
        return broken();
    // NETSCAPE2.0: loop forever.
    const unsigned char app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    const unsigned char loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(m_gif, sizeof app, app) == GIF_ERROR ||
        EGifPutExtensionBlock(m_gif, sizeof loop, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(m_gif) == GIF_ERROR)
        return broken();
    return true;
}

bool GifWriter::addFrame(const QImage& frame) {
    if (!m_gif) {
        m_error = "no GIF is open";
        return false;
    }
    if (frame.size() != m_size) {
        m_error = QString("a frame of %1 × %2 in a GIF of %3 × %4")
                      .arg(frame.width())
                      .arg(frame.height())
                      .arg(m_size.width())
                      .arg(m_size.height());
        return false;
    }
    const QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    const int w = m_size.width(), h = m_size.height();
    const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    std::vector<GifByteType> r(n), g(n), b(n), indices(n);
    for (int y = 0; y < h; ++y) {
        const uchar* line = rgb.constScanLine(y);
        for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * w + x;
            r[i] = line[3 * x];
            g[i] = line[3 * x + 1];
            b[i] = line[3 * x + 2];
        }
    }
    int colours = 256;
    std::vector<GifColorType> palette(256);
    if (GifQuantizeBuffer(static_cast<unsigned>(w), static_cast<unsigned>(h), &colours, r.data(),
                          g.data(), b.data(), indices.data(), palette.data()) == GIF_ERROR)
        return fail("cannot quantise a frame", D_GIF_ERR_NOT_ENOUGH_MEM);
    ColorMapObject* map = GifMakeMapObject(256, palette.data());
    if (!map)
        return fail("cannot quantise a frame", D_GIF_ERR_NOT_ENOUGH_MEM);
    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.DelayTime = m_delayCs;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    bool ok = EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length),
                               extension) != GIF_ERROR &&
              EGifPutImageDesc(m_gif, 0, 0, w, h, false, map) != GIF_ERROR;
    for (int y = 0; ok && y < h; ++y)
        ok = EGifPutLine(m_gif, indices.data() + static_cast<std::size_t>(y) * w, w) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!ok)
        return fail("cannot write a frame", m_gif->Error);
    ++m_frames;
    return true;
}

bool GifWriter::close() {
    if (!m_gif)
        return m_error.isEmpty();
    int code = 0;
    const bool ok = EGifCloseFile(m_gif, &code) != GIF_ERROR;
    m_gif = nullptr;
    if (!ok) {
        m_file.reset(); // removes the temporary
        return fail("cannot finish the GIF", code);
    }
    try {
        m_file->commit();
    } catch (const std::exception& e) {
        m_error = QString::fromLocal8Bit(e.what());
        m_file.reset();
        return false;
    }
    m_file.reset();
    return true;
}

void GifWriter::discard() {
    if (m_gif) {
        int code = 0;
        EGifCloseFile(m_gif, &code);
        m_gif = nullptr;
    }
    m_file.reset(); // not committed: the temporary is removed
}
