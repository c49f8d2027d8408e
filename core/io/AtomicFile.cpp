#include "core/io/AtomicFile.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace fa::io {
namespace fs = std::filesystem;

namespace {

// Temporaries a signal handler must remove. Fixed storage, so the handler only reads memory
// and calls unlink(), both async-signal-safe.
constexpr int kSlots = 16;
constexpr std::size_t kPathMax = 4096;
std::array<std::array<char, kPathMax>, kSlots> g_paths{};
std::array<std::atomic<bool>, kSlots> g_used{};
std::atomic_flag g_claim[kSlots] = {};

int remember(const std::string& path) {
    if (path.size() >= kPathMax)
        return -1;
    for (int i = 0; i < kSlots; ++i) {
        if (!g_claim[i].test_and_set()) {
            std::memcpy(g_paths[i].data(), path.c_str(), path.size() + 1);
            g_used[i].store(true);
            return i;
        }
    }
    return -1; // more than 16 open outputs: still removed on errors, not on signals
}

void forget(int slot) {
    if (slot < 0)
        return;
    g_used[slot].store(false);
    g_claim[slot].clear();
}

extern "C" void removeTemporariesAndEnd(int sig) {
    for (int i = 0; i < kSlots; ++i)
        if (g_used[i].load())
            ::unlink(g_paths[i].data());
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

std::string reason(int err) {
    return std::strerror(err);
}

/// The path with every symbolic link followed (relative links from their own folder), up to
/// 40 of them as the kernel does; a dangling link gives the path it points to.
fs::path followLinks(fs::path p, const std::string& original) {
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec)
            return p;
        const fs::path next = fs::read_symlink(p, ec);
        if (ec)
            return p;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    throw std::invalid_argument("cannot write '" + original + "': too many symbolic links");
}

} // namespace

FdBuffer::FdBuffer() : m_buffer(1 << 16) {
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
}

FdBuffer::~FdBuffer() {
    if (m_fd >= 0)
        ::close(m_fd);
}

namespace {
std::atomic<void (*)(const std::string&)> g_fifoWaitNotice{nullptr};
}

void setFifoWaitNotice(void (*notice)(const std::string& path)) {
    g_fifoWaitNotice = notice;
}

bool FdBuffer::open(const std::string& path, bool waitForReader,
                    const std::atomic<bool>* stopWaiting) {
    // Without blocking: a FIFO with no reader fails with ENXIO instead of waiting (a probe that
    // opened and closed it would hand a waiting reader its end of file). The wait for a reader
    // looks again every 50 ms rather than block in open(), which a signal whose handler only
    // raises a flag (the CLI's Ctrl-C) would not end.
    const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK;
    m_fd = ::open(path.c_str(), flags, 0666);
    if (m_fd < 0 && errno == ENXIO && waitForReader) {
        if (const auto notice = g_fifoWaitNotice.load())
            notice(path);
        while (m_fd < 0 && errno == ENXIO) {
            if (stopWaiting && stopWaiting->load()) {
                errno = EINTR;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            m_fd = ::open(path.c_str(), flags, 0666);
        }
    }
    m_error = m_fd < 0 ? errno : 0;
    if (m_fd >= 0) // the writes block as usual
        ::fcntl(m_fd, F_SETFL, ::fcntl(m_fd, F_GETFL) & ~O_NONBLOCK);
    return m_fd >= 0;
}

bool FdBuffer::flushBuffer() {
    const char* p = pbase();
    while (p < pptr() && m_error == 0) {
        const ssize_t n = ::write(m_fd, p, static_cast<std::size_t>(pptr() - p));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            m_error = n < 0 ? errno : EIO;
        else
            p += n;
    }
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
    return m_error == 0;
}

FdBuffer::int_type FdBuffer::overflow(int_type ch) {
    if (m_fd < 0 || !flushBuffer())
        return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(ch);
        pbump(1);
    }
    return traits_type::not_eof(ch);
}

int FdBuffer::sync() {
    return m_fd >= 0 && flushBuffer() ? 0 : -1;
}

bool FdBuffer::close() {
    if (m_fd < 0)
        return m_error == 0;
    flushBuffer();
    if (::close(m_fd) != 0 && m_error == 0)
        m_error = errno;
    m_fd = -1;
    return m_error == 0;
}

void removeTemporariesOnSignals() {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP})
        std::signal(sig, removeTemporariesAndEnd);
}

void probeOutput(const std::string& path) {
    std::error_code ec;
    const fs::file_type type = fs::status(followLinks(path, path), ec).type();
    if (!ec && (type == fs::file_type::fifo || type == fs::file_type::character))
        return;
    const AtomicFile probe(path, FifoReader::Refuse); // its temporary goes with it, unwritten
}

AtomicFile::AtomicFile(const std::string& path, FifoReader fifo,
                       const std::atomic<bool>* stopWaiting)
    : m_path(path) {
    if (path.empty())
        throw std::invalid_argument("no output path given");
    const fs::path target = followLinks(path, path);
    m_target = target.string();
    const auto fail = [&](const std::string& why) {
        throw std::invalid_argument("cannot write '" + path + "': " + why);
    };
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    switch (st.type()) {
    case fs::file_type::not_found:
        break;
    case fs::file_type::regular:
        // Renaming over a file needs only the folder's permission: a file its owner made
        // read-only would be replaced all the same (even by root, whom access() lets write).
        if ((st.permissions() & (fs::perms::owner_write | fs::perms::group_write |
                                 fs::perms::others_write)) == fs::perms::none ||
            ::access(m_target.c_str(), W_OK) != 0)
            fail("the file is write-protected (make it writable to replace it, or choose "
                 "another file)");
        break;
    case fs::file_type::directory:
        fail("it is a directory");
        break;
    case fs::file_type::character:
    case fs::file_type::fifo:
        // A device or a pipe is written directly: renaming over it would replace it.
        if (!m_buffer.open(m_target, fifo == FifoReader::Wait, stopWaiting))
            fail(m_buffer.error() == ENXIO && st.type() == fs::file_type::fifo
                     ? "it is a FIFO that no program reads (start the reader first)"
                 : m_buffer.error() == EINTR ? "interrupted while waiting for a program to read it"
                                             : reason(m_buffer.error()));
        return;
    default:
        fail("it is not a regular file, a character device or a FIFO");
    }
    m_tmp = m_target + ".tmp-" + std::to_string(::getpid());
    // Remembered before it exists: a signal between creating the file and remembering it would
    // leave it behind (a signal before the file exists unlinks nothing).
    m_slot = remember(m_tmp);
    if (!m_buffer.open(m_tmp)) {
        const int err = m_buffer.error();
        m_tmp.clear();
        forget(m_slot); // no destructor runs after a throw from here
        m_slot = -1;
        fail(err == ENOENT ? "the folder does not exist" : reason(err));
    }
    if (st.type() == fs::file_type::regular) // the new file keeps the old one's permissions
        fs::permissions(m_tmp, st.permissions(), ec);
}

AtomicFile::~AtomicFile() {
    if (!m_committed && !m_tmp.empty()) {
        m_buffer.close();
        ::unlink(m_tmp.c_str());
    }
    forget(m_slot);
}

void AtomicFile::commit() {
    m_out.flush();
    if (!m_buffer.close() || !m_out)
        throw std::runtime_error("failed to write '" + m_path +
                                 "': " + reason(m_buffer.error() ? m_buffer.error() : EIO));
    if (!m_tmp.empty() && std::rename(m_tmp.c_str(), m_target.c_str()) != 0)
        throw std::runtime_error("failed to write '" + m_path + "': " + reason(errno));
    m_committed = true;
}

} // namespace fa::io
