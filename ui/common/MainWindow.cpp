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
      m_neural(new NeuralPage), m_worker(new ExplorerWorker) {
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
    connect(m_worker, &ExplorerWorker::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_worker, &ExplorerWorker::statsChanged, this, &MainWindow::onStats);
    connect(m_worker, &ExplorerWorker::failed, this, [this](const QString& message) {
        m_statusLabel->setText("⚠ " + message);
        m_statusLabel->setStyleSheet("color: #b00020");
        m_lastError = "Cannot start this run: " + message;
        statusBar()->showMessage(m_lastError);
        m_latest.reset();
    });
    connect(m_worker, &ExplorerWorker::refused, this, [this](const QString& message) {
        statusBar()->showMessage("Refused: " + message, 8000);
    });
    connect(m_controls, &ControlPanel::structureChanged, this, &MainWindow::reset);
    connect(m_controls, &ControlPanel::learningRateChanged, this, [this](double eta) {
        QMetaObject::invokeMethod(m_worker, "setLearningRate", Q_ARG(double, eta));
    });
    connect(m_controls, &ControlPanel::speedChanged, this, [this](double v) {
        QMetaObject::invokeMethod(m_worker, "setSpeed", Q_ARG(double, v));
    });
    connect(m_controls, &ControlPanel::viewChanged, this, [this] {
        QMetaObject::invokeMethod(m_worker, "setView",
                                  Q_ARG(fa::ViewOptions, m_controls->viewOptions()));
    });
    connect(m_trials, &TrialsPanel::message, this,
            [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    auto wireLab = [this](auto* page, int lab) {
        connect(
            page, &std::remove_pointer_t<decltype(page)>::message, this,
            [this](const QString& text, int timeout) { statusBar()->showMessage(text, timeout); });
        connect(page, &std::remove_pointer_t<decltype(page)>::statusChanged, this,
                [this, lab](const QString& epoch, const QString& state) {
                    m_labEpoch[lab] = epoch;
                    m_labState[lab] = state;
                    showModeStatus();
                });
        connect(page, &std::remove_pointer_t<decltype(page)>::runningChanged, this,
                [this, lab](bool running) {
                    m_labRunning[lab] = running;
                    showModeStatus();
                });
    };
    wireLab(m_posterior, 0);
    wireLab(m_neural, 1);
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

void MainWindow::restoreSettings() {
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    if (!s.contains("params/dim"))
        return;
    fa::ExplorerConfig c = m_controls->config();
    c.generator.dim = s.value("params/dim").toInt();
    c.generator.latent = s.value("params/latent").toInt();
    c.generator.spectrumLo = s.value("params/spectrumLo").toDouble();
    c.generator.spectrumHi = s.value("params/spectrumHi").toDouble();
    c.generator.kind = s.value("params/generator").toString() == "haar" ? fa::GeneratorKind::Haar
                                                                        : fa::GeneratorKind::Exact;
    c.seed = s.value("params/seed").toULongLong();
    c.fitLatent = s.value("params/fitLatent").toInt();
    c.runEm = s.value("params/em", true).toBool();
    c.runSga = s.value("params/sga", true).toBool();
    c.runBatch = s.value("params/batch", true).toBool();
    c.learningRate = s.value("params/learningRate").toDouble();
    c.warmup = s.value("params/warmup").toLongLong();
    c.totalSamples = s.value("params/totalSamples").toLongLong();
    try {
        fa::validate(c);
        m_controls->setConfig(c);
        fa::ViewOptions v;
        v.coordI = s.value("view/coordI", 0).toInt();
        v.coordJ = s.value("view/coordJ", 1).toInt();
        v.blockSize = s.value("view/blockSize", 40).toInt();
        if (v.coordI != v.coordJ && v.coordI >= 0 && v.coordJ >= 0 &&
            std::max(v.coordI, v.coordJ) < c.generator.dim)
            m_controls->setViewOptions(v);
        m_controls->setSpeed(std::max(0.0, s.value("view/speed", 0.0).toDouble()));
    } catch (const std::exception&) {
        // stale or edited settings: keep the defaults
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    const fa::ExplorerConfig c = m_controls->config();
    s.setValue("params/dim", c.generator.dim);
    s.setValue("params/latent", c.generator.latent);
    s.setValue("params/spectrumLo", c.generator.spectrumLo);
    s.setValue("params/spectrumHi", c.generator.spectrumHi);
    s.setValue("params/generator", QString::fromStdString(fa::generatorName(c.generator.kind)));
    s.setValue("params/seed", QVariant::fromValue<qulonglong>(c.seed));
    s.setValue("params/fitLatent", c.fitLatent);
    s.setValue("params/em", c.runEm);
    s.setValue("params/sga", c.runSga);
    s.setValue("params/batch", c.runBatch);
    s.setValue("params/learningRate", c.learningRate);
    s.setValue("params/warmup", QVariant::fromValue<qlonglong>(c.warmup));
    s.setValue("params/totalSamples", QVariant::fromValue<qlonglong>(c.totalSamples));
    const fa::ViewOptions v = m_controls->viewOptions();
    s.setValue("view/coordI", v.coordI);
    s.setValue("view/coordJ", v.coordJ);
    s.setValue("view/blockSize", v.blockSize);
    s.setValue("view/speed", m_controls->speed());
    QMainWindow::closeEvent(event);
}

void MainWindow::start(const fa::ExplorerConfig& config) {
    m_statusLabel->setStyleSheet({});
    m_lastError.clear();
    m_running = false;
    m_waitFor = -1;
    QMetaObject::invokeMethod(m_worker, "setSpeed", Q_ARG(double, m_controls->speed()));
    QMetaObject::invokeMethod(m_worker, "configure", Q_ARG(fa::ExplorerConfig, config),
                              Q_ARG(fa::ViewOptions, m_controls->viewOptions()));
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
        const int lab = mode() == Mode::Posterior ? 0 : 1;
        m_playAction->setText(m_labRunning[lab] ? "Pause" : "Play");
        m_samplesLabel->setText(m_labEpoch[lab]);
        m_rateLabel->setText(m_labRunning[lab] ? "running" : "paused");
        m_elapsedLabel->clear();
        m_statusLabel->setText(m_labState[lab]);
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
        QMetaObject::invokeMethod(m_worker, m_running ? "pause" : "play");
}

void MainWindow::stepOne() {
    if (mode() == Mode::Neural)
        m_neural->stepOnce();
    else if (posteriorMode())
        m_posterior->stepOnce();
    else
        QMetaObject::invokeMethod(m_worker, "step", Q_ARG(long, m_controls->stepCount()));
}

void MainWindow::runUntil(long samples) {
    m_waitFor = samples;
    QMetaObject::invokeMethod(m_worker, "runUntil", Q_ARG(long, samples));
}

void MainWindow::onSnapshot(SnapshotPtr snapshot) {
    m_latest = std::move(snapshot); // a newer snapshot simply replaces a pending one
    m_dirty = true;
    if (m_waitFor >= 0 && m_latest->samples >= m_waitFor) {
        m_waitFor = -1;
        redraw();
        emit reachedSamples(m_latest->samples);
    }
}

void MainWindow::onStats(WorkerStats stats) {
    m_stats = stats;
    m_running = stats.running;
    if (mode() != Mode::Explorer)
        return; // the status bar shows the lab in view
    m_playAction->setText(stats.running ? "Pause" : "Play");
    m_rateLabel->setText(stats.running ? QString("%1 obs/s").arg(stats.obsPerSecond, 0, 'f', 0)
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
