#include "core/io/FileChecks.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace fa::io {

bool sameFile(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty())
        return false;
    if (a == b)
        return true;
    struct stat sa {};
    struct stat sb {};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

void refuseOutputOverInputs(const std::string& out, const std::vector<std::string>& inputs) {
    for (const std::string& in : inputs)
        if (sameFile(out, in))
            throw std::invalid_argument(
                "the output '" + out + "' is also an input" +
                (in == out ? std::string() : " ('" + in + "', the same file)") +
                ": writing it would replace the data; choose another output file");
}

std::string readRegularFile(const std::string& path, std::size_t maxBytes) {
    // O_NONBLOCK: opening a FIFO without a writer returns at once (then refused below) instead
    // of waiting for one.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw std::invalid_argument("cannot read '" + path + "': " +
                                    (err == ENOENT ? std::string("there is no such file")
                                                   : std::string(std::strerror(err))));
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        throw std::invalid_argument("cannot read '" + path + "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        throw std::invalid_argument("cannot read '" + path + "': it is a folder");
    if (!S_ISREG(st.st_mode))
        throw std::invalid_argument("cannot read '" + path +
                                    "': not a regular file (a FIFO, device or socket)");
    if (static_cast<unsigned long long>(st.st_size) > maxBytes)
        throw std::invalid_argument("cannot read '" + path + "': larger than " +
                                    std::to_string(maxBytes) + " bytes");
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw std::invalid_argument("cannot read '" + path + "': " + std::strerror(errno));
        if (n == 0)
            break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > maxBytes) // it grew while being read
            throw std::invalid_argument("cannot read '" + path + "': larger than " +
                                        std::to_string(maxBytes) + " bytes");
    }
    return text;
}

} // namespace fa::io
