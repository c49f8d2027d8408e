#pragma once
// Writes a file all at once or not at all: text goes to a temporary beside the target and is
// renamed over it on commit, so a failed or interrupted run never leaves a partial file.
#include <fstream>
#include <string>

namespace fa::io {

class AtomicFile {
  public:
    /// Opens the temporary now, so an unwritable path is reported before any long work.
    /// Throws std::runtime_error naming the path.
    explicit AtomicFile(const std::string& path);
    ~AtomicFile(); ///< removes the temporary unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return m_out; }
    /// Flushes and renames into place; throws std::runtime_error on failure.
    void commit();

  private:
    std::string m_path, m_tmp;
    std::ofstream m_out;
    bool m_committed = false;
};

} // namespace fa::io
