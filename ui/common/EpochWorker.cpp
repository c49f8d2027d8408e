#include "ui/common/EpochWorker.h"

#include <algorithm>
#include <limits>

EpochWorker::EpochWorker() : m_tick(this) { // parented: moveToThread takes it along
    m_tick.setInterval(0);
    connect(&m_tick, &QTimer::timeout, this, &EpochWorker::tick);
}

void EpochWorker::play() {
    if (!hasRun())
        return;
    m_running = true;
    m_speedBase = epoch();
    m_speedClock.start();
    m_sincePublish.start();
    m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
    m_tick.start();
    emit runningChanged(true);
}

void EpochWorker::stopRunning() {
    m_tick.stop();
    if (m_running)
        emit runningChanged(false);
    m_running = false;
}

void EpochWorker::stopForNewRun() {
    stopRunning();
    m_stopAt = -1;
}

void EpochWorker::pause() {
    stopForNewRun();
    publish(true);
}

void EpochWorker::step(long epochs) {
    if (!hasRun() || epochs < 1)
        return;
    stopForNewRun();
    advance(epochs);
    publish(true);
}

void EpochWorker::runUntil(long target) {
    if (!hasRun())
        return;
    m_stopAt = target;
    if (epoch() >= target) {
        pause();
        emit reachedEpoch(epoch());
        return;
    }
    play();
}

void EpochWorker::setSpeed(double epochsPerSecond) {
    m_speed = std::max(0.0, epochsPerSecond);
    if (hasRun())
        m_speedBase = epoch();
    m_speedClock.start();
    if (m_running)
        m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
}

void EpochWorker::tick() {
    long budget = std::numeric_limits<long>::max();
    if (m_speed > 0.0 && m_stopAt < 0) // stay on the line epochs = base + speed * t
        budget =
            m_speedBase + static_cast<long>(m_speed * m_speedClock.elapsed() / 1000.0) - epoch();
    if (m_stopAt >= 0)
        budget = std::min(budget, m_stopAt - epoch());
    QElapsedTimer slice;
    slice.start();
    while (budget-- > 0 && slice.elapsed() < 10)
        advance(1);
    if (m_stopAt >= 0 && epoch() >= m_stopAt) {
        m_stopAt = -1;
        stopRunning();
        publish(true);
        emit reachedEpoch(epoch());
        return;
    }
    publish(false);
}

void EpochWorker::publish(bool force) {
    if (!hasRun() || (!force && m_sincePublish.isValid() && m_sincePublish.elapsed() < 33))
        return;
    m_sincePublish.start();
    emitSnapshot();
}
