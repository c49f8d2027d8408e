#include "core/fa/PassThreads.h"

#include <stdexcept>

namespace fa::stream {

PassThreads::PassThreads(int threads, long minRows, long blockRows)
    : m_threads(threads), m_minRows(minRows), m_blockRows(blockRows) {
    if (threads < 1)
        throw std::invalid_argument("a pass needs at least one thread");
    if (minRows < 0)
        throw std::invalid_argument("the rows a pass splits from must not be negative");
    if (blockRows < 64 || blockRows % 64 != 0)
        throw std::invalid_argument("a pass's blocks must be a positive multiple of 64 rows");
}

PassThreads::PassThreads(const PassThreads& other)
    : PassThreads(other.m_threads, other.m_minRows, other.m_blockRows) {}

PassThreads& PassThreads::operator=(const PassThreads& other) {
    if (this != &other) {
        m_threads = other.m_threads;
        m_minRows = other.m_minRows;
        m_blockRows = other.m_blockRows;
        m_helpers.clear();
    }
    return *this;
}

PassThreads::~PassThreads() = default;

long PassThreads::blocks(long rows) const {
    return rows < m_minRows ? 1 : (rows + m_blockRows - 1) / m_blockRows;
}

int PassThreads::parts(long rows) const {
    const long b = blocks(rows);
    return static_cast<int>(b < m_threads ? b : m_threads);
}

void PassThreads::run(const EmPass& pass, PassOut& out) {
    if (pass.dim < m_minRows)
        stream::run(pass, out);
    else
        runBlocks(pass, out, pass.x != nullptr);
}

void PassThreads::run(const SgaPass& pass, PassOut& out) {
    if (pass.dim < m_minRows)
        stream::run(pass, out);
    else
        runBlocks(pass, out, pass.x != nullptr && pass.reduce);
}

void PassThreads::forkParts(int last, const std::function<void(int)>& part) {
    if (last == 0) {
        part(0);
        return;
    }
    // Each lambda holds one pointer, so std::function keeps it without allocating.
    struct Fork {
        PassThreads* self;
        int last;
        const std::function<void(int)>* part;
    } fork{this, last, &part};
    const std::function<void()> here = [&fork] { fork.self->forkParts(fork.last - 1, *fork.part); };
    const std::function<void()> there = [&fork] { (*fork.part)(fork.last); };
    m_helpers[static_cast<std::size_t>(last - 1)]->run(here, there);
}

template <class Pass> void PassThreads::runBlocks(const Pass& pass, PassOut& out, bool reduce) {
    const auto K = static_cast<std::size_t>(pass.latent);
    const long nb = blocks(pass.dim);
    const int n = parts(pass.dim);
    while (m_helpers.size() + 1 < static_cast<std::size_t>(n))
        m_helpers.push_back(std::make_unique<ForkJoin>());
    const auto count = static_cast<std::size_t>(nb);
    if (m_blockOut.size() != count || m_blockSums.size() != count * (K * K + K)) {
        m_blockOut.assign(count, PassOut{});
        m_blockSums.assign(count * (K * K + K), 0.0);
        for (std::size_t b = 0; b < count; ++b) {
            m_blockOut[b].yy = m_blockSums.data() + b * (K * K + K);
            m_blockOut[b].yd = m_blockOut[b].yy + K * K;
        }
    }
    struct Job {
        const Pass* pass;
        PassThreads* self;
        long blocks;
        int parts;
    } job{&pass, this, nb, n};
    const std::function<void(int)> part = [&job](int j) {
        const long rows = job.pass->dim, step = job.self->m_blockRows;
        for (long b = job.blocks * j / job.parts; b < job.blocks * (j + 1) / job.parts; ++b)
            stream::run(*job.pass, job.self->m_blockOut[static_cast<std::size_t>(b)], b * step,
                        (b + 1) * step < rows ? (b + 1) * step : rows);
    };
    forkParts(n - 1, part);

    // The blocks' sums in block order (yy's lower triangle, the part the pass writes).
    out.clamps = 0;
    out.stateSum = out.meanSum = 0.0;
    if (reduce)
        for (std::size_t j = 0; j < K; ++j) {
            out.yd[j] = 0.0;
            for (std::size_t l = j; l < K; ++l)
                out.yy[j * K + l] = 0.0;
        }
    for (const PassOut& o : m_blockOut) {
        if (reduce)
            for (std::size_t j = 0; j < K; ++j) {
                out.yd[j] += o.yd[j];
                for (std::size_t l = j; l < K; ++l)
                    out.yy[j * K + l] += o.yy[j * K + l];
            }
        out.clamps += o.clamps;
        out.stateSum += o.stateSum;
        out.meanSum += o.meanSum;
    }
}

} // namespace fa::stream
