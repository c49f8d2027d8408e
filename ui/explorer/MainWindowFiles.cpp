// The window's file operations: sessions, CSV export of curves and trials, PNG/SVG charts.
#include "ui/common/MainWindow.h"

#include "core/io/AtomicFile.h"
#include "core/io/CsvFormat.h"
#include "ui/common/BandChartView.h"
#include "ui/common/ContourView.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/CovarianceHeatMaps.h"
#include "ui/explorer/ErrorChartView.h"
#include "ui/explorer/TrialsPanel.h"
#include "ui/neural/NeuralPage.h"
#include "ui/posterior/PosteriorPage.h"
#include "ui/session/SessionFile.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPainter>
#include <QStatusBar>
#include <QSvgGenerator>

bool MainWindow::openSession(const QString& path) {
    QString mode;
    try {
        mode = fa::io::sessionMode(path);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false;
    }
    if (mode == "posterior") {
        if (!m_posterior->openSession(path)) {
            m_lastError = m_posterior->lastError();
            return false;
        }
        setPosteriorMode(true);
        m_sessionSamples = m_posterior->latestSessionEpochs();
        return true;
    }
    fa::io::Session s;
    try {
        s = fa::io::loadSession(path);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false; // nothing changed
    }
    fa::ExplorerConfig shown = s.config;
    if (!shown.learningRateChanges.empty())
        shown.learningRate =
            shown.learningRateChanges.back().second; // the rate in force at the end
    m_controls->setConfig(shown);
    m_controls->setViewOptions(s.view);
    m_controls->setSpeed(s.speed);
    m_sessionSamples = s.samples;
    setPosteriorMode(false);
    start(s.config); // with its learning-rate changes, replayed at their sample counts
    if (s.samples > 0)
        runUntil(s.samples);
    statusBar()->showMessage(QString("Opened %1 (replaying %2 samples)")
                                 .arg(QDir::toNativeSeparators(path))
                                 .arg(s.samples),
                             8000);
    return true;
}

bool MainWindow::saveSession(const QString& path) {
    if (mode() == Mode::Neural) {
        fail("Cannot save a session",
             "sessions hold the FA explorer and the posterior lab; the neural lab's "
             "results are saved with Export (Ctrl+E)");
        return false;
    }
    if (posteriorMode()) {
        const bool ok = m_posterior->saveSession(path);
        m_lastError = m_posterior->lastError();
        return ok;
    }
    if (!m_latest) {
        fail("Cannot save the session", "there is no run (its parameters were refused)");
        return false;
    }
    fa::io::Session s;
    s.config = m_latest->config;
    s.view = m_controls->viewOptions();
    s.speed = m_controls->speed();
    s.samples = m_latest->samples;
    try {
        fa::io::saveSession(path, s);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot save the session", QString::fromUtf8(e.what()));
        return false;
    }
    statusBar()->showMessage("Saved " + QDir::toNativeSeparators(path), 5000);
    return true;
}

namespace {
bool writeRows(const QString& path, const std::vector<fa::FaSweepRow>& rows, QString& error) {
    try {
        fa::io::AtomicFile file(path.toStdString());
        fa::io::writeFaSweepCsv(file.stream(), rows);
        file.commit();
        return true;
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
        return false;
    }
}
} // namespace

bool MainWindow::exportCurves(const QString& path) {
    if (mode() == Mode::Neural) {
        const bool ok = m_neural->exportRows(path);
        m_lastError = m_neural->lastError();
        return ok;
    }
    if (posteriorMode()) {
        const bool ok = m_posterior->exportCurves(path);
        m_lastError = m_posterior->lastError();
        return ok;
    }
    if (!m_latest) {
        fail("Cannot export", "there is no run");
        return false;
    }
    QString error;
    if (!writeRows(path, fa::sweepRows(*m_latest, m_latest->config), error)) {
        fail("Cannot export the curves", error);
        return false;
    }
    statusBar()->showMessage("Exported the curves to " + QDir::toNativeSeparators(path), 5000);
    return true;
}

bool MainWindow::exportTrials(const QString& path) {
    if (m_trials->rows().empty()) {
        fail("Cannot export trials", "no trials have finished yet (Run trials, Ctrl+T)");
        return false;
    }
    QString error;
    if (!writeRows(path, m_trials->rows(), error)) {
        fail("Cannot export the trials", error);
        return false;
    }
    statusBar()->showMessage("Exported the trials to " + QDir::toNativeSeparators(path), 5000);
    return true;
}

QStringList MainWindow::exportCharts(const QString& folder) {
    const QDir dir(folder);
    QStringList written;
    if (!dir.exists()) {
        fail("Cannot export the charts", QString("the folder '%1' does not exist").arg(folder));
        return written;
    }
    const std::vector<std::pair<QString, QWidget*>> charts =
        mode() == Mode::Neural ? m_neural->charts()
        : posteriorMode()      ? m_posterior->charts()
                               : std::vector<std::pair<QString, QWidget*>>{
                                     {"covariance-distance", m_covChart},
                                     {"w2-over-d", m_w2Chart},
                                     {"contours-2d", m_contours},
                                     {"covariance-heatmaps", m_heatMaps},
                                     {"trials-covariance", m_trials->covarianceChart()},
                                     {"trials-w2", m_trials->wassersteinChart()}};
    for (const auto& [name, widget] : charts) {
        const QSize size = widget->size().isEmpty() ? QSize(640, 480) : widget->size();
        if (widget->size().isEmpty() || !widget->isVisible())
            widget->resize(size); // charts on a hidden tab still render at a sensible size
        const QString png = dir.filePath(name + ".png"), svg = dir.filePath(name + ".svg");
        if (!widget->grab().save(png)) {
            fail("Cannot export the charts", "cannot write " + QDir::toNativeSeparators(png));
            return written;
        }
        written << png;
        QSvgGenerator generator;
        generator.setFileName(svg);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle("FA Explorer: " + name);
        QPainter painter;
        if (!painter.begin(&generator)) {
            fail("Cannot export the charts", "cannot write " + QDir::toNativeSeparators(svg));
            return written;
        }
        widget->render(&painter);
        painter.end();
        written << svg;
    }
    statusBar()->showMessage(QString("Exported %1 files to %2")
                                 .arg(written.size())
                                 .arg(QDir::toNativeSeparators(folder)),
                             8000);
    return written;
}

void MainWindow::openSessionDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, "Open session", {}, "FA Explorer sessions (*.json)");
    if (!path.isEmpty() && !openSession(path))
        QMessageBox::warning(this, "Open session", m_lastError + "\n\nNothing was changed.");
}

void MainWindow::saveSessionDialog() {
    const QString path = QFileDialog::getSaveFileName(this, "Save session", "session.json",
                                                      "FA Explorer sessions (*.json)");
    if (!path.isEmpty() && !saveSession(path))
        QMessageBox::warning(this, "Save session", m_lastError);
}

void MainWindow::exportCurvesDialog() {
    const QString path = QFileDialog::getSaveFileName(this, "Export curves",
                                                      mode() == Mode::Neural ? "neural-splits.csv"
                                                      : posteriorMode() ? "posterior-curves.csv"
                                                                        : "fa-curves.csv",
                                                      "CSV files (*.csv)");
    if (!path.isEmpty() && !exportCurves(path))
        QMessageBox::warning(this, "Export curves", m_lastError);
}

void MainWindow::exportChartsDialog() {
    const QString folder = QFileDialog::getExistingDirectory(this, "Export charts to folder");
    if (!folder.isEmpty() && exportCharts(folder).isEmpty())
        QMessageBox::warning(this, "Export charts", m_lastError);
}
