#include "ui/common/MainWindow.h"

#include "ui/common/ModeLayout.h"

#include "ui/common/AlgorithmStyle.h"
#include "ui/common/BandChartView.h"
#include "ui/common/ContourView.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/CovarianceHeatMaps.h"
#include "ui/explorer/ErrorChartView.h"
#include "ui/explorer/StepPanel.h"
#include "ui/explorer/TrialsPanel.h"
#include "ui/neural/NeuralPage.h"
#include "ui/posterior/PosteriorPage.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <type_traits>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_controls(new ControlPanel),
      m_covChart(new ErrorChartView("Relative covariance distance ‖Ŝ − S‖_F / ‖S‖_F",
                                    "relative distance",
                                    [](const fa::CurvePoint& p) { return p.relCovDist; })),
      m_w2Chart(new ErrorChartView("2-Wasserstein distance / D", "W₂ / D",
                                   [](const fa::CurvePoint& p) { return p.w2OverDim; })),
      m_contours(new ContourView), m_heatMaps(new CovarianceHeatMaps), m_stepPanel(new StepPanel),
      m_trials(new TrialsPanel([this] {
          fa::ExplorerConfig c = m_controls->config();
          return c;
      })),
      m_tabs(new QTabWidget), m_modes(new QTabWidget), m_posterior(new PosteriorPage),
      m_neural(new NeuralPage), m_worker(new LabWorker) {
    setWindowTitle("FA Explorer — online factor analysis and FA posteriors");

    auto* live = new QWidget;
    auto* grid = new QGridLayout(live);
    grid->addWidget(m_covChart, 0, 0);
    grid->addWidget(m_w2Chart, 0, 1);
    grid->addWidget(m_contours, 1, 0);
    grid->addWidget(m_heatMaps, 1, 1);
    m_tabs->addTab(live, "Live run");
    m_tabs->addTab(m_trials, "Trials (mean ± SE)");
    m_modes->addTab(modeLayout({m_controls, m_stepPanel}, m_tabs), "FA explorer");
    m_modes->addTab(m_posterior, "Posterior lab");
    m_modes->addTab(m_neural, "Neural lab");
    m_modes->setTabToolTip(2, "VIFA / VIPPCA over a small network's weights on UCI data: NMLL, "
                              "RMSE, predictive (Ctrl+3)");
    m_modes->setTabToolTip(0, "Online EM and SGA against batch FA on a generated model (Ctrl+1)");
    m_modes->setTabToolTip(
        1, "FA approximations of a Bayesian linear regression posterior: VIFA, VIPPCA, SGD "
           "iterates + online FA, SWAG (Ctrl+2)");
    m_modes->setDocumentMode(true);
    setCentralWidget(m_modes);

    auto* bar = addToolBar("Run");
    bar->setObjectName("runToolBar");
    m_playAction = bar->addAction("Play", this, &MainWindow::togglePlay);
    m_playAction->setShortcut(Qt::Key_Space);
    m_playAction->setToolTip("Play / pause the stream of samples (Space)");
    m_stepAction = bar->addAction("Step", this, &MainWindow::stepOne);
    m_stepAction->setShortcut(Qt::Key_Right);
    m_stepAction->setToolTip("Observe the next observation(s) — the step size in 'Run and view' — "
                             "and explain the last (→)");
    m_resetAction = bar->addAction("Reset", this, &MainWindow::reset);
    m_resetAction->setShortcut(QKeySequence("Ctrl+R"));
    m_resetAction->setToolTip("New run from the current parameters (Ctrl+R)");
    buildMenus();

    m_samplesLabel = new QLabel;
    m_rateLabel = new QLabel;
    m_elapsedLabel = new QLabel;
    m_statusLabel = new QLabel;
    m_samplesLabel->setToolTip("Samples seen T / samples in the run");
    m_rateLabel->setToolTip(
        "Observations per second over the last half second (EM and SGA both see each one)");
    m_elapsedLabel->setToolTip("Time spent playing in this run");
    m_statusLabel->setToolTip("warm-up: F and ψ fixed while running averages settle; diverged at "
                              "t: NaN/Inf appeared at observation t");
    for (QLabel* l : {m_samplesLabel, m_rateLabel, m_elapsedLabel, m_statusLabel})
        statusBar()->addPermanentWidget(l);

    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LabWorker::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_worker, &LabWorker::statsChanged, this, &MainWindow::onStats);
    connect(m_worker, &LabWorker::started, this, [this] { m_applied = m_pending; });
    connect(m_worker, &LabWorker::failed, this, [this](const QString& message) {
        m_lastError = "Cannot start this run: " + message;
        if (m_latest) { // the previous run goes on: the fields show what it uses
            m_controls->setConfig(m_applied);
            m_lastError += " (the previous run is kept)";
        } else {
            m_statusLabel->setText("⚠ " + message);
            m_statusLabel->setStyleSheet("color: #b00020");
        }
        statusBar()->showMessage(m_lastError, 15000);
    });
    connect(m_worker, &LabWorker::refused, this, [this](const QString& message) {
        statusBar()->showMessage("Refused: " + message, 8000);
    });
    connect(m_worker, &LabWorker::reached, this, [this](long samples) {
        if (m_waitFor >= 0 && samples >= m_waitFor) {
            m_waitFor = -1;
            m_dirty = true;
            redraw();
            emit reachedSamples(samples);
        }
    });
    connect(m_controls, &ControlPanel::structureChanged, this, &MainWindow::reset);
    connect(m_controls, &ControlPanel::learningRateChanged, this, [this](double eta) {
        post([eta](LabWorker& w) {
            w.apply([eta](fa::LiveRun& run) {
                static_cast<fa::LiveExplorer&>(run).setLearningRate(eta);
            });
        });
    });
    connect(m_controls, &ControlPanel::speedChanged, this,
            [this](double v) { post([v](LabWorker& w) { w.setSpeed(v); }); });
    connect(m_controls, &ControlPanel::viewChanged, this, [this] {
        post([view = m_controls->viewOptions()](LabWorker& w) {
            w.apply(
                [view](fa::LiveRun& run) { static_cast<fa::LiveExplorer&>(run).setView(view); });
        });
    });
    connect(m_trials, &TrialsPanel::message, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    for (LabPage* page : std::initializer_list<LabPage*>{m_posterior, m_neural}) {
        connect(page, &LabPage::message, this, [this](const QString& text, int timeout) {
            statusBar()->showMessage(text, timeout);
        });
        connect(page, &LabPage::statusChanged, this, &MainWindow::showModeStatus);
        connect(page, &LabPage::runningChanged, this, &MainWindow::showModeStatus);
    }
    connect(m_modes, &QTabWidget::currentChanged, this, [this] { showModeStatus(); });
    m_thread.start();

    m_redraw.setInterval(33); // at most ~30 redraws a second, whatever the worker does
    connect(&m_redraw, &QTimer::timeout, this, &MainWindow::redraw);
    m_redraw.start();

    restoreSettings();
    reset();
}

MainWindow::~MainWindow() {
    m_thread.quit(); // the worker's event loop ends after the current ~10 ms slice
    m_thread.wait();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open session…", QKeySequence::Open, this, &MainWindow::openSessionDialog)
        ->setToolTip("Open a saved session (JSON) and replay it to where it was saved");
    file->addAction("&Save session…", QKeySequence::Save, this, &MainWindow::saveSessionDialog)
        ->setToolTip("Save every parameter, seed and learning-rate change, so opening reproduces "
                     "these curves");
    file->addSeparator();
    file->addAction("&Export curves as CSV…", QKeySequence("Ctrl+E"), this,
                    &MainWindow::exportCurvesDialog);
    file->addAction("Export &trials as CSV…", this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, "Export trials", "fa-trials.csv",
                                                          "CSV files (*.csv)");
        if (!path.isEmpty() && !exportTrials(path))
            QMessageBox::warning(this, "Export trials", m_lastError);
    });
    file->addAction("Export charts as PNG and S&VG…", QKeySequence("Ctrl+Shift+E"), this,
                    &MainWindow::exportChartsDialog);
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu("&Run");
    run->addAction(m_playAction);
    run->addAction(m_stepAction);
    run->addAction(m_resetAction);
    run->addSeparator();
    run->addAction("Run &trials", QKeySequence("Ctrl+T"), this, [this] {
        m_tabs->setCurrentWidget(m_trials);
        m_trials->start();
    });
    run->addAction("&Cancel trials", QKeySequence("Ctrl+."), m_trials, &TrialsPanel::cancel);

    QMenu* modeMenu = menuBar()->addMenu("&Mode");
    modeMenu->addAction("&FA explorer", QKeySequence("Ctrl+1"), this,
                        [this] { setPosteriorMode(false); });
    modeMenu->addAction("&Posterior lab", QKeySequence("Ctrl+2"), this,
                        [this] { setPosteriorMode(true); });
    modeMenu->addAction("&Neural lab", QKeySequence("Ctrl+3"), this,
                        [this] { setMode(Mode::Neural); });
    modeMenu->addAction("Open regression &CSV…", QKeySequence("Ctrl+Shift+O"), this, [this] {
        if (mode() != Mode::Neural)
            setPosteriorMode(true);
        if (mode() == Mode::Neural) {
            const QString path =
                QFileDialog::getOpenFileName(this, "Open regression data", {}, "CSV files (*.csv)");
            if (!path.isEmpty() && !m_neural->openCsv(path))
                QMessageBox::warning(this, "Open CSV", m_neural->lastError());
        } else {
            m_posterior->openCsvDialog();
        }
    });

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&About FA Explorer", this, [this] {
        QMessageBox::about(
            this, "About FA Explorer",
            "<b>FA Explorer</b> — online factor analysis, live.<br><br>"
            "Online EM and online SGA (Algorithms 1–2 of the thesis) race a batch refit on samples "
            "from a generated FA model N(c, F Fᵀ + Ψ).<br><br>"
            "The posterior lab fits FA-shaped Gaussians to the exact posterior of Bayesian linear "
            "regression: VIFA and VIPPCA (Gaussian or Laplace prior), and SGD iterates summarised "
            "by "
            "online EM, online SGA or SWAG.<br><br>"
            "Ctrl+1 / Ctrl+2: explorer / posterior lab · "
            "Space: play / pause · →: step · Ctrl+R: reset · Ctrl+T: trials · "
            "Ctrl+S / Ctrl+O: save / open session · Ctrl+E: export CSV · Ctrl+Shift+E: export "
            "charts");
    });
}

void MainWindow::start(const fa::ExplorerConfig& config) {
    m_statusLabel->setStyleSheet({});
    m_lastError.clear();
    m_running = false;
    m_waitFor = -1;
    m_pending = config;
    post([speed = m_controls->speed()](LabWorker& w) { w.setSpeed(speed); });
    post([config, view = m_controls->viewOptions()](LabWorker& w) {
        w.configure([config, view] {
            auto explorer = std::make_unique<fa::LiveExplorer>(config);
            try {
                explorer->setView(view);
            } catch (const std::invalid_argument&) {
                // coordinates from a larger D: keep the explorer's default view
            }
            return explorer;
        });
    });
}

MainWindow::Mode MainWindow::mode() const {
    return m_modes->currentWidget() == m_posterior ? Mode::Posterior
           : m_modes->currentWidget() == m_neural  ? Mode::Neural
                                                   : Mode::Explorer;
}

void MainWindow::setMode(Mode mode) {
    m_modes->setCurrentIndex(static_cast<int>(mode));
}

void MainWindow::showModeStatus() {
    if (mode() != Mode::Explorer) {
        const LabPage* page =
            mode() == Mode::Posterior ? static_cast<LabPage*>(m_posterior) : m_neural;
        const QStringList texts = page->statusTexts();
        m_playAction->setText(page->running() ? "Pause" : "Play");
        m_samplesLabel->setText(texts.value(0));
        m_rateLabel->setText(texts.value(1));
        m_elapsedLabel->setText(texts.value(2));
        m_statusLabel->setText(texts.value(3));
    } else {
        onStats(m_stats);
        m_dirty = true; // the next frame rewrites T and the fit states
    }
}

void MainWindow::reset() {
    if (mode() == Mode::Neural)
        m_neural->reset();
    else if (posteriorMode())
        m_posterior->reset();
    else
        start(m_controls->config());
}

void MainWindow::togglePlay() {
    if (mode() == Mode::Neural)
        m_neural->togglePlay();
    else if (posteriorMode())
        m_posterior->togglePlay();
    else
        post([running = m_running](LabWorker& w) { running ? w.pause() : w.play(); });
}

void MainWindow::stepOne() {
    if (mode() == Mode::Neural)
        m_neural->stepOnce();
    else if (posteriorMode())
        m_posterior->stepOnce();
    else
        post([n = m_controls->stepCount()](LabWorker& w) { w.step(n); });
}

void MainWindow::runUntil(long samples) {
    m_waitFor = samples;
    post([samples](LabWorker& w) { w.runUntil(samples); });
}

void MainWindow::onSnapshot(LabSnapshotPtr snapshot) {
    // a newer snapshot simply replaces a pending one
    m_latest = std::static_pointer_cast<const fa::ExplorerSnapshot>(std::move(snapshot));
    m_dirty = true;
    if (m_waitFor >= 0 && m_latest->samples >= m_waitFor) {
        m_waitFor = -1;
        redraw();
        emit reachedSamples(m_latest->samples);
    }
}

void MainWindow::onStats(LabStats stats) {
    m_stats = stats;
    m_running = stats.running;
    if (mode() != Mode::Explorer)
        return; // the status bar shows the lab in view
    m_playAction->setText(stats.running ? "Pause" : "Play");
    m_rateLabel->setText(stats.running ? QString("%1 obs/s").arg(stats.unitsPerSecond, 0, 'f', 0)
                                       : "paused");
    m_elapsedLabel->setText(QString("%1 s").arg(stats.runSeconds, 0, 'f', 1));
}

void MainWindow::redraw() {
    if (!m_dirty || !m_latest)
        return;
    m_dirty = false;
    const fa::ExplorerSnapshot& snap = *m_latest;
    if (mode() != Mode::Explorer)
        return; // hidden: redrawn when the explorer is shown again (showModeStatus)
    m_covChart->showSnapshot(snap);
    m_w2Chart->showSnapshot(snap);
    m_contours->showSnapshot(snap);
    m_heatMaps->showSnapshot(snap);
    m_stepPanel->showSnapshot(snap);
    m_samplesLabel->setText(QString("T = %1 / %2").arg(snap.samples).arg(snap.totalSamples));
    QStringList states;
    for (const auto& t : snap.traces) {
        if (t.name == "batch") {
            if (snap.batchPending)
                states << "batch: refitting…";
            continue;
        }
        QString state = QString::fromStdString(fa::statusName(t.status));
        if (t.status == fa::FitStatus::Diverged)
            state += QString(" at t = %1").arg(t.divergedAt);
        states << QString("%1: %2").arg(t.name == "em" ? "EM" : "SGA", state);
    }
    m_statusLabel->setText(states.join("   "));
}

void MainWindow::fail(const QString& what, const QString& why) {
    m_lastError = what + ": " + why;
    statusBar()->showMessage("⚠ " + m_lastError, 15000);
}
