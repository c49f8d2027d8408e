#pragma once
// Checks every program makes before it reads or writes a file: an output that is also an input
// (the same path, a symbolic link to it or a hard link: one device and inode) is refused before
// anything runs, and an input is read only when it is a regular file (a FIFO would wait for a
// writer forever, a character device could stream without end).
#include <cstddef>
#include <string>
#include <vector>

namespace fa::io {

/// True when both paths name one existing file (symbolic links followed, hard links by device
/// and inode), or are the same text.
bool sameFile(const std::string& a, const std::string& b);

/// Throws std::invalid_argument "the output 'OUT' is also an input (IN)" when `out` names the
/// file of one of `inputs` (empty entries are skipped).
void refuseOutputOverInputs(const std::string& out, const std::vector<std::string>& inputs);

/// The whole of a regular file, at most maxBytes. Throws std::invalid_argument naming the path
/// for a missing file, a folder, a FIFO, a device or a socket (checked on the opened file, which
/// is opened without waiting for a FIFO's writer), a file over maxBytes, or a read error.
std::string readRegularFile(const std::string& path, std::size_t maxBytes);

} // namespace fa::io
