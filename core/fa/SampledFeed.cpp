#include "core/fa/SampledFeed.h"

namespace fa {

SampledFeed::SampledFeed(const FAModel& truth) : m_sampler(truth) {
    m_x[0].resize(truth.dim());
    m_x[1].resize(truth.dim());
    m_beside.job = [this] { m_sampler.draw(*m_rng, m_x[m_next]); };
}

void SampledFeed::feed(OnlineFitter& fitter, Rng& rng, long n) {
    if (n <= 0)
        return;
    m_rng = &rng;
    if (fitter.passParts() < 2) {
        for (long i = 0; i < n; ++i) {
            m_sampler.draw(rng, m_x[0]);
            fitter.observe(m_x[0]);
        }
        return;
    }
    // x_i in m_x[i % 2]; x_{i+1} is drawn beside x_i's pass, none after the last.
    m_sampler.draw(rng, m_x[0]);
    for (long i = 0; i + 1 < n; ++i) {
        m_next = static_cast<int>((i + 1) % 2);
        {
            const stream::BesideScope scope(m_beside);
            fitter.observe(m_x[i % 2]);
        }
        if (!m_beside.ran) // no split pass ran it (a diverged fitter makes no pass)
            m_beside.job();
    }
    fitter.observe(m_x[(n - 1) % 2]);
}

} // namespace fa
