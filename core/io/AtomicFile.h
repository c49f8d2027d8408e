#pragma once
// Writes an output file all at once or not at all: text goes to a temporary beside the target
// and is renamed over it on commit, so a failed or interrupted run never leaves a partial file.
// A symbolic link is followed (its target is replaced, the link stays); a character device or
// a FIFO (/dev/null, /dev/stdout, a pipe) is written directly, with no temporary; a directory,
// a block device or a socket is refused. An existing file keeps its permissions; one that is
// write-protected (no write permission, or none for this user) is refused, never replaced.
#include <atomic>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace fa::io {

/// An output buffer over a file descriptor that remembers why a write failed (errno), which
/// std::ofstream forgets.
class FdBuffer : public std::streambuf {
  public:
    FdBuffer();
    ~FdBuffer() override;
    /// False with error() set. A FIFO that no program reads yet: waitForReader, the notice
    /// (setFifoWaitNotice) and a wait for a reader, looked for every 50 ms, that a raised
    /// `stopWaiting` ends (EINTR); else ENXIO at once.
    bool open(const std::string& path, bool waitForReader = true,
              const std::atomic<bool>* stopWaiting = nullptr);
    bool close(); ///< flushes and closes; false with error() set
    int error() const { return m_error; }

  protected:
    int_type overflow(int_type ch) override;
    int sync() override;

  private:
    bool flushBuffer();
    int m_fd = -1, m_error = 0;
    std::vector<char> m_buffer;
};

/// What opening a FIFO that no program reads yet does: wait for a reader, as a shell's
/// redirection does (the CLI), or refuse at once (the window, which must never block).
enum class FifoReader { Wait, Refuse };

/// Called with the path when an AtomicFile (FifoReader::Wait) starts to wait for a FIFO's
/// reader: the CLI says that it waits. None by default.
void setFifoWaitNotice(void (*notice)(const std::string& path));

/// Refuses now, as an AtomicFile at `path` would when it is written (a write-protected file, a
/// missing or unwritable folder, a directory), what a run would otherwise find out only at its
/// end. A FIFO or a device is left to the write: opening a FIFO to look would hand its reader
/// an end of file.
void probeOutput(const std::string& path);

class AtomicFile {
  public:
    /// Opens the temporary (or the device) now, so an unwritable path is reported before any
    /// long work. Throws std::invalid_argument (a bad path is a bad argument: the CLI exits 2)
    /// naming the path and the system's reason.
    /// A raised `stopWaiting` (the CLI's Ctrl-C flag) ends a wait for a FIFO's reader: the
    /// constructor then throws, saying so.
    explicit AtomicFile(const std::string& path, FifoReader fifo = FifoReader::Wait,
                        const std::atomic<bool>* stopWaiting = nullptr);
    ~AtomicFile(); ///< removes the temporary unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    std::ostream& stream() { return m_out; }
    /// Flushes and renames into place; throws std::runtime_error with the system's reason
    /// ("No space left on device") on failure, and the target is then left as it was.
    void commit();
    /// Where the text goes in the end: the path with its symbolic links followed.
    const std::string& target() const { return m_target; }
    /// The temporary file, empty when writing directly to a device or FIFO.
    const std::string& temporary() const { return m_tmp; }

  private:
    std::string m_path, m_target, m_tmp;
    FdBuffer m_buffer;
    std::ostream m_out{&m_buffer};
    int m_slot = -1; ///< the temporary's entry in the signal-cleanup list
    bool m_committed = false;
};

/// Makes SIGINT, SIGTERM and SIGHUP remove every uncommitted temporary before the process ends
/// with that signal (the CLI calls it once at start). A command with a handler of its own for
/// one of them (neural's Ctrl-C keeps finished rows) replaces it for that signal only.
void removeTemporariesOnSignals();

} // namespace fa::io
