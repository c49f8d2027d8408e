#pragma once
// A batch's large matrix products on two cores (docs/benchmarks.md, "Images"): one helper thread
// that sleeps on a condition variable between jobs (never spinning: the host may be shared), and
// splitRows / splitProduct, which cut a product's result rows in two and compute one half on the
// caller's thread and the other on the helper. Each entry of a product is then computed by the
// same kernel with the same sum over the inner dimension as in the whole product (the cut falls
// on a multiple of kSplitRowStep rows, a multiple of every register block of Eigen's kernels, so
// the rows meet the same kernels), and the results are bitwise those of one thread
// (tests/core/test_vae_speed.cpp checks this on the VAE's shapes and on whole fits). Header
// only: the engine's library lists its sources in core/CMakeLists.txt.
#include "core/math/Types.h"

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace fa {

class ForkJoin {
  public:
    ForkJoin();
    ~ForkJoin(); ///< stops and joins the helper
    ForkJoin(const ForkJoin&) = delete;
    ForkJoin& operator=(const ForkJoin&) = delete;
    /// Runs here() on this thread and there() on the helper; returns when both are done, and
    /// rethrows what either threw (here()'s first).
    void run(const std::function<void()>& here, const std::function<void()>& there);

  private:
    void loop();
    std::mutex m_lock;
    std::condition_variable m_wake, m_done;
    const std::function<void()>* m_job = nullptr;
    bool m_finished = false, m_stop = false;
    std::exception_ptr m_error;
    std::thread m_helper;
};

inline ForkJoin::ForkJoin() : m_helper([this] { loop(); }) {}

inline ForkJoin::~ForkJoin() {
    {
        const std::lock_guard<std::mutex> lock(m_lock);
        m_stop = true;
    }
    m_wake.notify_one();
    m_helper.join();
}

inline void ForkJoin::loop() {
    std::unique_lock<std::mutex> lock(m_lock);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || m_job; });
        if (m_stop)
            return;
        const std::function<void()>* job = m_job;
        lock.unlock();
        std::exception_ptr error;
        try {
            (*job)();
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        m_job = nullptr;
        m_error = error;
        m_finished = true;
        m_done.notify_one();
    }
}

inline void ForkJoin::run(const std::function<void()>& here, const std::function<void()>& there) {
    {
        const std::lock_guard<std::mutex> lock(m_lock);
        m_job = &there;
        m_finished = false;
        m_error = nullptr;
    }
    m_wake.notify_one();
    std::exception_ptr mine;
    try {
        here();
    } catch (...) {
        mine = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(m_lock);
    m_done.wait(lock, [this] { return m_finished; });
    if (mine)
        std::rethrow_exception(mine);
    if (m_error)
        std::rethrow_exception(m_error);
}

/// The cut falls on a multiple of this many rows.
constexpr Eigen::Index kSplitRowStep = 48;
/// Below this many multiply-adds a product stays on one thread (a wake-up costs microseconds).
constexpr double kSplitMinWork = 4e6;

/// f(first, count) over the rows [0, rows): once, on this thread, without fj, for fewer than
/// 2 kSplitRowStep rows or below kSplitMinWork; else for two halves, one on each thread.
template <class F> void splitRows(ForkJoin* fj, Eigen::Index rows, double work, F&& f) {
    if (!fj || rows < 2 * kSplitRowStep || work < kSplitMinWork) {
        f(Eigen::Index(0), rows);
        return;
    }
    const Eigen::Index half = rows / 2 / kSplitRowStep * kSplitRowStep;
    fj->run([&] { f(Eigen::Index(0), half); }, [&] { f(half, rows - half); });
}

/// dst = lhs rhs (dst already of its size), its rows split by splitRows.
template <class Dst, class Lhs, class Rhs>
void splitProduct(ForkJoin* fj, Dst&& dst, const Lhs& lhs, const Rhs& rhs) {
    const double work = double(lhs.rows()) * double(lhs.cols()) * double(rhs.cols());
    splitRows(fj, dst.rows(), rhs.cols() < 8 ? 0.0 : work,
              [&](Eigen::Index first, Eigen::Index count) {
                  dst.middleRows(first, count).noalias() = lhs.middleRows(first, count) * rhs;
              });
}

/// Work buffers of splitProductFloat, one set per half (reused: no allocation once sized).
struct FloatProductBuffers {
    Eigen::MatrixXf rhs, lhs[2], out[2];
};

/// dst = lhs rhs with the product in single precision (the operands rounded to float, the
/// result widened back), its rows split by splitRows: about twice the speed of the double
/// product on AVX2, with float's rounding (relative errors ~1e-7 per entry times the inner
/// dimension's growth). The halves' results equal one thread's, as for splitProduct.
template <class Dst, class Lhs, class Rhs>
void splitProductFloat(ForkJoin* fj, Dst&& dst, const Lhs& lhs, const Rhs& rhs,
                       FloatProductBuffers& buffers) {
    const double work = double(lhs.rows()) * double(lhs.cols()) * double(rhs.cols());
    buffers.rhs = rhs.template cast<float>();
    splitRows(fj, dst.rows(), rhs.cols() < 8 ? 0.0 : work,
              [&](Eigen::Index first, Eigen::Index count) {
                  const int half = first == 0 ? 0 : 1;
                  Eigen::MatrixXf& l = buffers.lhs[half];
                  Eigen::MatrixXf& o = buffers.out[half];
                  l = lhs.middleRows(first, count).template cast<float>();
                  o.noalias() = l * buffers.rhs;
                  dst.middleRows(first, count) = o.template cast<double>();
              });
}

} // namespace fa
