#include "MainWindow.h"

#include "ControlPanel.h"
#include "ErrorChartView.h"

#include <QAction>
#include <QCloseEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_controls(new ControlPanel),
      m_covChart(new ErrorChartView("Relative covariance distance ‖Ŝ − S‖_F / ‖S‖_F", "relative distance",
                                    [](const fa::CurvePoint& p) { return p.relCovDist; })),
      m_w2Chart(new ErrorChartView("2-Wasserstein distance / D", "W₂ / D",
                                   [](const fa::CurvePoint& p) { return p.w2OverDim; })),
      m_worker(new ExplorerWorker) {
    setWindowTitle("FA Explorer — online factor analysis");

    auto* scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(m_controls->sizeHint().width() + 24);
    auto* charts = new QWidget;
    auto* chartLayout = new QHBoxLayout(charts);
    chartLayout->addWidget(m_covChart);
    chartLayout->addWidget(m_w2Chart);
    auto* split = new QSplitter;
    split->addWidget(scroll);
    split->addWidget(charts);
    split->setStretchFactor(1, 1);
    setCentralWidget(split);

    auto* bar = addToolBar("Run");
    bar->setObjectName("runToolBar");
    m_playAction = bar->addAction("Play", this, &MainWindow::togglePlay);
    m_playAction->setShortcut(Qt::Key_Space);
    m_playAction->setToolTip("Play / pause the stream of samples (Space)");
    m_stepAction = bar->addAction("Step", this, &MainWindow::stepOne);
    m_stepAction->setShortcut(Qt::Key_Right);
    m_stepAction->setToolTip("Observe exactly one more sample (→)");
    m_resetAction = bar->addAction("Reset", this, &MainWindow::reset);
    m_resetAction->setShortcut(QKeySequence("Ctrl+R"));
    m_resetAction->setToolTip("New run from the current parameters (Ctrl+R)");

    m_samplesLabel = new QLabel;
    m_rateLabel = new QLabel;
    m_elapsedLabel = new QLabel;
    m_statusLabel = new QLabel;
    for (QLabel* l : {m_samplesLabel, m_rateLabel, m_elapsedLabel, m_statusLabel})
        statusBar()->addPermanentWidget(l);

    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &ExplorerWorker::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_worker, &ExplorerWorker::statsChanged, this, &MainWindow::onStats);
    connect(m_worker, &ExplorerWorker::failed, this, [this](const QString& message) {
        m_statusLabel->setText("⚠ " + message);
        m_statusLabel->setStyleSheet("color: #b00020");
        statusBar()->showMessage("Cannot start this run: " + message);
    });
    connect(m_controls, &ControlPanel::structureChanged, this, &MainWindow::reset);
    connect(m_controls, &ControlPanel::learningRateChanged, m_worker,
            [this](double eta) { QMetaObject::invokeMethod(m_worker, "setLearningRate", Q_ARG(double, eta)); });
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
    c.generator.kind = s.value("params/generator").toString() == "haar" ? fa::GeneratorKind::Haar : fa::GeneratorKind::Exact;
    c.seed = s.value("params/seed").toULongLong();
    c.fitLatent = s.value("params/fitLatent").toInt();
    c.learningRate = s.value("params/learningRate").toDouble();
    c.warmup = s.value("params/warmup").toLongLong();
    c.totalSamples = s.value("params/totalSamples").toLongLong();
    try {
        fa::validate(c);
        m_controls->setConfig(c);
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
    s.setValue("params/learningRate", c.learningRate);
    s.setValue("params/warmup", QVariant::fromValue<qlonglong>(c.warmup));
    s.setValue("params/totalSamples", QVariant::fromValue<qlonglong>(c.totalSamples));
    QMainWindow::closeEvent(event);
}

void MainWindow::reset() {
    m_statusLabel->setStyleSheet({});
    m_elapsedBefore = 0;
    m_elapsed.invalidate();
    m_running = false;
    QMetaObject::invokeMethod(m_worker, "configure", Q_ARG(fa::ExplorerConfig, m_controls->config()));
}

void MainWindow::togglePlay() {
    QMetaObject::invokeMethod(m_worker, m_running ? "pause" : "play");
}

void MainWindow::stepOne() { QMetaObject::invokeMethod(m_worker, "step", Q_ARG(long, 1)); }

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
    if (stats.running && !m_elapsed.isValid())
        m_elapsed.start();
    if (!stats.running && m_elapsed.isValid()) {
        m_elapsedBefore += m_elapsed.elapsed();
        m_elapsed.invalidate();
    }
    m_running = stats.running;
    m_playAction->setText(stats.running ? "Pause" : "Play");
    m_rateLabel->setText(stats.running ? QString("%1 obs/s").arg(stats.obsPerSecond, 0, 'f', 0) : "paused");
}

void MainWindow::redraw() {
    const qint64 ms = m_elapsedBefore + (m_elapsed.isValid() ? m_elapsed.elapsed() : 0);
    m_elapsedLabel->setText(QString("%1 s").arg(ms / 1000.0, 0, 'f', 1));
    if (!m_dirty || !m_latest)
        return;
    m_dirty = false;
    m_covChart->showSnapshot(*m_latest);
    m_w2Chart->showSnapshot(*m_latest);
    m_samplesLabel->setText(QString("T = %1 / %2").arg(m_latest->samples).arg(m_latest->totalSamples));
    QStringList states;
    for (const auto& t : m_latest->traces) {
        if (t.name == "batch")
            continue;
        QString state = QString::fromStdString(fa::statusName(t.status));
        if (t.status == fa::FitStatus::Diverged)
            state += QString(" at t = %1").arg(t.divergedAt);
        states << QString("%1: %2").arg(t.name == "em" ? "EM" : "SGA", state);
    }
    m_statusLabel->setText(states.join("   "));
}
