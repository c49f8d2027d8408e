#include "ui/common/LabWorker.h"

#include <algorithm>
#include <limits>
#include <new>
#include <stdexcept>

namespace {

QString describe(const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return "not enough memory for this run";
    return QString::fromStdString(e.what());
}

} // namespace

LabWorker::LabWorker() : m_tick(this), m_poll(this) { // parented: moveToThread takes them along
    qRegisterMetaType<LabSnapshotPtr>();
    qRegisterMetaType<LabStats>();
    m_tick.setInterval(0); // slices back to back while playing; events still get through
    connect(&m_tick, &QTimer::timeout, this, &LabWorker::tick);
    m_poll.setInterval(40); // background work (batch refits) may finish while paused
    connect(&m_poll, &QTimer::timeout, this, &LabWorker::pollBackground);
}

void LabWorker::configure(const Factory& make, bool keepPlaying) {
    std::unique_ptr<fa::LiveRun> run;
    try {
        run = make(m_abandoned);
    } catch (const std::exception& e) {
        emit failed(describe(e)); // the previous run, playing or paused, is untouched
        return;
    }
    if (*m_abandoned) // the page went while the run was being built: it is never shown
        return;
    const bool wasPlaying = m_running && m_stopAt < 0;
    stopRunning();
    m_stopAt = -1;
    std::swap(m_run, run);
    run.reset(); // the old run (and any background work of it) ends here
    m_factory = make;
    m_lasting.clear(); // a new factory is made from the fields, which hold them
    m_rate = m_runSeconds = 0.0;
    m_playedUnits = 0;
    m_chunk = 1;
    emit started();
    publish(true);
    if (keepPlaying && wasPlaying)
        play();
}

void LabWorker::restart(bool keepPlaying) {
    if (!m_factory)
        return;
    const std::vector<Change> lasting = m_lasting; // configure() forgets them
    configure(m_factory, keepPlaying);
    for (const Change& change : lasting)
        apply(change, true);
}

void LabWorker::resetClocks() {
    m_rateClock.start();
    m_playClock.start();
    m_speedClock.start();
    m_rateBase = m_speedBase = m_playBase = m_run->position();
}

void LabWorker::play() {
    if (!m_run || m_run->finished())
        return;
    m_running = true;
    resetClocks();
    m_sincePublish.start();
    m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
    m_tick.start();
    publish(true);
}

void LabWorker::stopRunning() {
    m_tick.stop();
    if (m_running && m_run) {
        m_runSeconds += m_playClock.elapsed() / 1000.0;
        m_playedUnits += m_run->position() - m_playBase;
    }
    m_running = false;
}

void LabWorker::pause() {
    stopRunning();
    m_stopAt = -1;
    publish(true);
}

void LabWorker::step(long units) {
    if (!m_run || units < 1)
        return;
    stopRunning();
    m_stopAt = -1;
    try {
        m_run->step(units);
    } catch (const std::exception& e) {
        emit refused(describe(e));
    }
    publish(true);
}

void LabWorker::runUntil(long position) {
    if (!m_run) {
        emit halted("there is no run to play (the last one could not start)");
        return;
    }
    m_stopAt = position;
    if (m_run->position() >= position || m_run->finished()) {
        pause();
        emit reached(m_run->position(), position);
        return;
    }
    play();
}

void LabWorker::setSpeed(double unitsPerSecond) {
    m_speed = std::max(0.0, unitsPerSecond);
    if (m_run)
        m_speedBase = m_run->position();
    m_speedClock.start();
    if (m_running)
        m_tick.setInterval(m_speed > 0.0 && m_stopAt < 0 ? 5 : 0);
}

void LabWorker::apply(const Change& change, bool lasting) {
    if (!m_run)
        return;
    try {
        change(*m_run);
        if (lasting)
            m_lasting.push_back(change);
    } catch (const std::exception& e) {
        emit refused(describe(e));
    }
    publish(true);
}

void LabWorker::tick() {
    if (*m_abandoned) {
        m_tick.stop();
        return;
    }
    long budget = std::numeric_limits<long>::max();
    if (m_speed > 0.0 && m_stopAt < 0) // stay on the line position = base + speed * t
        budget = m_speedBase + static_cast<long>(m_speed * m_speedClock.elapsed() / 1000.0) -
                 m_run->position();
    if (m_stopAt >= 0)
        budget = std::min(budget, m_stopAt - m_run->position());
    QElapsedTimer slice;
    slice.start();
    try {
        while (budget > 0 && slice.elapsed() < 10) {
            QElapsedTimer call;
            call.start();
            const long done = m_run->advance(std::min(m_chunk, budget));
            if (done == 0 || *m_abandoned)
                break;
            budget -= done;
            // About a millisecond a call: long enough to amortise the loop, short enough that
            // a slice ends on time (an epoch of a large network is its own unit, whatever it
            // costs).
            const qint64 ns = call.nsecsElapsed();
            if (ns < 300'000 && m_chunk < (1L << 20))
                m_chunk *= 2;
            else if (ns > 3'000'000 && m_chunk > 1)
                m_chunk /= 2;
        }
    } catch (const std::exception& e) {
        pause();
        emit halted(describe(e));
        return;
    }
    if (*m_abandoned) // the page is going: the cut unit is neither shown nor counted
        return;
    if (m_rateClock.elapsed() >= 500) {
        m_rate = (m_run->position() - m_rateBase) * 1000.0 / m_rateClock.elapsed();
        m_rateBase = m_run->position();
        m_rateClock.restart();
    }
    const bool atTarget = m_stopAt >= 0 && m_run->position() >= m_stopAt;
    if (atTarget || m_run->finished()) {
        const long target = m_stopAt;
        pause();
        if (target >= 0) // there, or at the end of a run shorter than the target
            emit reached(m_run->position(), target);
        return;
    }
    publish(false);
}

void LabWorker::pollBackground() {
    if (!m_run || m_running) {
        m_poll.stop();
        return;
    }
    try {
        m_run->poll(); // a background refit's error (memory) arrives here
    } catch (const std::exception& e) {
        m_poll.stop();
        emit halted(describe(e));
        return;
    }
    if (!m_run->backgroundPending()) {
        m_poll.stop();
        publish(true);
    }
}

void LabWorker::publish(bool force) {
    if (!m_run || (!force && m_sincePublish.isValid() && m_sincePublish.elapsed() < 33))
        return;
    m_sincePublish.start();
    LabSnapshotPtr snapshot;
    try {
        snapshot = m_run->labSnapshot();
    } catch (const std::exception& e) { // a snapshot too large for the memory left
        stopRunning();
        emit halted(describe(e));
        return;
    }
    emit snapshotReady(std::move(snapshot));
    LabStats stats;
    stats.running = m_running;
    stats.position = m_run->position();
    stats.length = m_run->length();
    stats.unitsPerSecond = m_rate;
    stats.runSeconds = m_runSeconds + (m_running ? m_playClock.elapsed() / 1000.0 : 0.0);
    stats.unitsWhilePlaying = m_playedUnits + (m_running ? m_run->position() - m_playBase : 0);
    stats.backgroundPending = m_run->backgroundPending();
    emit statsChanged(stats);
    if (!m_running && m_run->backgroundPending() && !m_poll.isActive())
        m_poll.start();
}
