#pragma once
// IDX files (LeCun and Cortes's format for MNIST, used by Fashion-MNIST; issue 29): a 4-byte
// magic number (two zero bytes, a type code, the number of dimensions), each dimension's size as
// a big-endian 32-bit integer, then the values in row-major order. Only unsigned bytes (type
// 0x08) are read: images and labels. Read through zlib's gzip reader, so a file compressed with
// gzip (as Debian's dataset-fashion-mnist ships them) and a plain one are read alike.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

struct gzFile_s; // zlib's file, <zlib.h>

namespace fa::io {

/// Closes a zlib file; GzFile owns one (the IDX reader's and the bundled digits').
struct GzCloser {
    void operator()(gzFile_s* f) const;
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

struct IdxArray {
    std::vector<std::size_t> shape; ///< e.g. {60000, 28, 28} images, {60000} labels
    std::vector<std::uint8_t> data; ///< the first `items` items (shape[0] as read), row-major
    std::size_t itemSize() const;   ///< the product of shape[1..]: bytes per item
};

/// Reads at most maxItems items (along the first dimension; shape[0] is then that count).
/// Throws std::invalid_argument naming the path and the problem: a missing or unreadable file,
/// a bad magic number, a type other than unsigned bytes, no dimension or more than 4, a size of
/// zero or above 2³¹, or fewer bytes than the header promises (a truncated file).
IdxArray readIdx(const std::string& path,
                 std::size_t maxItems = std::numeric_limits<std::size_t>::max());

} // namespace fa::io
