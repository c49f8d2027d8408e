#pragma once
// The window: a shell that hosts one page per registered lab (ui/shell/Labs) as tabs, with the
// run actions in the toolbar, the file, run and mode menus, and the status bar. It forwards
// every action to the page in view and knows nothing of any page's insides.
#include "ui/common/RunRecorder.h"

#include <QDeadlineTimer>
#include <QMainWindow>
#include <vector>

class LabPage;
class PresetCaption;
class QAction;
class QLabel;
class QTabWidget;
class QToolBar;
class ViewControls;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    const std::vector<LabPage*>& pages() const { return m_pages; }
    /// The page of this lab id (explorer, posterior, neural), nullptr if none.
    LabPage* page(const QString& id) const;
    template <class Page> Page* page() const {
        for (LabPage* p : m_pages)
            if (auto* typed = qobject_cast<Page*>(p))
                return typed;
        return nullptr;
    }
    LabPage* currentPage() const;
    QString currentLab() const;            ///< the id of the lab in view
    bool setCurrentLab(const QString& id); ///< false for an unknown id

    /// File operations on the page in view (a session switches to the lab it belongs to).
    /// Each returns false and shows the reason (status bar, lastError()).
    bool openSession(const QString& path);
    /// Opens a preset (a session in the preset folder, by name) and shows its caption.
    bool openPreset(const QString& name);
    const PresetCaption* presetCaption() const { return m_caption; }
    /// What a recording of the lab in view starts from: frames spaced as its preset asks (else
    /// log in the explorer), and the preset's caption above each frame while it is shown.
    RecordOptions recordingDefaults() const;
    bool saveSession(const QString& path);
    bool exportCurves(const QString& csvPath);
    QStringList exportCharts(const QString& folder);
    /// The View menu's tools: presentation mode, zoom, palette, export width; the speed box.
    ViewControls* viewControls() const { return m_view; }
    QString lastError() const { return m_lastError; }

  public slots:
    void togglePlay();
    void stepOnce();
    void reset();

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildMenus();
    void buildPresetMenu();
    void buildHelpMenu();
    void showStatus();
    /// A message in the status bar for timeoutMs, cut with "…" to the room beside the position,
    /// rate and time (at 200 % a long one ran into them mid-word).
    void say(const QString& text, int timeoutMs);
    void fitMessage();    ///< the message shown cut again to the room there is now
    bool report(bool ok); ///< takes lastError from the page in view when !ok
    void saveFileDialog(const QString& title, const QString& name,
                        const std::function<bool(const QString&)>& save);

    std::vector<LabPage*> m_pages;
    QTabWidget* m_tabs;
    PresetCaption* m_caption;
    QAction *m_playAction, *m_stepAction, *m_resetAction, *m_runJob, *m_cancelJob, *m_exportJob,
        *m_openCsv;
    QLabel *m_positionLabel, *m_rateLabel, *m_elapsedLabel, *m_statusLabel;
    /// The preset's hint, cleared once its run plays (it would outlast a short run otherwise).
    static constexpr const char* kPlayHint = "Press Space to play the preset: ";
    QString m_message;           ///< the status message in full (say)
    QDeadlineTimer m_messageEnd; ///< when it goes
    QString m_lastError;
    ViewControls* m_view = nullptr;
    QToolBar* m_toolBar = nullptr;
};
