// The latent lab's files: its data from a CSV, its sessions and its curves.
#include "ui/latent/LatentPage.h"

#include "core/io/RegressionCsv.h"
#include "core/latent/LatentCsv.h"
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
    showCsvChoice(m_dataset, kBuiltinSets, path);
    m_quiet = false;
    resetView();
    modelChanged();
    return true;
}

bool LatentPage::exportCurves(const QString& path) {
    return exportRows(path, fa::io::writeLatentCsv);
}

bool LatentPage::exportTable(const QString& table, const QString& path) {
    if (table != "imputation")
        return LabPage::exportTable(table, path);
    return exportRows(path, fa::io::writeImputationCsv);
}
