#include "ui/explorer/ExplorerWorker.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

ExplorerWorker::ExplorerWorker()
    : m_tick(this), m_batchPoll(this) { // parented: moveToThread takes them along
    qRegisterMetaType<SnapshotPtr>();
    qRegisterMetaType<fa::ExplorerConfig>();
    qRegisterMetaType<fa::ViewOptions>();
    qRegisterMetaType<WorkerStats>();
    m_tick.setInterval(0); // run slices back to back while playing; events still get through
    connect(&m_tick, &QTimer::timeout, this, &ExplorerWorker::tick);
    m_batchPoll.setInterval(40); // a background batch refit may finish while paused
    connect(&m_batchPoll, &QTimer::timeout, this, &ExplorerWorker::pollBatch);
}

void ExplorerWorker::configure(const fa::ExplorerConfig& config, const fa::ViewOptions& view) {
    stopRunning();
    m_stopAt = -1;
    m_explorer.reset(); // cancels its batch refit first
    try {
        auto explorer = std::make_unique<fa::LiveExplorer>(config);
        try {
            explorer->setView(view);
        } catch (const std::invalid_argument&) {
            // coordinates from a larger D: keep the explorer's default view
        }
        m_explorer = std::move(explorer);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
        return;
    }
    m_rate = m_runSeconds = 0.0;
    m_playedSamples = 0;
    publish(true);
}

void ExplorerWorker::play() {
    if (!m_explorer || m_explorer->finished())
        return;
    m_running = true;
    m_rateClock.start();
    m_playClock.start();
    m_speedClock.start();
    m_rateSamples = m_speedBase = m_playStartSamples = m_explorer->samples();
    m_sincePublish.start();
    m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
    m_tick.start();
    publish(true);
}

void ExplorerWorker::stopRunning() {
    m_tick.stop();
    if (m_running && m_explorer) {
        m_runSeconds += m_playClock.elapsed() / 1000.0;
        m_playedSamples += m_explorer->samples() - m_playStartSamples;
    }
    m_running = false;
}

void ExplorerWorker::pause() {
    stopRunning();
    m_stopAt = -1;
    publish(true);
}

void ExplorerWorker::step(long n) {
    if (!m_explorer || n < 1)
        return;
    stopRunning();
    m_stopAt = -1;
    m_explorer->advance(n - 1);
    m_explorer->stepTraced(); // the display explains the last observation of the step
    publish(true);
}

void ExplorerWorker::runUntil(long samples) {
    if (!m_explorer)
        return;
    m_stopAt = samples;
    if (m_explorer->samples() >= samples || m_explorer->finished()) {
        pause();
        return;
    }
    play();
}

void ExplorerWorker::setLearningRate(double eta) {
    try {
        if (m_explorer)
            m_explorer->setLearningRate(eta);
    } catch (const std::invalid_argument& e) {
        emit refused(QString::fromStdString(e.what()));
    }
}

void ExplorerWorker::setSpeed(double obsPerSecond) {
    m_speed = std::max(0.0, obsPerSecond);
    if (m_explorer) {
        m_speedBase = m_explorer->samples();
        m_speedClock.start();
    }
    if (m_running)
        m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
}

void ExplorerWorker::setView(const fa::ViewOptions& view) {
    if (!m_explorer)
        return;
    try {
        m_explorer->setView(view);
    } catch (const std::invalid_argument& e) {
        emit refused(QString::fromStdString(e.what()));
    }
    publish(true);
}

void ExplorerWorker::tick() {
    // Work in ~10 ms slices so pause, reset and quit are seen within a frame.
    QElapsedTimer slice;
    slice.start();
    long budget = std::numeric_limits<long>::max();
    if (m_speed > 0.0 && m_stopAt < 0) // obs/s limit: stay on the line samples = base + speed * t
        budget = m_speedBase + static_cast<long>(m_speed * m_speedClock.elapsed() / 1000.0) -
                 m_explorer->samples();
    if (m_stopAt >= 0)
        budget = std::min(budget, m_stopAt - m_explorer->samples());
    long chunk = 64;
    while (budget > 0 && slice.elapsed() < 10) {
        const long done = m_explorer->advance(std::min(chunk, budget));
        if (done == 0)
            break;
        budget -= done;
    }
    const bool stop =
        m_explorer->finished() || (m_stopAt >= 0 && m_explorer->samples() >= m_stopAt);
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

void ExplorerWorker::pollBatch() {
    if (!m_explorer || m_running) {
        m_batchPoll.stop();
        return;
    }
    m_explorer->poll();
    if (!m_explorer->batchPending()) {
        m_batchPoll.stop();
        publish(true);
    }
}

void ExplorerWorker::publish(bool force) {
    if (!m_explorer || (!force && m_sincePublish.isValid() && m_sincePublish.elapsed() < 33))
        return;
    m_sincePublish.start();
    emit snapshotReady(std::make_shared<const fa::ExplorerSnapshot>(m_explorer->snapshot()));
    WorkerStats stats;
    stats.obsPerSecond = m_rate;
    stats.running = m_running;
    stats.runSeconds = m_runSeconds + (m_running ? m_playClock.elapsed() / 1000.0 : 0.0);
    stats.samplesWhilePlaying =
        m_playedSamples + (m_running ? m_explorer->samples() - m_playStartSamples : 0);
    emit statsChanged(stats);
    if (!m_running && m_explorer->batchPending() && !m_batchPoll.isActive())
        m_batchPoll.start();
}
