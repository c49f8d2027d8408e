#include "PosteriorWorker.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

PosteriorWorker::PosteriorWorker() : m_tick(this) {
    qRegisterMetaType<PosteriorSnapshotPtr>();
    qRegisterMetaType<fa::PosteriorLiveConfig>();
    m_tick.setInterval(0);
    connect(&m_tick, &QTimer::timeout, this, &PosteriorWorker::tick);
}

fa::PosteriorLiveConfig PosteriorWorker::currentConfig() const {
    return m_live ? m_live->config() : fa::PosteriorLiveConfig{};
}

std::vector<fa::PosteriorRow> PosteriorWorker::currentRows() const {
    return m_live ? m_live->rows() : std::vector<fa::PosteriorRow>{};
}

void PosteriorWorker::configure(const fa::PosteriorLiveConfig& config) {
    stopRunning();
    m_stopAt = -1;
    try {
        auto live = std::make_unique<fa::PosteriorLive>(config);
        const int d = static_cast<int>(live->problem().dim());
        if (m_i >= d || m_j >= d || m_i == m_j)
            m_i = 0, m_j = 1;
        m_live = std::move(live);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what())); // the previous run, if any, stays
        return;
    }
    publish(true);
}

void PosteriorWorker::play() {
    if (!m_live)
        return;
    m_running = true;
    m_speedBase = m_live->epoch();
    m_speedClock.start();
    m_sincePublish.start();
    m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
    m_tick.start();
    emit runningChanged(true);
}

void PosteriorWorker::stopRunning() {
    m_tick.stop();
    if (m_running)
        emit runningChanged(false);
    m_running = false;
}

void PosteriorWorker::pause() {
    stopRunning();
    m_stopAt = -1;
    publish(true);
}

void PosteriorWorker::step(long epochs) {
    if (!m_live || epochs < 1)
        return;
    stopRunning();
    m_stopAt = -1;
    m_live->advance(epochs);
    publish(true);
}

void PosteriorWorker::runUntil(long epoch) {
    if (!m_live)
        return;
    m_stopAt = epoch;
    if (m_live->epoch() >= epoch) {
        pause();
        emit reachedEpoch(m_live->epoch());
        return;
    }
    play();
}

void PosteriorWorker::setSpeed(double epochsPerSecond) {
    m_speed = std::max(0.0, epochsPerSecond);
    if (m_live)
        m_speedBase = m_live->epoch();
    m_speedClock.start();
    if (m_running)
        m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
}

void PosteriorWorker::setSgdLearningRate(double eta) {
    try {
        if (m_live)
            m_live->setSgdLearningRate(eta);
    } catch (const std::invalid_argument& e) {
        emit refused(QString::fromStdString(e.what()));
    }
    publish(true);
}

void PosteriorWorker::setLambda(double lambda) {
    try {
        if (m_live)
            m_live->setLambda(lambda);
    } catch (const std::invalid_argument& e) {
        emit refused(QString::fromStdString(e.what()));
    }
    publish(true);
}

void PosteriorWorker::setCoordinates(int i, int j) {
    if (m_live) {
        const int d = static_cast<int>(m_live->problem().dim());
        if (i < 0 || j < 0 || i >= d || j >= d || i == j) {
            emit refused(QString("choose two different parameters between 1 and %1").arg(d));
            return;
        }
    }
    m_i = i;
    m_j = j;
    publish(true);
}

void PosteriorWorker::tick() {
    // ~10 ms slices, so pause, reset and quit are seen within a frame.
    QElapsedTimer slice;
    slice.start();
    long budget = std::numeric_limits<long>::max();
    if (m_speed > 0.0 && m_stopAt < 0)
        budget = m_speedBase + static_cast<long>(m_speed * m_speedClock.elapsed() / 1000.0) - m_live->epoch();
    if (m_stopAt >= 0)
        budget = std::min(budget, m_stopAt - m_live->epoch());
    while (budget > 0 && slice.elapsed() < 10) {
        m_live->advance(1);
        --budget;
    }
    if (m_stopAt >= 0 && m_live->epoch() >= m_stopAt) {
        m_stopAt = -1;
        stopRunning();
        publish(true);
        emit reachedEpoch(m_live->epoch());
        return;
    }
    publish(false);
}

void PosteriorWorker::publish(bool force) {
    if (!m_live || (!force && m_sincePublish.isValid() && m_sincePublish.elapsed() < 33))
        return;
    m_sincePublish.start();
    emit snapshotReady(std::make_shared<const fa::PosteriorLiveSnapshot>(m_live->snapshot(m_i, m_j)));
}
