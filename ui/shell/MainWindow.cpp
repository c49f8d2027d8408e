#include "ui/shell/MainWindow.h"

#include "ui/common/ElidedLabel.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/LabPage.h"
#include "ui/common/ViewFocus.h"
#include "ui/session/SessionFile.h"
#include "ui/shell/Labs.h"
#include "ui/shell/PresetCaption.h"
#include "ui/shell/RecordDialog.h"
#include "ui/shell/ViewControls.h"
#include "ui/shell/ViewHelp.h"

#include <QAction>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_tabs(new QTabWidget), m_caption(new PresetCaption) {
    setWindowTitle("FA Explorer — online factor analysis and FA posteriors");
    installWheelGuard(); // the wheel over an unfocused field scrolls, it changes nothing
    QSettings settings;
    for (const LabEntry& lab : labRegistry()) {
        LabPage* page = lab.make();
        page->setObjectName(lab.id);
        settings.beginGroup(lab.id);
        page->restoreSettings(settings);
        settings.endGroup();
        m_pages.push_back(page);
        const int k = m_tabs->addTab(page, lab.title);
        m_tabs->setTabToolTip(k, QString("%1 (Ctrl+%2)").arg(lab.tooltip).arg(k + 1));
        connect(page, &LabPage::message, this,
                [this](const QString& text, int timeout) { say(text, timeout); });
        connect(page, &LabPage::statusChanged, this, [this, page] {
            if (page == currentPage())
                showStatus();
        });
        page->reset();
    }
    m_tabs->setDocumentMode(true);
    auto* central = new QWidget;
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_caption);
    column->addWidget(m_tabs, 1);
    setCentralWidget(central);
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this] { m_caption->followLab(currentLab()); });
    restoreGeometry(settings.value("window/geometry").toByteArray());

    auto* bar = m_toolBar = addToolBar("Run");
    bar->setObjectName("runToolBar");
    m_playAction = bar->addAction("Play", this, &MainWindow::togglePlay);
    m_playAction->setShortcut(Qt::Key_Space);
    m_playAction->setToolTip("Play / pause the run (Space)");
    m_stepAction = bar->addAction("Step", this, &MainWindow::stepOnce);
    m_stepAction->setShortcut(Qt::Key_Right);
    m_stepAction->setToolTip("Advance by the step size (observations or epochs) and explain the "
                             "last one where the lab can (→)");
    m_resetAction = bar->addAction("Reset", this, &MainWindow::reset);
    m_resetAction->setShortcut(QKeySequence("Ctrl+R"));
    m_resetAction->setToolTip("New run from the current parameters (Ctrl+R)");
    buildMenus();

    m_positionLabel = new QLabel;
    m_rateLabel = new QLabel;
    m_elapsedLabel = new QLabel;
    m_statusLabel = new ElidedLabel; // four fitters' scores can be wider than the window
    m_positionLabel->setToolTip("Where the run stands: samples seen T / samples in the run, or "
                                "the epoch");
    m_rateLabel->setToolTip("Units (observations, epochs) per second over the last half second");
    m_elapsedLabel->setToolTip("Time spent playing in this run");
    m_statusLabel->setToolTip("Each fitter's state: warm-up (F and ψ fixed while running averages "
                              "settle), running, diverged at t (NaN/Inf appeared at t)");
    for (QLabel* l : {m_positionLabel, m_rateLabel, m_elapsedLabel, m_statusLabel})
        statusBar()->addPermanentWidget(l);
    // A message (a refused number, a file written) has the room of the fitters' states while shown.
    connect(statusBar(), &QStatusBar::messageChanged, this,
            [this](const QString& text) { m_statusLabel->setVisible(text.isEmpty()); });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::showStatus);
    connect(m_tabs, &QTabWidget::tabBarClicked, this, [this](int index) {
        if (index != m_tabs->currentIndex())
            statusBar()->clearMessage(); // as setCurrentLab: the message was the lab left's
    });
    connect(m_tabs, &QTabWidget::currentChanged, m_view, [this] { m_view->follow(currentPage()); });
    m_view->follow(currentPage());
    new ViewFocus(this, [this](const QString& text) { say(text, 8000); });
    showStatus();
}

MainWindow::~MainWindow() = default; // each page stops its own worker thread

LabPage* MainWindow::page(const QString& id) const {
    for (LabPage* p : m_pages)
        if (p->objectName() == id)
            return p;
    return nullptr;
}

LabPage* MainWindow::currentPage() const {
    return static_cast<LabPage*>(m_tabs->currentWidget());
}

QString MainWindow::currentLab() const {
    return currentPage()->objectName();
}

bool MainWindow::setCurrentLab(const QString& id) {
    LabPage* p = page(id);
    if (p && p != currentPage()) {
        statusBar()->clearMessage(); // it spoke of the lab left ("run finished", a refusal)
        m_tabs->setCurrentWidget(p);
    }
    return p != nullptr;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open session…", QKeySequence::Open, this,
                    [this] {
                        const QString path = QFileDialog::getOpenFileName(
                            this, "Open session", {}, "FA Explorer sessions (*.json)");
                        if (!path.isEmpty() && !openSession(path))
                            QMessageBox::warning(this, "Open session",
                                                 m_lastError + "\n\nNothing was changed.");
                    })
        ->setToolTip("Open a saved session (JSON) and replay it to where it was saved");
    file->addAction("&Save session…", QKeySequence::Save, this,
                    [this] {
                        saveFileDialog("Save session", currentLab() + "-session.json",
                                       [this](const QString& p) { return saveSession(p); });
                    })
        ->setToolTip("Save every parameter, seed and live change, so opening reproduces "
                     "these curves");
    file->addSeparator();
    file->addAction("&Export curves as CSV…", QKeySequence("Ctrl+E"), this, [this] {
        saveFileDialog("Export curves", currentPage()->curvesFileName(),
                       [this](const QString& p) { return exportCurves(p); });
    });
    m_exportJob = file->addAction("Export background &results as CSV…", this, [this] {
        saveFileDialog("Export " + currentPage()->jobName(), currentLab() + "-results.csv",
                       [this](const QString& p) { return report(currentPage()->exportJob(p)); });
    });
    file->addAction("Export charts as PNG and S&VG…", QKeySequence("Ctrl+Shift+E"), this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, "Export charts to folder");
        if (!folder.isEmpty() && exportCharts(folder).isEmpty())
            QMessageBox::warning(this, "Export charts", m_lastError);
    });
    file->addAction("&Record the run as an animation…", QKeySequence("Ctrl+Shift+R"), this,
                    [this] {
                        const QString said = RecordDialog::recordInteractively(
                            currentPage(), recordingDefaults(), this);
                        if (!said.isEmpty())
                            say(said, 10000);
                    })
        ->setToolTip("Run the lab again from its start and save frames at fixed positions as an "
                     "animated GIF (the same session gives the same frames)");
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu("&Run");
    run->addAction(m_playAction);
    run->addAction(m_stepAction);
    run->addAction(m_resetAction);
    run->addSeparator();
    m_runJob = run->addAction("Run in the &background", QKeySequence("Ctrl+T"), this,
                              [this] { currentPage()->runJob(); });
    m_cancelJob = run->addAction("&Cancel the background run", QKeySequence("Ctrl+."), this,
                                 [this] { currentPage()->cancelJob(); });

    QMenu* labs = menuBar()->addMenu("&Mode");
    for (std::size_t k = 0; k < m_pages.size(); ++k) {
        const LabEntry& lab = labRegistry()[k];
        labs->addAction(lab.title, QKeySequence(QString("Ctrl+%1").arg(k + 1)), this,
                        [this, id = lab.id] { setCurrentLab(id); })
            ->setToolTip(lab.tooltip);
    }
    labs->addSeparator();
    m_openCsv = labs->addAction("Open data &CSV…", QKeySequence("Ctrl+Shift+O"), this, [this] {
        if (!currentPage()->offersCsv())
            for (LabPage* p : m_pages)
                if (p->offersCsv()) {
                    m_tabs->setCurrentWidget(p);
                    break;
                }
        currentPage()->openCsvDialog();
    });

    m_view = new ViewControls({this, m_pages, m_caption}, menuBar()->addMenu("&View"), m_toolBar);
    buildPresetMenu();
    buildHelpMenu();
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction(
            "&What am I looking at?", QKeySequence::HelpContents, this,
            [this] {
                auto* dialog = new QDialog(this);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                dialog->setWindowTitle("What am I looking at?");
                auto* text = new QTextBrowser;
                text->setHtml(viewHelpHtml(currentLab(), m_tabs->tabText(m_tabs->currentIndex())));
                auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
                connect(close, &QDialogButtonBox::rejected, dialog, &QDialog::close);
                auto* column = new QVBoxLayout(dialog);
                column->addWidget(text);
                column->addWidget(close);
                dialog->resize(640, std::min(640, height() - 80)); // scrolls; fits 1280 x 800
                dialog->show();
            })
        ->setToolTip("For each view of this lab: the quantity, its formula, a good and a bad "
                     "curve (F1)");
    help->addAction("&Keyboard shortcuts", QKeySequence("Ctrl+/"), this,
                    [this] {
                        auto* dialog = new QDialog(this);
                        dialog->setAttribute(Qt::WA_DeleteOnClose);
                        dialog->setWindowTitle("Keyboard shortcuts");
                        auto* text = new QTextBrowser;
                        text->setHtml(shortcutsHtml(menuBar()));
                        auto* column = new QVBoxLayout(dialog);
                        column->addWidget(text);
                        dialog->resize(640, std::min(640, height() - 80));
                        dialog->show();
                    })
        ->setToolTip("Every key of every menu, read from the menus (Ctrl+/)");
    help->addAction("&About FA Explorer", this, [this] {
        QString keys;
        for (std::size_t k = 0; k < m_pages.size(); ++k)
            keys += QString("Ctrl+%1: %2 · ").arg(k + 1).arg(labRegistry()[k].title);
        QString labs;
        for (const LabEntry& lab : labRegistry())
            labs += QString("<li><b>%1</b>: %2</li>").arg(lab.title, lab.tooltip.toHtmlEscaped());
        QMessageBox::about(
            this, "About FA Explorer",
            "<b>FA Explorer</b> — factor analysis and FA-shaped posteriors, live.<ul>" + labs +
                "</ul>Presets (the Presets menu) open the thesis's and the VIFA report's figures "
                "and the lectures' lessons with a caption of what to watch.<br><br>" +
                keys +
                "Space: play / pause · →: step · Ctrl+R: reset · Ctrl+T: background run · "
                "Ctrl+S / Ctrl+O: save / open session · Ctrl+E: export CSV · Ctrl+Shift+E: "
                "export charts · Ctrl+Shift+R: record · F11: presentation mode · Ctrl+= / "
                "Ctrl+-: zoom");
    });
}

void MainWindow::say(const QString& text, int timeoutMs) {
    m_message = text;
    m_messageEnd = timeoutMs > 0 ? QDeadlineTimer(timeoutMs) : QDeadlineTimer::Forever;
    statusBar()->showMessage(text, timeoutMs);
    fitMessage();
}

void MainWindow::fitMessage() {
    const QString shown = statusBar()->currentMessage();
    // Only ours, in full or cut (a menu's status tip or a cleared bar is left alone).
    if (shown.isEmpty() || m_message.isEmpty() ||
        !(shown == m_message ||
          (shown.endsWith(QChar(0x2026)) && m_message.startsWith(shown.chopped(1)))))
        return;
    int room = statusBar()->width() - 32; // the size grip and the margins
    for (const QLabel* l : {m_positionLabel, m_rateLabel, m_elapsedLabel})
        room -= l->isVisible() ? l->sizeHint().width() + 8 : 0;
    const QString fitted =
        statusBar()->fontMetrics().elidedText(m_message, Qt::ElideRight, std::max(room, 80));
    if (fitted != statusBar()->currentMessage())
        statusBar()->showMessage(fitted, m_messageEnd.isForever()
                                             ? 0
                                             : std::max<int>(1, int(m_messageEnd.remainingTime())));
}

void MainWindow::showStatus() {
    LabPage* p = currentPage();
    if (m_view)
        m_view->syncSpeed();
    const QStringList texts = p->statusTexts();
    m_playAction->setText(p->running() ? "Pause" : "Play");
    m_positionLabel->setText(texts.value(0));
    m_rateLabel->setText(texts.value(1));
    m_elapsedLabel->setText(texts.value(2));
    m_statusLabel->setText(texts.value(3));
    const bool job = !p->jobName().isEmpty();
    m_runJob->setEnabled(job);
    m_cancelJob->setEnabled(job);
    m_exportJob->setEnabled(job);
    m_runJob->setText(job ? "Run " + p->jobName() : "Run in the background");
    m_exportJob->setText(job ? "Export " + p->jobName() + " as CSV…"
                             : "Export background results as CSV…");
    m_cancelJob->setText(job ? "Cancel " + p->jobName() : "Cancel the background run");
    if (p->running() && m_message.startsWith(kPlayHint)) {
        m_message.clear();
        statusBar()->clearMessage();
    }
    fitMessage(); // the labels beside it may have grown
}

void MainWindow::togglePlay() {
    currentPage()->togglePlay();
}

void MainWindow::stepOnce() {
    currentPage()->stepOnce();
}

void MainWindow::reset() {
    currentPage()->reset();
}

bool MainWindow::report(bool ok) {
    if (!ok)
        m_lastError = currentPage()->lastError();
    return ok;
}

void MainWindow::saveFileDialog(const QString& title, const QString& name,
                                const std::function<bool(const QString&)>& save) {
    const QString filter =
        name.endsWith(".json") ? "FA Explorer sessions (*.json)" : "CSV files (*.csv)";
    const QString path = QFileDialog::getSaveFileName(this, title, name, filter);
    if (!path.isEmpty() && !save(path))
        QMessageBox::warning(this, title, m_lastError);
}

bool MainWindow::openSession(const QString& path) {
    QString kind;
    try {
        kind = fa::io::sessionMode(path);
    } catch (const fa::io::SessionError& e) {
        m_lastError = "Cannot open the session: " + QString::fromUtf8(e.what());
        say("⚠ " + m_lastError, 15000);
        return false;
    }
    for (LabPage* p : m_pages)
        if (p->sessionKind() == kind) {
            if (!p->openSession(path)) {
                m_lastError = p->lastError();
                return false;
            }
            // Another session in the preset's lab: its caption no longer describes the page
            // (openPreset sets it again after this).
            if (m_caption->preset().lab == kind) {
                m_caption->setPreset({});
                m_caption->dismiss();
            }
            m_tabs->setCurrentWidget(p);
            return true;
        }
    m_lastError = "Cannot open the session: no lab opens sessions of kind '" + kind + "'";
    say("⚠ " + m_lastError, 15000);
    return false;
}

bool MainWindow::saveSession(const QString& path) {
    return report(currentPage()->saveSession(path));
}

bool MainWindow::exportCurves(const QString& csvPath) {
    return report(currentPage()->exportCurves(csvPath));
}

QStringList MainWindow::exportCharts(const QString& folder) {
    const QStringList written = currentPage()->exportCharts(folder, m_view->exportWidth());
    report(!written.isEmpty());
    return written;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    for (const LabPage* p : m_pages) {
        settings.beginGroup(p->objectName());
        p->saveSettings(settings);
        settings.endGroup();
    }
    QMainWindow::closeEvent(event);
}
