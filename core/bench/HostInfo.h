#pragma once
// What `bench` reports about the machine it ran on (docs/benchmarks.md, "The bandwidth bound"):
// the CPU, the vector widths this build uses, the cores, and STREAM's triad on one and on two
// threads, against which the throughputs are read.
#include <string>

namespace fa {

struct HostInfo {
    std::string cpuModel;     ///< /proc/cpuinfo's "model name" ("unknown" elsewhere)
    int cpuFamily = 0;        ///< its "cpu family" (AMD: 25 Zen 3 and 4, 26 Zen 5); 0 unknown
    int cpuModelNumber = 0;   ///< its "model"; 0 unknown
    unsigned cores = 0;       ///< std::thread::hardware_concurrency()
    int buildVectorBits = 0;  ///< the engine's widest vector (compiler macros): 512, 256, 128
    int streamPassBits = 0;   ///< the online fitters' pass (core/fa/StreamPass.cpp)
    int normalVectorBits = 0; ///< the block normal generator's first tries
    std::string normalPath;   ///< its name: avx512, avx2, avx or sse2
};

HostInfo hostInfo();

/// STREAM's triad a = b + s c over three arrays of n doubles, on 1 or 2 threads (each sweeping
/// its own half, started together per sweep on core/math/ForkJoin.h's sleeping helper): the
/// best of repeated sweeps over at least minSeconds, in GB/s counting 24 bytes per element (as
/// STREAM does: no write-allocate).
double triadBandwidth(long n, double minSeconds, int threads = 1);

} // namespace fa
