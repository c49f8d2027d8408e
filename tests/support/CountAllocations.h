#pragma once
// Counts the allocations of the whole program (operator new replaced), for the tests that a
// path allocates nothing per step: include it in exactly one file of a test program and read
// fa::test::allocations() before and after.
#include <atomic>
#include <cstdlib>
#include <new>

namespace fa::test {
inline std::atomic<long>& allocationCounter() {
    static std::atomic<long> count{0};
    return count;
}
inline long allocations() {
    return allocationCounter().load();
}
} // namespace fa::test

void* operator new(std::size_t size) {
    ++fa::test::allocationCounter();
    if (void* p = std::malloc(size == 0 ? 1 : size))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
