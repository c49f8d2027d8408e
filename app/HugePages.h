#pragma once
// Large arrays on 2 MiB pages for the whole program. glibc's malloc tunable
// glibc.malloc.hugetlb=1 makes malloc ask for transparent huge pages (madvise(MADV_HUGEPAGE)) on
// what it maps, where the kernel offers them on request (Debian's default, "[madvise]"). Batch
// FA's refit at D = 1000 on 10^5 samples takes half the time with it (docs/benchmarks.md, "Huge
// pages for malloc"): a product over 800 MB of 4 KiB pages misses the TLB on nearly every page,
// and each first touch of a page is a fault. Nothing computed changes, only where memory lies.
// glibc reads its tunables once, before main, so the program starts itself again with the
// tunable added to GLIBC_TUNABLES. It does nothing where GLIBC_TUNABLES already names the
// tunable (glibc.malloc.hugetlb=0 turns this off: also the way to run the programs under
// valgrind without --trace-children, or stop only once in gdb), and carries on as it was if
// exec fails.
#include <cstdlib>
#include <cstring>
#include <string>
#if defined(__linux__) && defined(__GLIBC__)
#include <sys/auxv.h>
#include <unistd.h>
#endif

/// The first thing main does: returns only if the program runs on as it is. It execs at most
/// once (a marker in the environment says it did), never for a setuid or setgid program (whose
/// tunables glibc drops), and by the program's own path, so that its process name stays.
inline void restartWithHugePages(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
    constexpr const char* kTunable = "glibc.malloc.hugetlb";
    constexpr const char* kRestarted = "FAEXPLORER_RESTARTED";
    if (std::getenv(kRestarted)) { // this is the restarted program: its children start afresh
        unsetenv(kRestarted);
        return;
    }
    if (getauxval(AT_SECURE))
        return;
    const char* current = std::getenv("GLIBC_TUNABLES");
    if (current && std::strstr(current, kTunable))
        return; // set already by the user (=0 turns it off)
    const std::string before = current ? current : "";
    const std::string value = (before.empty() ? "" : before + ":") + kTunable + "=1";
    if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0 || setenv(kRestarted, "1", 1) != 0)
        return;
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n > 0) {
        path[n] = '\0';
        execv(path, argv);
    }
    execv("/proc/self/exe", argv); // the file renamed or replaced since it started
    unsetenv(kRestarted);          // exec failed (no /proc): on as before, the environment too
    if (current)
        setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}
