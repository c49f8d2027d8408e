#include "ui/posterior/PosteriorPage.h"

#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
#include "core/io/RegressionCsv.h"
#include "ui/common/ContourView.h"
#include "ui/common/ModeLayout.h"
#include "ui/posterior/ComparisonScatter.h"
#include "ui/posterior/PosteriorControls.h"
#include "ui/posterior/PosteriorCurveChart.h"
#include "ui/session/PosteriorSessionFile.h"

#include <QDir>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QTabWidget>
#include <QVBoxLayout>

PosteriorPage::PosteriorPage(QWidget* parent)
    : QWidget(parent), m_controls(new PosteriorControls), m_contours(new ContourView),
      m_tabs(new QTabWidget), m_worker(new PosteriorWorker) {
    m_contours->setCloudName("iterates");
    m_contours->useShortNames(true);
    m_contours->setMinimumSize(420, 360);
    m_contours->setToolTip(
        "Contours of the exact posterior N(m, S) and of each approximation, restricted to two "
        "parameters: 39 / 86 / 99 % probability mass. Grey points: the last 300 SGD iterates.");
    m_curves = {
        new PosteriorCurveChart("Mean: ‖ĉ − m‖ / ‖m‖", "relative distance",
                                [](const fa::PosteriorScore& s) { return s.relMeanDist; }),
        new PosteriorCurveChart("Covariance: ‖Ŝ − S‖_F / ‖S‖_F", "relative distance",
                                [](const fa::PosteriorScore& s) { return s.relCovDist; }),
        new PosteriorCurveChart("2-Wasserstein W₂", "W₂",
                                [](const fa::PosteriorScore& s) { return s.w2; }),
        new PosteriorCurveChart("Scaled W₂ / D (report Table 1)", "W₂ / D",
                                [](const fa::PosteriorScore& s) { return s.w2OverDim; }),
    };
    m_scatters = {new ComparisonScatter(ComparisonScatter::Quantity::Means),
                  new ComparisonScatter(ComparisonScatter::Quantity::Variances),
                  new ComparisonScatter(ComparisonScatter::Quantity::Covariances)};

    auto* live = new QWidget;
    auto* liveLayout = new QHBoxLayout(live);
    auto* curves = new QGridLayout;
    for (int k = 0; k < 4; ++k)
        curves->addWidget(m_curves[static_cast<std::size_t>(k)], k / 2, k % 2);
    liveLayout->addWidget(m_contours, 5);
    liveLayout->addLayout(curves, 6);
    auto* compare = new QWidget;
    auto* compareLayout = new QHBoxLayout(compare);
    for (ComparisonScatter* s : m_scatters)
        compareLayout->addWidget(s);
    m_tabs->addTab(live, "Live posterior");
    m_tabs->addTab(compare, "Compare with the exact posterior");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(modeLayout({m_controls}, m_tabs));

    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &PosteriorWorker::snapshotReady, this, &PosteriorPage::onSnapshot);
    connect(m_worker, &PosteriorWorker::runningChanged, this, [this](bool running) {
        m_running = running;
        emit runningChanged(running);
    });
    connect(m_worker, &PosteriorWorker::failed, this, [this](const QString& why) {
        fail("Cannot start this run", why);
        emit statusChanged("", "⚠ " + why);
    });
    connect(m_worker, &PosteriorWorker::refused, this,
            [this](const QString& why) { emit message("Refused: " + why, 8000); });
    connect(m_worker, &PosteriorWorker::reachedEpoch, this, [this](long epoch) {
        if (m_waitFor >= 0 && epoch >= m_waitFor) {
            m_waitFor = -1;
            m_dirty = true;
            redraw();
            emit reachedEpoch(epoch);
        }
    });
    connect(m_controls, &PosteriorControls::structureChanged, this, &PosteriorPage::reset);
    connect(m_controls, &PosteriorControls::openCsvRequested, this, &PosteriorPage::openCsvDialog);
    connect(m_controls, &PosteriorControls::learningRateChanged, this, [this](double eta) {
        QMetaObject::invokeMethod(m_worker, "setSgdLearningRate", Q_ARG(double, eta));
    });
    connect(m_controls, &PosteriorControls::lambdaChanged, this, [this](double lambda) {
        QMetaObject::invokeMethod(m_worker, "setLambda", Q_ARG(double, lambda));
    });
    connect(m_controls, &PosteriorControls::coordinatesChanged, this, [this](int i, int j) {
        QMetaObject::invokeMethod(m_worker, "setCoordinates", Q_ARG(int, i), Q_ARG(int, j));
    });
    connect(m_controls, &PosteriorControls::speedChanged, this, [this](double v) {
        QMetaObject::invokeMethod(m_worker, "setSpeed", Q_ARG(double, v));
    });
    m_thread.start();

    m_redraw.setInterval(33); // at most ~30 redraws a second
    connect(&m_redraw, &QTimer::timeout, this, &PosteriorPage::redraw);
    m_redraw.start();
    reset();
}

PosteriorPage::~PosteriorPage() {
    m_thread.quit();
    m_thread.wait();
}

PosteriorCurveChart* PosteriorPage::curveChart(int metric) const {
    return m_curves.at(static_cast<std::size_t>(metric));
}

ComparisonScatter* PosteriorPage::comparison(int quantity) const {
    return m_scatters.at(static_cast<std::size_t>(quantity));
}

std::vector<std::pair<QString, QWidget*>> PosteriorPage::charts() const {
    return {{"posterior-contours-2d", m_contours},  {"posterior-rel-mean", m_curves[0]},
            {"posterior-rel-cov", m_curves[1]},     {"posterior-w2", m_curves[2]},
            {"posterior-w2-over-d", m_curves[3]},   {"posterior-means", m_scatters[0]},
            {"posterior-variances", m_scatters[1]}, {"posterior-covariances", m_scatters[2]}};
}

void PosteriorPage::start(const fa::PosteriorLiveConfig& config) {
    m_lastError.clear();
    m_waitFor = -1;
    QMetaObject::invokeMethod(m_worker, "setSpeed", Q_ARG(double, m_controls->speed()));
    QMetaObject::invokeMethod(m_worker, "setCoordinates", Q_ARG(int, m_controls->coordI()),
                              Q_ARG(int, m_controls->coordJ()));
    QMetaObject::invokeMethod(m_worker, "configure", Q_ARG(fa::PosteriorLiveConfig, config));
}

void PosteriorPage::reset() {
    start(m_controls->config());
}

void PosteriorPage::togglePlay() {
    QMetaObject::invokeMethod(m_worker, m_running ? "pause" : "play");
}

void PosteriorPage::stepOnce() {
    QMetaObject::invokeMethod(m_worker, "step", Q_ARG(long, m_controls->stepEpochs()));
}

void PosteriorPage::runUntil(long epoch) {
    m_waitFor = epoch;
    QMetaObject::invokeMethod(m_worker, "runUntil", Q_ARG(long, epoch));
}

void PosteriorPage::onSnapshot(PosteriorSnapshotPtr snapshot) {
    m_latest = std::move(snapshot);
    m_dirty = true;
}

void PosteriorPage::redraw() {
    if (!m_dirty || !m_latest)
        return;
    m_dirty = false;
    const fa::PosteriorLiveSnapshot& s = *m_latest;
    ContourScene scene;
    const auto name = [&](int k) {
        return QString("θ%1 (%2)")
            .arg(k + 1)
            .arg(QString::fromStdString(s.parameterNames[static_cast<std::size_t>(k)]));
    };
    scene.title = QString("%1: posterior of %2 and %3, 39 / 86 / 99 % mass")
                      .arg(QString::fromStdString(s.dataset), name(s.coordI), name(s.coordJ));
    scene.xLabel = name(s.coordI);
    scene.yLabel = name(s.coordJ);
    scene.reference = "exact";
    scene.models.push_back({"exact", true, s.exactMarginal});
    for (const auto& a : s.approximations)
        scene.models.push_back({fa::methodName(a.method), a.valid, a.marginal});
    scene.cloud = s.iterates;
    m_contours->showScene(scene);
    for (PosteriorCurveChart* c : m_curves)
        c->showSnapshot(s);
    for (ComparisonScatter* c : m_scatters)
        c->showSnapshot(s);
    m_controls->showRun(s);
    QStringList states;
    for (const auto& a : s.approximations)
        if (a.status != "ok")
            states << QString("%1: %2").arg(QString::fromStdString(fa::methodName(a.method)),
                                            QString::fromStdString(a.status));
    emit statusChanged(QString("epoch %1").arg(s.epoch),
                       states.isEmpty() ? "all approximations running" : states.join("   "));
}

void PosteriorPage::fail(const QString& what, const QString& why) {
    m_lastError = what + ": " + why;
    emit message("⚠ " + m_lastError, 15000);
}

bool PosteriorPage::openCsv(const QString& path) {
    // Check the whole file first, so a bad cell is named before the current run is replaced.
    try {
        fa::io::loadRegressionCsv(path.toStdString());
    } catch (const std::exception& e) {
        fail("Cannot use this CSV file", QString::fromUtf8(e.what()));
        return false;
    }
    QString error;
    if (!m_controls->useCsv(path, &error)) {
        fail("Cannot use this CSV file", error);
        return false;
    }
    emit message("Opened " + QDir::toNativeSeparators(path) +
                     " (target: the last column; change it under 'target')",
                 8000);
    return true;
}

void PosteriorPage::openCsvDialog() {
    const QString path = QFileDialog::getOpenFileName(this, "Open regression data", {},
                                                      "CSV files (*.csv);;All files (*)");
    if (!path.isEmpty() && !openCsv(path))
        QMessageBox::warning(this, "Open CSV", m_lastError + "\n\nThe current run is unchanged.");
}

bool PosteriorPage::openSession(const QString& path) {
    fa::io::PosteriorSession s;
    try {
        s = fa::io::loadPosteriorSession(path);
        s.config.setup.loader = fa::io::datasetLoader();
        fa::PosteriorLive probe(
            s.config); // data and parameters are checked before anything changes
        if (std::max(s.coordI, s.coordJ) >= probe.problem().dim())
            throw std::invalid_argument(
                "the view's parameters exceed the data set's parameter count");
    } catch (const std::exception& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false;
    }
    fa::PosteriorLiveConfig shown = s.config;
    if (!shown.changes.empty())
        shown.run.sgd.learningRate = shown.changes.back().sgdLearningRate;
    m_controls->setConfig(shown);
    m_sessionEpochs = s.epochs;
    QMetaObject::invokeMethod(m_worker, "setSpeed", Q_ARG(double, s.speed));
    QMetaObject::invokeMethod(m_worker, "setCoordinates", Q_ARG(int, s.coordI),
                              Q_ARG(int, s.coordJ));
    QMetaObject::invokeMethod(m_worker, "configure", Q_ARG(fa::PosteriorLiveConfig, s.config));
    if (s.epochs > 0)
        runUntil(s.epochs);
    emit message(QString("Opened %1 (replaying %2 epochs)")
                     .arg(QDir::toNativeSeparators(path))
                     .arg(s.epochs),
                 8000);
    return true;
}

bool PosteriorPage::saveSession(const QString& path) {
    if (!m_latest) {
        fail("Cannot save the session", "there is no run (its parameters were refused)");
        return false;
    }
    fa::io::PosteriorSession s;
    QMetaObject::invokeMethod(
        m_worker, [this] { return m_worker->currentConfig(); }, Qt::BlockingQueuedConnection,
        &s.config);
    s.coordI = m_latest->coordI;
    s.coordJ = m_latest->coordJ;
    s.speed = m_controls->speed();
    s.epochs = m_latest->epoch;
    try {
        fa::io::savePosteriorSession(path, s);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot save the session", QString::fromUtf8(e.what()));
        return false;
    }
    emit message("Saved " + QDir::toNativeSeparators(path), 5000);
    return true;
}

bool PosteriorPage::exportCurves(const QString& path) {
    if (!m_latest) {
        fail("Cannot export", "there is no run");
        return false;
    }
    std::vector<fa::PosteriorRow> rows;
    QMetaObject::invokeMethod(
        m_worker, [this] { return m_worker->currentRows(); }, Qt::BlockingQueuedConnection, &rows);
    try {
        fa::io::AtomicFile file(path.toStdString());
        fa::io::writePosteriorCsv(file.stream(), rows);
        file.commit();
    } catch (const std::exception& e) {
        fail("Cannot export the curves", QString::fromUtf8(e.what()));
        return false;
    }
    emit message("Exported the curves to " + QDir::toNativeSeparators(path), 5000);
    return true;
}
