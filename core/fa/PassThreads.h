#pragma once
// One observation's streaming pass (core/fa/StreamPass.h) split over its rows on N threads
// (issue 30 item 2; docs/threads.md). The rows of a pass are independent; only the E-step sums
// (yy, K x K, and yd, K), the clamp counts and the finiteness sums are shared. Each part runs
// stream::run over its own rows into its own PassOut, and the parts are added in part order
// after all have finished, so for a given N the result is the same on every run; against one
// thread only the order of the floating-point sums differs (tests/core/test_online_split.cpp
// holds N = 2, 3, 4 to one thread at 1e-12 and to the dense transcriptions at 1e-9).
// The helpers are ForkJoin threads (core/math/ForkJoin.h) that sleep on a condition variable
// between passes; N > 2 chains N - 1 of them.
#include "core/fa/StreamPass.h"
#include "core/math/ForkJoin.h"

#include <memory>
#include <vector>

namespace fa::stream {

/// A pass over fewer rows than this stays on one thread: waking a helper and joining it costs
/// some tens of microseconds on a shared virtual machine, about a pass over 10^4 rows at K = 10
/// (measured with faexplorer-pass-bench, docs/threads.md).
constexpr long kSplitMinRows = 32768;
/// The cuts between parts fall on multiples of this many rows: whole vector lanes and whole
/// cache lines of every column (so two threads never write one line), and SGA's 256-row blocks
/// of the one-thread pass are cut only where a part begins.
constexpr long kSplitRowStep = 64;

class PassThreads {
  public:
    /// threads >= 1; a pass splits when threads > 1 and it has at least minRows rows (tests pass
    /// a small minRows to hold the split pass against dense references at small D).
    explicit PassThreads(int threads = 1, long minRows = kSplitMinRows);
    PassThreads(const PassThreads& other);            ///< the same settings, its own helpers
    PassThreads& operator=(const PassThreads& other); ///< likewise
    ~PassThreads();

    int threads() const { return m_threads; }
    long minRows() const { return m_minRows; }
    /// The parts a pass over `rows` rows is cut into (1: not split).
    int parts(long rows) const;
    /// The first row of part j of `parts` over `rows` rows (j = parts gives rows).
    static long partStart(long rows, int parts, int j);

    void run(const EmPass& pass, PassOut& out);
    void run(const SgaPass& pass, PassOut& out);

  private:
    template <class Pass> void split(const Pass& pass, PassOut& out, int parts);
    void forkParts(int last, const std::function<void(int)>& part);

    int m_threads = 1;
    long m_minRows = kSplitMinRows;
    std::vector<std::unique_ptr<ForkJoin>> m_helpers; // N - 1, made on the first split pass
    std::vector<PassOut> m_partOut;                   // parts 1..N-1 (part 0 writes to out)
    std::vector<double> m_partSums;                   // their yy and yd
};

} // namespace fa::stream
