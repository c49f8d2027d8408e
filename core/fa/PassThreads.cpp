#include "core/fa/PassThreads.h"

#include <stdexcept>

namespace fa::stream {

PassThreads::PassThreads(int threads, long minRows) : m_threads(threads), m_minRows(minRows) {
    if (threads < 1)
        throw std::invalid_argument("a pass needs at least one thread");
    if (minRows < 0)
        throw std::invalid_argument("the rows a pass splits from must not be negative");
}

PassThreads::PassThreads(const PassThreads& other)
    : PassThreads(other.m_threads, other.m_minRows) {}

PassThreads& PassThreads::operator=(const PassThreads& other) {
    if (this != &other) {
        m_threads = other.m_threads;
        m_minRows = other.m_minRows;
        m_helpers.clear();
    }
    return *this;
}

PassThreads::~PassThreads() = default;

int PassThreads::parts(long rows) const {
    if (m_threads < 2 || rows < m_minRows)
        return 1;
    // Every part at least kSplitRowStep rows.
    const long most = rows / kSplitRowStep;
    return static_cast<int>(most < m_threads ? (most < 1 ? 1 : most) : m_threads);
}

long PassThreads::partStart(long rows, int parts, int j) {
    if (j >= parts)
        return rows;
    const long at = static_cast<long>(static_cast<double>(rows) * j / parts);
    return at / kSplitRowStep * kSplitRowStep;
}

void PassThreads::run(const EmPass& pass, PassOut& out) {
    const int n = parts(pass.dim);
    if (n == 1)
        stream::run(pass, out);
    else
        split(pass, out, n);
}

void PassThreads::run(const SgaPass& pass, PassOut& out) {
    const int n = parts(pass.dim);
    if (n == 1)
        stream::run(pass, out);
    else
        split(pass, out, n);
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

template <class Pass> void PassThreads::split(const Pass& pass, PassOut& out, int parts) {
    const auto K = static_cast<std::size_t>(pass.latent);
    const std::size_t extra = static_cast<std::size_t>(parts - 1);
    while (m_helpers.size() < extra)
        m_helpers.push_back(std::make_unique<ForkJoin>());
    m_partOut.resize(extra);
    m_partSums.assign(extra * (K * K + K), 0.0); // stays 0 in a pass that forms no sums
    for (std::size_t j = 0; j < extra; ++j) {
        m_partOut[j] = PassOut{};
        m_partOut[j].yy = m_partSums.data() + j * (K * K + K);
        m_partOut[j].yd = m_partOut[j].yy + K * K;
    }
    struct Job {
        const Pass* pass;
        PassOut* out;
        PassThreads* self;
        int parts;
    } job{&pass, &out, this, parts};
    const std::function<void(int)> part = [&job](int j) {
        PassOut& o = j == 0 ? *job.out : job.self->m_partOut[static_cast<std::size_t>(j - 1)];
        const long rows = job.pass->dim;
        stream::run(*job.pass, o, partStart(rows, job.parts, j), partStart(rows, job.parts, j + 1));
    };
    forkParts(parts - 1, part);

    // Part 0's sums are in out; the others follow in part order (the lower triangle of yy, the
    // part the pass writes).
    for (const PassOut& o : m_partOut) {
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
