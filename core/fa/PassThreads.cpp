#include "core/fa/PassThreads.h"

#include "core/fa/PassBeside.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace fa::stream {

namespace {
thread_local Beside* t_beside = nullptr;

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

/// The times of a pass with a job beside it: the first part's blocks, the last part's job and
/// blocks (each written by its own thread, read after the join).
struct PartTimes {
    double firstBlocks = 0.0, job = 0.0, lastBlocks = 0.0;
    void record(bool first, double jobSeconds, double blockSeconds) {
        if (first) {
            firstBlocks = blockSeconds;
        } else {
            job = jobSeconds;
            lastBlocks = blockSeconds;
        }
    }
};

/// The last part's blocks: the balance found so far, or at first half an equal share.
long besideBlocks(const Beside& beside, long blocks, int parts) {
    if (beside.lastBlocks < 0)
        return blocks / parts / 2;
    return std::min(beside.lastBlocks, blocks);
}

/// The blocks that balance the parts next time. With c seconds a block and S for the job, the
/// other parts take (B - L) c / (N - 1) and the last S + L c, which are equal at
///     L = (B c - (N - 1) S) / (N c);
/// the balance moves halfway there from the last, so one disturbed pass moves it little.
void rebalance(Beside& beside, const PartTimes& t, long blocks, int parts) {
    const long last = besideBlocks(beside, blocks, parts);
    const long first = (blocks - last) / (parts - 1);
    const double c = first > 0 ? t.firstBlocks / static_cast<double>(first)
                               : t.lastBlocks / static_cast<double>(std::max(last, 1L));
    beside.jobSeconds = t.job;
    beside.ran = true;
    if (!(c > 0.0))
        return;
    const double target = (static_cast<double>(blocks) * c - (parts - 1) * t.job) / (parts * c);
    const double next =
        std::clamp(0.5 * (static_cast<double>(last) + target), 0.0, static_cast<double>(blocks));
    beside.lastBlocks = std::lround(next);
}
} // namespace

BesideScope::BesideScope(Beside& beside) {
    beside.ran = false;
    t_beside = &beside;
}

BesideScope::~BesideScope() {
    t_beside = nullptr;
}

Beside* takeBeside() {
    Beside* b = t_beside;
    t_beside = nullptr;
    return b;
}

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
    // With a job beside the pass (core/fa/PassBeside.h) the last part takes `lastBlocks`
    // blocks and runs the job first; the other parts share the rest.
    Beside* beside = n > 1 ? takeBeside() : nullptr;
    const long lastBlocks = beside ? besideBlocks(*beside, nb, n) : 0;
    PartTimes times;
    struct Job {
        const Pass* pass;
        PassThreads* self;
        long blocks, lastBlocks;
        int parts;
        Beside* beside;
        PartTimes* times;
        long start(int j) const {
            if (!beside)
                return blocks * j / parts;
            return j == parts ? blocks : (blocks - lastBlocks) * j / (parts - 1);
        }
    } job{&pass, this, nb, lastBlocks, n, beside, &times};
    const std::function<void(int)> part = [&job](int j) {
        const bool last = job.beside && j == job.parts - 1;
        const auto t0 = Clock::now();
        if (last)
            job.beside->job();
        const auto t1 = Clock::now();
        const long rows = job.pass->dim, step = job.self->m_blockRows;
        for (long b = job.start(j); b < job.start(j + 1); ++b)
            stream::run(*job.pass, job.self->m_blockOut[static_cast<std::size_t>(b)], b * step,
                        (b + 1) * step < rows ? (b + 1) * step : rows);
        if (job.beside && (j == 0 || last))
            job.times->record(j == 0, seconds(t0, t1), seconds(t1, Clock::now()));
    };
    forkParts(n - 1, part);
    if (beside)
        rebalance(*beside, times, nb, n);

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
