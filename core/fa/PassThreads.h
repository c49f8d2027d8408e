#pragma once
// One observation's streaming pass (core/fa/StreamPass.h) split over its rows on N threads
// (issue 30 item 2; docs/threads.md). The rows of a pass are independent; only the E-step sums
// (yy, K x K, and yd, K), the clamp counts and the finiteness sums are shared. From D >= minRows
// rows on, a pass is cut into blocks of blockRows rows whatever the thread count: each block's
// sums are formed into its own PassOut by stream::run over its rows, and the blocks' sums are
// added in block order once all are done. The threads take whole blocks (thread j blocks
// [B j / N, B (j + 1) / N)), so the sums, and every number of the fit, are bitwise the same for
// any N, one thread included (tests/core/test_online_split.cpp, with the dense transcriptions
// of thesis Algorithms 1 and 2 at 1e-9). Below minRows the pass is stream::run's over all rows.
// The helpers are ForkJoin threads (core/math/ForkJoin.h) that sleep on a condition variable
// between passes; N > 2 chains N - 1 of them.
#include "core/fa/StreamPass.h"
#include "core/math/ForkJoin.h"

#include <memory>
#include <vector>

namespace fa::stream {

/// A pass over fewer rows than this stays on one thread (and is summed as one block): waking a
/// helper and joining it costs some tens of microseconds on a shared virtual machine
/// (faexplorer-pass-bench, docs/threads.md).
constexpr long kSplitMinRows = 32768;
/// The rows of a block: a multiple of 64 (whole vector lanes and whole cache lines of every
/// column, so two threads never write one line) and of the pass's 256-row blocks, which then
/// fall where the one-thread pass has them.
constexpr long kSumBlockRows = 8192;

class PassThreads {
  public:
    /// threads >= 1; blockRows a positive multiple of 64. Tests pass small minRows and blockRows
    /// to hold the split pass against dense references at small D.
    explicit PassThreads(int threads = 1, long minRows = kSplitMinRows,
                         long blockRows = kSumBlockRows);
    PassThreads(const PassThreads& other);            ///< the same settings, its own helpers
    PassThreads& operator=(const PassThreads& other); ///< likewise
    ~PassThreads();

    int threads() const { return m_threads; }
    /// The blocks a pass over `rows` rows is summed in (1: one stream::run over all rows).
    long blocks(long rows) const;
    /// The threads a pass over `rows` rows runs on (1: not split).
    int parts(long rows) const;

    void run(const EmPass& pass, PassOut& out);
    void run(const SgaPass& pass, PassOut& out);

  private:
    template <class Pass> void runBlocks(const Pass& pass, PassOut& out, bool reduce);
    void forkParts(int last, const std::function<void(int)>& part);

    int m_threads = 1;
    long m_minRows = kSplitMinRows, m_blockRows = kSumBlockRows;
    std::vector<std::unique_ptr<ForkJoin>> m_helpers; // N - 1, made on the first split pass
    std::vector<PassOut> m_blockOut;                  // one per block
    std::vector<double> m_blockSums;                  // their yy and yd
};

} // namespace fa::stream
