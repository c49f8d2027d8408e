#pragma once
// The base of every lab's page: owns the lab's worker thread (a LabWorker driving the lab's
// fa::LiveRun), the redraw timer (the latest snapshot drawn at most ~30 times a second, only
// while the page is in view), the run actions (play, step, reset, run-until) and the charts'
// PNG/SVG export. A lab's page builds its controls and views, says how to make its run
// (startRun) and how to draw a snapshot (showSnapshot); MainWindow knows nothing more.
#include "ui/common/FormWidgets.h"
#include "ui/common/LabWorker.h"

#include <QThread>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <ostream>

class QSettings;
class QSpinBox;
#include <type_traits>
#include <utility>
#include <vector>

/// What a lab is to the shell and the menus, said once by its page's constructor; the defaults
/// are an epoch lab's that offers nothing beyond its run.
/// What a lab's status bar says first: the position out of the length and the rate (`Rate`),
/// "iteration N of L" and the play state (`UnitOfLength`), or, for few and slow epochs,
/// "epoch N" and the play state with no rate or time (`Unit`).
enum class StatusStyle { Rate, UnitOfLength, Unit };

struct LabFacts {
    QString sessionKind = {};              ///< the "mode" of its session files; empty: none
    QString curvesFileName = "curves.csv"; ///< Ctrl+E's suggested file name
    bool offersCsv = false;                ///< Ctrl+Shift+O: a regression CSV as its data
    QString jobName = {};                  ///< its background job; empty: none
    /// The unit its run advances by, singular ("epoch"; the explorer's "sample", the latent
    /// lab's "iteration"); the plural adds an s.
    QString unitName = "epoch";
    /// Whether it counts observations: faexplorer's --after-samples sets its position, where
    /// the other labs take --after-epochs.
    bool countsSamples = false;
    /// How far --screenshot or --record runs when neither a session nor --after-… says.
    long defaultLength = 2000;
    /// Whether a recording spaces its frames logarithmically when no preset says (the
    /// explorer's runs, whose errors change over orders of magnitude of samples).
    bool recordsOnLogScale = false;
    StatusStyle status = StatusStyle::Rate;
};

class LabPage : public QWidget {
    Q_OBJECT
  public:
    explicit LabPage(QWidget* parent = nullptr, LabFacts facts = {});
    ~LabPage() override; ///< stops the worker thread (the run ends within a slice)

    bool running() const { return m_stats.running; }
    LabStats stats() const { return m_stats; }
    LabSnapshotPtr latestLabSnapshot() const { return m_latest; }
    QString lastError() const { return m_lastError; }
    /// Every chart with a file-name stem, for PNG/SVG export.
    virtual std::vector<std::pair<QString, QWidget*>> charts() const = 0;
    /// Writes every chart and the whole page as PNG (`width` pixels wide, 0: as on screen) and
    /// SVG into the folder; returns the files written (empty and lastError() set on failure).
    QStringList exportCharts(const QString& folder, int width = 0);
    /// The status bar's texts for this page: position, rate, time played, fitters' states.
    virtual QStringList statusTexts() const;

    // What the window's menus ask of the page in view. The defaults say "not offered here".
    /// The "mode" of the session files this page opens and saves; empty: no sessions.
    QString sessionKind() const { return m_facts.sessionKind; }
    virtual bool openSession(const QString& path);
    virtual bool saveSession(const QString& path);
    /// Where the last opened session replays to (-1: none opened).
    long sessionPosition() const { return m_sessionPosition; }
    /// Ctrl+E: the page's curves (or results) as CSV in the CLI's columns.
    virtual bool exportCurves(const QString& csvPath);
    /// Another table of the page's rows by name (the latent lab's "imputation"), as CSV; false
    /// for a name the page does not have. Preset checks may name one (preset.checks' "table").
    virtual bool exportTable(const QString& table, const QString& csvPath);
    QString curvesFileName() const { return m_facts.curvesFileName; }
    /// Ctrl+Shift+O: use a regression CSV as the page's data.
    bool offersCsv() const { return m_facts.offersCsv; }
    virtual void openCsvDialog() {}
    /// The page's background job (the explorer's trials, the neural lab's splits table).
    QString jobName() const { return m_facts.jobName; }
    virtual void runJob() {}
    virtual void cancelJob() {}
    virtual bool exportJob(const QString& csvPath);
    /// Parameters remembered between launches (QSettings, under the page's own group).
    virtual void saveSettings(QSettings& settings) const;
    virtual void restoreSettings(QSettings& settings);

    // What the shell (the window, the view tools, faexplorer's --screenshot and --record) asks
    // of a lab instead of its id (LabFacts).
    QString unitName() const { return m_facts.unitName; }
    bool countsSamples() const { return m_facts.countsSamples; }
    long defaultLength() const { return m_facts.defaultLength; }
    bool recordsOnLogScale() const { return m_facts.recordsOnLogScale; }
    /// The page's speed field, which the toolbar's speed box mirrors (nullptr: none).
    virtual QSpinBox* speedBox() const; ///< the one makeRunFields made, if any
    /// The column of parameters presentation mode hides (nullptr: none).
    virtual QWidget* parameterColumn() const { return nullptr; }
    /// A view's own computation (not the run's: e.g. the posterior lab's GP lesson) still out;
    /// a screenshot waits for it.
    virtual bool viewsPending() const { return false; }

    /// For recordings: the same run again from its start (its parameters, seeds and live
    /// changes), whether background work (a batch refit) is still out, and a redraw now.
    void restart() { restartRun(Start::Paused); }
    /// Whether the run in view has reached its length (its last snapshot says so).
    bool finished() const;
    /// "running", "finished" (at its length; Play does not move it) or "paused".
    QString playState() const;
    /// Whether background work (a batch refit) was still out at the latest snapshot.
    bool backgroundPending() const { return m_stats.backgroundPending; }
    void redrawNow();

  public slots:
    /// A new run from the page's current parameters.
    virtual void reset() = 0;
    void togglePlay();
    void stepOnce(); ///< stepSize() units
    /// Plays as fast as possible until exactly this position, then emits reached.
    void runUntil(long position);

  signals:
    void reached(long position);
    /// A run could not start (the previous one, if any, goes on) or stopped on an error; a
    /// pending runUntil ends with it. A --screenshot exits on this, whenever it comes.
    void runError(const QString& why);
    void message(const QString& text, int timeoutMs);
    void statusChanged(); ///< statusTexts() changed
    void runningChanged(bool running);

  protected:
    /// How a new run starts: playing on if the previous run was playing (a changed parameter,
    /// Reset), or paused at its start (a session or preset opened).
    enum class Start { KeepPlaying, Paused };
    /// Starts a run built by make on the worker thread. If it throws, the previous run carries
    /// on and runFailed() is called with the reason.
    void startRun(LabWorker::Factory make, Start how = Start::KeepPlaying);
    /// A live change applied on the worker thread; a throw is reported, the run goes on. A
    /// lasting one (length, view) is applied again when the run restarts (a recording).
    enum class Lasting { No, Yes };
    void changeRun(LabWorker::Change change, Lasting lasting = Lasting::No);
    void restartRun(Start how = Start::Paused); ///< a fresh run from the last factory that worked
    void setSpeed(double unitsPerSecond);
    /// Draws a snapshot (called by the redraw timer, at most ~30 times a second, when visible).
    virtual void showSnapshot(const fa::LabSnapshot& snapshot) = 0;
    virtual long stepSize() const; ///< the step field's (makeRunFields), else 1
    /// The page's speed field (units per second, 0: as fast as possible; the toolbar's speed
    /// box mirrors it) and step field (units per Step), starting at these values; `units` is
    /// the plural unit ("epochs"). Lay them out where the page likes.
    void makeRunFields(int speed, int step, const QString& units, const QString& stepTip);
    /// The run could not start: the default reports it; pages put their controls back.
    virtual void runFailed(const QString& why);
    virtual void runStarted() {}
    void fail(const QString& what, const QString& why);
    /// Reads the whole regression CSV at path (core/io/RegressionCsv.h) before the page uses it,
    /// so that a bad cell is named before the current run is replaced; false (reported) if not.
    bool regressionCsvReadable(const QString& path);
    /// Writes a CSV file atomically with write; on success says "Exported <what> to PATH", on
    /// any exception (from write too) reports "Cannot export <what>" with the reason.
    bool writeCsv(const QString& path, const QString& what,
                  const std::function<void(std::ostream&)>& write);
    /// Ctrl+E of rows a snapshot carries (nullptr: there is no run, refused), written by
    /// write(out, rows) through writeCsv.
    template <class Rows, class Write>
    bool exportRows(const Rows* rows, const QString& path, Write write) {
        if (!rows) {
            fail("Cannot export", "there is no run");
            return false;
        }
        return writeCsv(path, "the curves", [&](std::ostream& out) { write(out, *rows); });
    }
    /// Calls f on the worker thread (queued; compiler-checked, no method names).
    template <class F> void post(F&& f) {
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, f = std::forward<F>(f)] { f(*w); }, Qt::QueuedConnection);
    }

    QString m_lastError;
    long m_sessionPosition = -1;
    IntSpinBox* m_speed = nullptr; ///< makeRunFields
    IntSpinBox* m_step = nullptr;

  private:
    void redraw();

    const LabFacts m_facts;
    QThread m_thread;
    LabWorker* m_worker;
    QTimer m_redraw;
    LabSnapshotPtr m_latest;
    LabStats m_stats;
    long m_waitFor = -1;
    bool m_dirty = false;
    bool m_warningShown = false; ///< fail() put a warning up; the next good start clears it
};
