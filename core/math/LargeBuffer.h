#pragma once
// Scratch for a large array on 2 MiB pages where Linux offers them (madvise(MADV_HUGEPAGE)):
// a fresh buffer of 4 KiB pages costs a page fault every 4 KiB on its first write, which for
// the 160 MB Z structured W2 stored at D = 10^6 (it no longer stores Z) took as long as filling it,
// and on a virtual machine whose faults cost ≈ 11 µs each, 45–59 times as long as a second write
// (docs/benchmarks.md, issue 30). Elsewhere, or for arrays under 256 KiB, plain heap memory
// (64-byte aligned). Header only: the engine's library lists its sources in core/CMakeLists.txt.
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fa {

/// `count` uninitialised elements of a trivial type T (doubles, indices).
template <class T> class LargeArray {
    static_assert(std::is_trivial_v<T>);

  public:
    explicit LargeArray(std::size_t count) {
        constexpr std::size_t huge = std::size_t{2} << 20;
        const std::size_t wanted = count * sizeof(T);
        // From 256 KiB (where malloc would map fresh pages for it anyway) whole 2 MiB pages: one
        // fault for up to 512; below, the heap's memory, which it reuses.
        const std::size_t unit = wanted >= huge / 8 ? huge : 64;
        const std::size_t bytes = (wanted + unit - 1) / unit * unit;
        m_data = static_cast<T*>(std::aligned_alloc(unit, bytes));
        if (!m_data && bytes > 0)
            throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= huge)
            madvise(m_data, bytes, MADV_HUGEPAGE); // advice only: 4 KiB pages if refused
#endif
    }
    ~LargeArray() {
        std::free(m_data);
    }
    LargeArray(const LargeArray&) = delete;
    LargeArray& operator=(const LargeArray&) = delete;
    T* data() {
        return m_data;
    }
    const T* data() const {
        return m_data;
    }
    T& operator[](std::size_t i) {
        return m_data[i];
    }
    const T& operator[](std::size_t i) const {
        return m_data[i];
    }

  private:
    T* m_data = nullptr;
};

using LargeBuffer = LargeArray<double>;

} // namespace fa
