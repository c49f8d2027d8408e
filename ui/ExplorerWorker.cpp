#include "ExplorerWorker.h"

#include <algorithm>
#include <stdexcept>

ExplorerWorker::ExplorerWorker() : m_tick(this) { // parented, so moveToThread takes the timer along
    qRegisterMetaType<SnapshotPtr>();
    qRegisterMetaType<fa::ExplorerConfig>();
    qRegisterMetaType<WorkerStats>();
    m_tick.setInterval(0); // run chunks back to back while playing; events still get through
    connect(&m_tick, &QTimer::timeout, this, &ExplorerWorker::tick);
}

void ExplorerWorker::configure(const fa::ExplorerConfig& config) {
    m_tick.stop();
    m_running = false;
    m_stopAt = -1;
    try {
        m_explorer = std::make_unique<fa::LiveExplorer>(config);
    } catch (const std::exception& e) {
        m_explorer.reset();
        emit failed(QString::fromStdString(e.what()));
        return;
    }
    m_rate = 0.0;
    publish(true);
}

void ExplorerWorker::play() {
    if (!m_explorer || m_explorer->finished())
        return;
    m_running = true;
    m_rateClock.start();
    m_rateSamples = m_explorer->samples();
    m_sincePublish.start();
    m_tick.start();
}

void ExplorerWorker::pause() {
    m_tick.stop();
    m_running = false;
    m_stopAt = -1;
    publish(true);
}

void ExplorerWorker::step(long n) {
    if (!m_explorer)
        return;
    m_tick.stop();
    m_running = false;
    m_explorer->advance(n);
    publish(true);
}

void ExplorerWorker::runUntil(long samples) {
    if (!m_explorer)
        return;
    m_stopAt = samples;
    play();
}

void ExplorerWorker::setLearningRate(double eta) {
    if (m_explorer && eta > 0.0)
        m_explorer->setLearningRate(eta);
}

void ExplorerWorker::tick() {
    // Work in ~10 ms slices so pause, reset and quit are seen within a frame.
    QElapsedTimer slice;
    slice.start();
    long chunk = 64;
    while (slice.elapsed() < 10) {
        if (m_stopAt >= 0)
            chunk = std::min(chunk, m_stopAt - m_explorer->samples());
        if (chunk <= 0 || m_explorer->advance(chunk) == 0)
            break;
    }
    const bool stop = m_explorer->finished() || (m_stopAt >= 0 && m_explorer->samples() >= m_stopAt);
    if (m_rateClock.elapsed() >= 500) {
        m_rate = (m_explorer->samples() - m_rateSamples) * 1000.0 / m_rateClock.elapsed();
        m_rateSamples = m_explorer->samples();
        m_rateClock.restart();
    }
    if (stop) {
        pause();
        return;
    }
    publish(false);
}

void ExplorerWorker::publish(bool force) {
    if (!m_explorer || (!force && m_sincePublish.isValid() && m_sincePublish.elapsed() < 33))
        return;
    m_sincePublish.start();
    emit snapshotReady(std::make_shared<const fa::ExplorerSnapshot>(m_explorer->snapshot()));
    emit statsChanged({m_rate, m_running});
}
