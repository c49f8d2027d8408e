#include "ui/common/LabPage.h"

#include "core/io/AtomicFile.h"
#include "core/io/RegressionCsv.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/WidgetExport.h"

#include <QDir>
#include <exception>

LabPage::LabPage(QWidget* parent, LabFacts facts)
    : QWidget(parent), m_facts(std::move(facts)), m_worker(new LabWorker) {
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LabWorker::snapshotReady, this, [this](LabSnapshotPtr s) {
        m_latest = std::move(s); // a newer snapshot simply replaces a pending one
        m_dirty = true;
    });
    connect(m_worker, &LabWorker::statsChanged, this, [this](LabStats stats) {
        const bool was = m_stats.running;
        m_stats = stats;
        if (was != stats.running)
            emit runningChanged(stats.running);
        emit statusChanged();
    });
    connect(m_worker, &LabWorker::started, this, [this] {
        if (m_warningShown) { // a refusal's warning is stale once a run from good values starts
            m_warningShown = false;
            emit message(QString(), 1);
        }
        runStarted();
    });
    connect(m_worker, &LabWorker::failed, this, [this](const QString& why) {
        runFailed(why);
        m_waitFor = -1; // a run-until for the run that did not start ends here
        emit runError(why);
    });
    connect(m_worker, &LabWorker::halted, this, [this](const QString& why) {
        fail("The run stopped", why);
        m_waitFor = -1;
        emit runError(why);
    });
    connect(m_worker, &LabWorker::refused, this,
            [this](const QString& why) { emit message("Refused: " + why, 8000); });
    connect(m_worker, &LabWorker::reached, this, [this](long position, long target) {
        // Only the runUntil asked for last: a late answer to an earlier one (a session's replay
        // still running when a recording starts) is not this one.
        if (m_waitFor >= 0 && target == m_waitFor) {
            m_waitFor = -1;
            redrawNow();
            emit reached(position);
        }
    });
    m_thread.start();
    m_redraw.setInterval(33); // at most ~30 redraws a second, whatever the worker does
    connect(&m_redraw, &QTimer::timeout, this, &LabPage::redraw);
    m_redraw.start();
}

LabPage::~LabPage() {
    // The run ends at its next mini-batch (a long epoch is cut), then the worker's event loop.
    m_worker->abandon();
    m_thread.quit();
    m_thread.wait();
}

void LabPage::startRun(LabWorker::Factory make, Start how) {
    m_lastError.clear();
    m_waitFor = -1;
    post([make = std::move(make), keep = how == Start::KeepPlaying](LabWorker& w) {
        w.configure(make, keep);
    });
}

void LabPage::changeRun(LabWorker::Change change, Lasting lasting) {
    post([change = std::move(change), keep = lasting == Lasting::Yes](LabWorker& w) {
        w.apply(change, keep);
    });
}

void LabPage::restartRun(Start how) {
    m_waitFor = -1;
    post([keep = how == Start::KeepPlaying](LabWorker& w) { w.restart(keep); });
}

bool LabPage::finished() const {
    return m_latest && m_latest->length > 0 && m_latest->position >= m_latest->length;
}

QString LabPage::playState() const {
    return m_stats.running ? "running" : finished() ? "finished" : "paused";
}

void LabPage::setSpeed(double unitsPerSecond) {
    post([unitsPerSecond](LabWorker& w) { w.setSpeed(unitsPerSecond); });
}

void LabPage::togglePlay() {
    if (m_stats.running)
        post([](LabWorker& w) { w.pause(); });
    else if (finished())
        emit message(QString("The run is finished (%1 of %1); Reset (Ctrl+R) starts it again, "
                             "or give it more in its length field")
                         .arg(m_latest->length),
                     8000);
    else
        post([](LabWorker& w) { w.play(); });
}

void LabPage::stepOnce() {
    post([n = stepSize()](LabWorker& w) { w.step(n); });
}

void LabPage::runUntil(long position) {
    m_waitFor = position;
    post([position](LabWorker& w) { w.runUntil(position); });
}

void LabPage::runFailed(const QString& why) {
    fail("Cannot start this run", why + " (the previous run is kept)");
}

bool LabPage::openSession(const QString&) {
    fail("Cannot open the session", "this lab has no sessions");
    return false;
}

bool LabPage::saveSession(const QString&) {
    fail("Cannot save a session", "this lab has no sessions; export its results instead (Ctrl+E)");
    return false;
}

bool LabPage::exportCurves(const QString&) {
    fail("Cannot export", "this lab has no curves to export");
    return false;
}

bool LabPage::exportTable(const QString& table, const QString&) {
    fail("Cannot export", QString("this lab has no table '%1'").arg(table));
    return false;
}

bool LabPage::exportJob(const QString&) {
    fail("Cannot export", "this lab has no background results");
    return false;
}

void LabPage::saveSettings(QSettings&) const {}

void LabPage::restoreSettings(QSettings&) {}

bool LabPage::writeCsv(const QString& path, const QString& what,
                       const std::function<void(std::ostream&)>& write) {
    try {
        fa::io::AtomicFile file(path.toStdString(), fa::io::FifoReader::Refuse);
        write(file.stream());
        file.commit();
    } catch (const std::exception& e) {
        fail("Cannot export " + what, QString::fromUtf8(e.what()));
        return false;
    }
    emit message("Exported " + what + " to " + QDir::toNativeSeparators(path), 5000);
    return true;
}

void LabPage::fail(const QString& what, const QString& why) {
    m_lastError = what + ": " + why;
    m_warningShown = true;
    emit message("⚠ " + m_lastError, 15000);
}

bool LabPage::regressionCsvReadable(const QString& path) {
    try {
        fa::io::loadRegressionCsv(path.toStdString());
    } catch (const std::exception& e) {
        fail("Cannot use this CSV file", QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

void LabPage::redraw() {
    if (!m_dirty || !m_latest || (window()->isVisible() && !isVisible()))
        return; // a page on a hidden tab is drawn when it is shown again
    redrawNow();
}

void LabPage::redrawNow() {
    if (!m_latest)
        return;
    m_dirty = false;
    showSnapshot(*m_latest);
    emit statusChanged();
}

QStringList LabPage::statusTexts() const {
    if (!m_latest)
        return {m_lastError.isEmpty() ? QString() : "⚠ " + m_lastError, {}, {}, {}};
    const fa::LabSnapshot& s = *m_latest;
    const QString status = QString::fromStdString(s.status);
    switch (m_facts.status) {
    case StatusStyle::Unit:
        return {QString("%1 %2").arg(m_facts.unitName).arg(s.position), playState(), {}, status};
    case StatusStyle::UnitOfLength:
        return {QString("%1 %2 of %3").arg(m_facts.unitName).arg(s.position).arg(s.length),
                playState(), QString("%1 s").arg(m_stats.runSeconds, 0, 'f', 1), status};
    case StatusStyle::Rate:
        break;
    }
    const QString position = s.length > 0 ? QString("%1 / %2").arg(s.position).arg(s.length)
                                          : QString::number(s.position);
    return {position,
            m_stats.running ? QString("%1 /s").arg(m_stats.unitsPerSecond, 0, 'f', 0) : playState(),
            QString("%1 s").arg(m_stats.runSeconds, 0, 'f', 1), status};
}

QStringList LabPage::exportCharts(const QString& folder, int width) {
    const QDir dir(folder);
    QStringList written;
    if (!dir.exists()) {
        fail("Cannot export the charts", QString("the folder '%1' does not exist").arg(folder));
        return written;
    }
    // Every chart, and the whole page as the lab shows it.
    auto pictures = charts();
    pictures.emplace_back(objectName().isEmpty() ? QString("page") : objectName() + "-page", this);
    for (const auto& [name, widget] : pictures) {
        const QString png = dir.filePath(name + ".png"), svg = dir.filePath(name + ".svg");
        QString why;
        if (!widget_export::savePng(widget, png, width, &why)) {
            fail("Cannot export the charts", why);
            return written;
        }
        written << png;
        if (!widget_export::saveSvg(widget, svg, "FA Explorer: " + name, &why)) {
            fail("Cannot export the charts", why);
            return written;
        }
        written << svg;
    }
    emit message(QString("Exported %1 files to %2")
                     .arg(written.size())
                     .arg(QDir::toNativeSeparators(folder)),
                 8000);
    return written;
}

QSpinBox* LabPage::speedBox() const {
    return m_speed;
}

long LabPage::stepSize() const {
    return m_step ? m_step->value() : 1;
}

void LabPage::makeRunFields(int speed, int step, const QString& units, const QString& stepTip) {
    const QString unitsTitle = units.left(1).toUpper() + units.mid(1);
    m_speed = intBox(0, 100000, speed,
                     unitsTitle + " per second while playing; 0 = as fast as possible.");
    m_speed->setSpecialValueText("as fast as possible");
    m_speed->setObjectName("speed"); // the toolbar's speed box mirrors it
    m_speed->setSuffix(" " + units + "/s");
    m_step = intBox(1, 100000, step, stepTip);
    connect(m_speed, &QSpinBox::valueChanged, this, [this](int v) { setSpeed(v); });
}
