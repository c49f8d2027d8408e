#include "core/io/IdxFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace fa::io {

void GzCloser::operator()(gzFile_s* f) const {
    gzclose(f);
}

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
    throw std::invalid_argument("'" + path + "' is not a readable IDX file: " + why);
}

/// Reads exactly n bytes; false at the end of the file (or an error) before that.
bool readExactly(gzFile_s* f, std::uint8_t* out, std::size_t n) {
    while (n > 0) {
        const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
        const int got = gzread(f, out, chunk);
        if (got <= 0)
            return false;
        out += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

/// The file opened for zlib, once it is known to be a regular file (a FIFO is opened without
/// waiting for a writer, then refused).
GzFile openRegular(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        refuse(path, "it cannot be opened");
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        refuse(path, "it is not a regular file");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    GzFile f(gzdopen(fd, "rb"));
    if (!f) {
        ::close(fd);
        refuse(path, "it cannot be opened");
    }
    return f;
}

} // namespace

std::size_t IdxArray::itemSize() const {
    std::size_t size = 1;
    for (std::size_t d = 1; d < shape.size(); ++d)
        size *= shape[d];
    return size;
}

IdxArray readIdx(const std::string& path, std::size_t maxItems) {
    const GzFile f = openRegular(path);
    std::uint8_t magic[4];
    if (!readExactly(f.get(), magic, 4))
        refuse(path, "it ends before its header");
    if (magic[0] != 0 || magic[1] != 0)
        refuse(path, "its first two bytes are not zero");
    if (magic[2] != 0x08)
        refuse(path, "its values are not unsigned bytes (type 0x08)");
    if (magic[3] < 1 || magic[3] > 4)
        refuse(path, "it has " + std::to_string(magic[3]) + " dimensions (1 to 4 are read)");
    IdxArray a;
    for (int d = 0; d < magic[3]; ++d) {
        std::uint8_t b[4];
        if (!readExactly(f.get(), b, 4))
            refuse(path, "it ends inside its header");
        const std::uint32_t n = (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) |
                                (std::uint32_t(b[2]) << 8) | std::uint32_t(b[3]);
        if (n == 0 || n >= (1u << 31))
            refuse(path, "dimension " + std::to_string(d + 1) + " has size " + std::to_string(n));
        a.shape.push_back(n);
    }
    const std::size_t items = std::min(a.shape[0], maxItems);
    const std::size_t item = a.itemSize();
    if (item > (std::size_t(1) << 32) / std::max<std::size_t>(items, 1))
        refuse(path, "it is larger than 4 GB");
    a.shape[0] = items;
    a.data.resize(items * item);
    if (!readExactly(f.get(), a.data.data(), a.data.size()))
        refuse(path, "it is truncated or corrupt: fewer values than its header gives");
    return a;
}

} // namespace fa::io
