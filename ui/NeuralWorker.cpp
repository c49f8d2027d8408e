#include "NeuralWorker.h"

#include <algorithm>
#include <limits>

NeuralWorker::NeuralWorker() : m_tick(this) {
    qRegisterMetaType<NeuralSnapshotPtr>();
    qRegisterMetaType<fa::NeuralLiveConfig>();
    qRegisterMetaType<fa::NeuralConfig>();
    qRegisterMetaType<fa::NeuralRow>();
    m_tick.setInterval(0);
    connect(&m_tick, &QTimer::timeout, this, &NeuralWorker::tick);
}

NeuralWorker::~NeuralWorker() {
    m_cancel = true;
    if (m_splits.joinable())
        m_splits.join();
}

void NeuralWorker::configure(const fa::NeuralLiveConfig& config) {
    stopRunning();
    m_stopAt = -1;
    try {
        m_live = std::make_unique<fa::NeuralLive>(config);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what())); // the previous run, if any, stays
        return;
    }
    publish(true);
}

void NeuralWorker::play() {
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

void NeuralWorker::stopRunning() {
    m_tick.stop();
    if (m_running)
        emit runningChanged(false);
    m_running = false;
}

void NeuralWorker::pause() {
    stopRunning();
    m_stopAt = -1;
    publish(true);
}

void NeuralWorker::step(long epochs) {
    if (!m_live || epochs < 1)
        return;
    stopRunning();
    m_stopAt = -1;
    m_live->advance(epochs);
    publish(true);
}

void NeuralWorker::runUntil(long epoch) {
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

void NeuralWorker::setSpeed(double epochsPerSecond) {
    m_speed = std::max(0.0, epochsPerSecond);
    if (m_live)
        m_speedBase = m_live->epoch();
    m_speedClock.start();
    if (m_running)
        m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
}

void NeuralWorker::tick() {
    // One epoch at a time, so pause and quit are seen within an epoch (a few ms for these sizes).
    long budget = std::numeric_limits<long>::max();
    if (m_speed > 0.0 && m_stopAt < 0)
        budget = m_speedBase + static_cast<long>(m_speed * m_speedClock.elapsed() / 1000.0) - m_live->epoch();
    if (m_stopAt >= 0)
        budget = std::min(budget, m_stopAt - m_live->epoch());
    QElapsedTimer slice;
    slice.start();
    while (budget-- > 0 && slice.elapsed() < 10)
        m_live->advance(1);
    if (m_stopAt >= 0 && m_live->epoch() >= m_stopAt) {
        m_stopAt = -1;
        stopRunning();
        publish(true);
        emit reachedEpoch(m_live->epoch());
        return;
    }
    publish(false);
}

void NeuralWorker::publish(bool force) {
    if (!m_live || (!force && m_sincePublish.isValid() && m_sincePublish.elapsed() < 33))
        return;
    m_sincePublish.start();
    emit snapshotReady(std::make_shared<const fa::NeuralLiveSnapshot>(m_live->snapshot()));
}

void NeuralWorker::runSplits(const fa::NeuralConfig& config) {
    cancelSplits();
    m_cancel = false;
    // The protocol runs on its own thread (it uses config.threads more for the search); rows
    // come back through queued signals.
    m_splits = std::thread([this, config] {
        QString error;
        int done = 0;
        const int total = config.splits * static_cast<int>(config.methods.size());
        try {
            fa::runNeural(
                config,
                [&](const fa::NeuralRow& row) {
                    emit splitRow(row);
                    emit splitProgress(++done, total, "");
                },
                [&](const fa::NeuralProgress& p) {
                    emit splitProgress(done, total,
                                       QString("split %1/%2, %3: %4")
                                           .arg(p.split + 1)
                                           .arg(p.splits)
                                           .arg(QString::fromStdString(p.method), QString::fromStdString(p.stage)));
                },
                &m_cancel);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        emit splitsFinished(m_cancel.load(), error);
    });
}

void NeuralWorker::cancelSplits() {
    m_cancel = true;
    if (m_splits.joinable())
        m_splits.join();
}
