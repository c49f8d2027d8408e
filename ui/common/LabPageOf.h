#pragma once
// A lab's page typed by its run (issue 26 item 2): every lab's page derives from it. Run has
// Run(config, fa::AbandonFlag) and config(); Snapshot is its LabSnapshotOf<Config>. It owns what
// every page did by hand with casts: the typed latest snapshot and drawing, typed live changes,
// reset() and starting a run from a configuration, putting the fields back after a refused one,
// Ctrl+E of the run's rows, File → Open and Save of a session {config, speed, position} (Files:
// the lab's fa::io::SessionFiles; void, no sessions or the page's own), and Open CSV's dialog.
// The page keeps its controls, views and layout.
#include "ui/common/LabPage.h"
#include "ui/common/ParamFields.h"
#include "ui/common/PlaneCombos.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QSpinBox>
#include <memory>
#include <optional>

class QComboBox;

/// Shows `path` as the data set after the `builtin` built-in entries of a data-set box (one CSV
/// entry, "CSV: name", reused by the next file) and selects it.
void showCsvChoice(QComboBox* datasets, int builtin, const QString& path);

template <class Run, class Snapshot, class Files = void> class LabPageOf : public LabPage {
  public:
    using Config = std::decay_t<decltype(std::declval<const Run&>().config())>;
    using SnapshotPtr = std::shared_ptr<const Snapshot>;
    using LabPage::LabPage;

    SnapshotPtr latestSnapshot() const {
        return std::static_pointer_cast<const Snapshot>(latestLabSnapshot());
    }
    /// The run the controls describe.
    virtual Config config() const = 0;
    /// Sets every control from a configuration (sessions, a refused change, tests); no run
    /// starts.
    virtual void setConfig(const Config& config) = 0;
    /// A new run from the controls, at the speed of the speed field (if any).
    void reset() override {
        if (const QSpinBox* speed = speedBox())
            setSpeed(speed->value());
        start(config());
    }
    /// Uses a CSV file as the page's data (Open CSV…); false and a message if refused.
    virtual bool openCsv(const QString&) { return false; }
    /// File → Open and Save of the lab's sessions, when it names its Files.
    bool openSession(const QString& path) override {
        if constexpr (std::is_void_v<Files>)
            return LabPage::openSession(path);
        else
            return openSessionFile(path, Files::load, &Files::Session::position, speedBox(),
                                   unitName() + "s");
    }
    bool saveSession(const QString& path) override {
        if constexpr (std::is_void_v<Files>)
            return LabPage::saveSession(path);
        else
            return saveSessionFile(path, Files::save, &Files::Session::position, speedBox());
    }
    void openCsvDialog() override {
        const QString path =
            QFileDialog::getOpenFileName(this, "Open data", {}, "CSV files (*.csv);;All files (*)");
        if (!path.isEmpty() && !openCsv(path))
            QMessageBox::warning(this, "Open CSV",
                                 m_lastError + "\n\nThe current run is unchanged.");
    }

  protected:
    /// Draws the lab's snapshot (called at most ~30 times a second while in view).
    virtual void draw(const Snapshot& snapshot) = 0;
    /// After a refused configuration the controls were set back to the running one.
    virtual void configRestored() {}

    /// A run of this configuration (a page whose run needs more, a view, overrides it).
    virtual void start(const Config& config, Start how = Start::KeepPlaying) {
        startRun(
            [config](const fa::AbandonFlag& abandon) {
                return std::make_unique<Run>(config, abandon);
            },
            how);
    }
    /// A live change of the typed run (see LabPage::changeRun).
    template <class F> void change(F f, Lasting lasting = Lasting::No) {
        changeRun([f = std::move(f)](fa::LiveRun& run) { f(static_cast<Run&>(run)); }, lasting);
    }
    /// The configuration of the run that goes on, with its live changes (none without a run),
    /// as its latest snapshot carries it: the worker is never asked (it may be in the middle of
    /// a long epoch).
    std::optional<Config> runningConfig() const {
        if (const SnapshotPtr latest = latestSnapshot())
            return latest->config;
        return std::nullopt;
    }
    /// The plane boxes of `axes` move the run's view (Run::setView), a change sessions keep;
    /// not while `quiet` (the page filling the boxes from a snapshot).
    void connectPlane(PlanePicker& axes, const bool& quiet) {
        for (QComboBox* box : {axes.x(), axes.y()})
            connect(box, &QComboBox::currentIndexChanged, this, [this, &axes, &quiet, box] {
                if (quiet)
                    return;
                const auto [x, y] = axes.sync(box);
                change([x, y](Run& run) { run.setView(x, y); }, Lasting::Yes);
            });
    }
    /// The run-length field makes the run longer or shorter from where it stands
    /// (Run::setLength), a change sessions keep; not while `quiet`. A length below the units
    /// already run ends the run where it stands (the worker may be a few units past the latest
    /// snapshot): once a snapshot shows where it ended, the field shows that length and the
    /// status bar says why (the field kept 20 beside "epoch 43 of 43").
    void connectLength(QAbstractSpinBox* length, const bool& quiet) {
        m_lengthField = length;
        onFieldChanged(length, this, [this, &quiet](double units) {
            if (quiet)
                return;
            const auto n = static_cast<long>(units);
            const SnapshotPtr latest = latestSnapshot();
            m_lengthAsked = latest && n < latest->position ? n : -1;
            change([n](Run& run) { run.setLength(n); }, Lasting::Yes);
        });
    }
    /// Ctrl+E of the rows the latest snapshot carries (the CLI's columns), written by
    /// write(out, rows); refused without a run.
    template <class Write> bool exportRows(const QString& path, Write write) {
        const SnapshotPtr latest = latestSnapshot();
        return LabPage::exportRows(latest ? &latest->rows : nullptr, path, write);
    }
    void runFailed(const QString& why) override {
        LabPage::runFailed(why);
        // The controls show the run that goes on: the refused value is put back, as a field
        // does with a number outside its range (the status bar says what and why).
        if (const auto running = runningConfig()) {
            setConfig(*running);
            configRestored();
            redrawNow();
        }
    }
    /// File → Open of a session {config, speed, position}: read (the reader attaches the data
    /// loader) and checked by building a run before anything changes; then the controls, the speed
    /// box and a paused run replaying to the saved position.
    template <class Session, class Load>
    bool openSessionFile(const QString& path, Load load, long Session::*position, QSpinBox* speed,
                         const QString& units) {
        const std::optional<Session> s = readSession<Session>(path, load, true);
        if (!s)
            return false;
        replaySession(s->config, s->speed, (*s).*position, speed, path, units);
        return true;
    }
    /// A session file read (and, with `probe`, checked by building its run); on failure says
    /// why ("Cannot open the session") and nothing changes.
    template <class Session, class Load>
    std::optional<Session> readSession(const QString& path, Load load, bool probe) {
        try {
            const Session s = load(path);
            if (probe)
                const Run run(s.config);
            return s;
        } catch (const std::exception& e) {
            fail("Cannot open the session", QString::fromUtf8(e.what()));
            return std::nullopt;
        }
    }
    /// The controls, the speed box and a paused run replaying to `position` (a session opened).
    void replaySession(const Config& config, double unitsPerSecond, long position, QSpinBox* speed,
                       const QString& path, const QString& units) {
        setConfig(config);
        speed->setValue(static_cast<int>(unitsPerSecond));
        m_sessionPosition = position;
        start(config, Start::Paused);
        setSpeed(unitsPerSecond);
        if (position > 0)
            runUntil(position);
        emit message(QString("Opened %1 (replaying %2 %3)")
                         .arg(QDir::toNativeSeparators(path))
                         .arg(position)
                         .arg(units),
                     8000);
    }
    /// File → Save of the running run's configuration, the speed and the position reached.
    /// `fill` adds what else the page's sessions hold (the explorer's view).
    template <class Session, class Save>
    bool saveSessionFile(const QString& path, Save save, long Session::*position,
                         const QSpinBox* speed, const std::function<void(Session&)>& fill = {}) {
        const SnapshotPtr latest = latestSnapshot();
        if (!latest) {
            fail("Cannot save the session", "there is no run (its parameters were refused)");
            return false;
        }
        Session s;
        s.speed = speed->value();
        s.*position = latest->position;
        s.config = latest->config;
        if (fill)
            fill(s);
        try {
            save(path, s);
        } catch (const std::exception& e) {
            fail("Cannot save the session", QString::fromUtf8(e.what()));
            return false;
        }
        emit message("Saved " + QDir::toNativeSeparators(path), 5000);
        return true;
    }

  private:
    void showSnapshot(const fa::LabSnapshot& snapshot) final {
        if (m_lengthAsked >= 0 && snapshot.length > m_lengthAsked &&
            snapshot.position >= snapshot.length) // the run ended where it stood (connectLength)
            endedAboveTheAskedLength(snapshot.length);
        draw(static_cast<const Snapshot&>(snapshot));
    }
    void endedAboveTheAskedLength(long ended) {
        emit message(QString("%1 %2s had run already, more than %3: the run ends where it stands")
                         .arg(ended)
                         .arg(unitName())
                         .arg(m_lengthAsked),
                     8000);
        m_lengthAsked = -1;
        const QSignalBlocker quietly(m_lengthField);
        setFieldValue(m_lengthField, double(ended));
    }

    QAbstractSpinBox* m_lengthField = nullptr; ///< connectLength's field
    long m_lengthAsked = -1; ///< a length typed below the position, until the run shows its end
};
