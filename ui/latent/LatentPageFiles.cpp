// The latent lab's files: its data from a CSV, its sessions and its curves.
#include "ui/latent/LatentPage.h"

#include "core/io/CsvFormat.h"
#include "core/io/RegressionCsv.h"
#include "ui/common/FormWidgets.h"
#include "ui/session/LatentSessionFile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

bool LatentPage::openCsv(const QString& path) {
    long missing = 0;
    try {
        missing = fa::io::loadNumericCsv(path.toStdString(), true).values.array().isNaN().count();
    } catch (const std::exception& e) {
        fail("Cannot use this CSV file", QString::fromUtf8(e.what()));
        return false;
    }
    m_quiet = true;
    if (missing > 0) { // only PPCA's EM integrates missing values out
        m_model->setCurrentIndex(m_model->findData("ppca"));
        for (const auto& [m, box] : m_methods)
            box->setChecked(m == fa::LatentMethod::Em);
        m_missing->setChecked(true);
        emit message(QString("%1 empty cells: fitting PPCA by EM, which integrates missing "
                             "values out (the other methods need complete rows)")
                         .arg(missing),
                     10000);
    }
    const QString label = "CSV: " + QFileInfo(path).fileName();
    if (m_dataset->count() > kBuiltinSets)
        m_dataset->setItemText(kBuiltinSets, label), m_dataset->setItemData(kBuiltinSets, path);
    else
        m_dataset->addItem(label, path);
    m_dataset->setCurrentIndex(kBuiltinSets);
    m_quiet = false;
    resetView();
    modelChanged();
    return true;
}

void LatentPage::openCsvDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, "Open data", {}, "CSV files (*.csv);;All files (*)");
    if (!path.isEmpty() && !openCsv(path))
        QMessageBox::warning(this, "Open CSV", m_lastError + "\n\nThe current run is unchanged.");
}

bool LatentPage::exportCurves(const QString& path) {
    return exportRunRows<fa::LatentLive>(path, fa::io::writeLatentCsv);
}

bool LatentPage::openSession(const QString& path) {
    fa::io::LatentSession s;
    try {
        s = fa::io::loadLatentSession(path);
        s.config.loader = fa::io::tableLoader();
        const fa::LatentLive probe(s.config); // data and parameters checked before any change
    } catch (const std::exception& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false;
    }
    setConfig(s.config);
    m_speed->setValue(static_cast<int>(s.speed));
    m_sessionPosition = s.iterations;
    startRun([config = s.config]() { return std::make_unique<fa::LatentLive>(config); },
             Start::Paused);
    setSpeed(s.speed);
    if (s.iterations > 0)
        runUntil(s.iterations);
    emit message(QString("Opened %1 (replaying %2 iterations)")
                     .arg(QDir::toNativeSeparators(path))
                     .arg(s.iterations),
                 8000);
    return true;
}

bool LatentPage::saveSession(const QString& path) {
    const LatentSnapshotPtr latest = latestSnapshot();
    if (!latest) {
        fail("Cannot save the session", "there is no run (its parameters were refused)");
        return false;
    }
    fa::io::LatentSession s;
    s.speed = m_speed->value();
    s.iterations = latest->iteration;
    try {
        inspectRun([&](const fa::LiveRun* run) {
            if (run)
                s.config = static_cast<const fa::LatentLive*>(run)->config();
        });
        fa::io::saveLatentSession(path, s);
    } catch (const std::exception& e) {
        fail("Cannot save the session", QString::fromUtf8(e.what()));
        return false;
    }
    emit message("Saved " + QDir::toNativeSeparators(path), 5000);
    return true;
}
