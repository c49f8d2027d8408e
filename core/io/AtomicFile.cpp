#include "core/io/AtomicFile.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace fa::io {

AtomicFile::AtomicFile(const std::string& path)
    : m_path(path), m_tmp(path + ".tmp-" + std::to_string(::getpid())) {
    if (path.empty())
        throw std::runtime_error("no output path given");
    if (std::filesystem::is_directory(path))
        throw std::runtime_error("cannot write '" + path + "': it is a directory");
    m_out.open(m_tmp, std::ios::out | std::ios::trunc);
    if (!m_out)
        throw std::runtime_error("cannot write '" + path +
                                 "': the folder does not exist or is not writable");
}

AtomicFile::~AtomicFile() {
    if (!m_committed) {
        m_out.close();
        std::remove(m_tmp.c_str());
    }
}

void AtomicFile::commit() {
    m_out.flush();
    const bool ok = static_cast<bool>(m_out);
    m_out.close();
    if (!ok || std::rename(m_tmp.c_str(), m_path.c_str()) != 0)
        throw std::runtime_error("failed to write '" + m_path + "'");
    m_committed = true;
}

} // namespace fa::io
