#pragma once
// Large arrays on 2 MiB pages for the whole program. glibc's malloc tunable
// glibc.malloc.hugetlb=1 makes malloc ask for transparent huge pages (madvise(MADV_HUGEPAGE)) on
// what it maps, where the kernel offers them on request (Debian's default, "[madvise]"). Batch
// FA's refit at D = 1000 on 10^5 samples takes half the time with it (docs/benchmarks.md, "Huge
// pages for malloc"): a product over 800 MB of 4 KiB pages misses the TLB on nearly every page,
// and each first touch of a page is a fault. Nothing computed changes, only where memory lies.
// glibc reads its tunables once, before main, so the program starts itself again with the
// tunable added to GLIBC_TUNABLES. It does nothing where GLIBC_TUNABLES already names the
// tunable (glibc.malloc.hugetlb=0 turns this off), and carries on as it was if exec fails.
#include <cstdlib>
#include <cstring>
#include <string>
#if defined(__linux__) && defined(__GLIBC__)
#include <unistd.h>
#endif

/// The first thing main does: returns only if the program runs on as it is.
inline void restartWithHugePages(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
    constexpr const char* kTunable = "glibc.malloc.hugetlb";
    const char* current = std::getenv("GLIBC_TUNABLES");
    if (current && std::strstr(current, kTunable))
        return; // set already: by this restart, or by the user
    const std::string before = current ? current : "";
    const std::string value = (before.empty() ? "" : before + ":") + kTunable + "=1";
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    if (current) // exec failed (no /proc): on as before, the environment too
        setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}
