#pragma once
// Scratch for a large matrix on 2 MiB pages where Linux offers them (madvise(MADV_HUGEPAGE)):
// a fresh buffer of 4 KiB pages costs a page fault every 4 KiB on its first write, which for
// structured W2's 160 MB Z at D = 10^6 took as long as filling it (docs/benchmarks.md, issue
// 30). Elsewhere, or for buffers under 2 MiB, plain heap memory. Header only: the engine's
// library lists its sources in core/CMakeLists.txt.
#include <cstddef>
#include <cstdlib>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fa {

class LargeBuffer {
  public:
    explicit LargeBuffer(std::size_t doubles) {
        constexpr std::size_t huge = std::size_t{2} << 20;
        const std::size_t bytes = (doubles * sizeof(double) + huge - 1) / huge * huge;
        m_data = static_cast<double*>(std::aligned_alloc(bytes >= huge ? huge : 64, bytes));
        if (!m_data && bytes > 0)
            throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= huge)
            madvise(m_data, bytes, MADV_HUGEPAGE); // advice only: 4 KiB pages if refused
#endif
    }
    ~LargeBuffer() {
        std::free(m_data);
    }
    LargeBuffer(const LargeBuffer&) = delete;
    LargeBuffer& operator=(const LargeBuffer&) = delete;
    double* data() {
        return m_data;
    }

  private:
    double* m_data = nullptr;
};

} // namespace fa
