#include "ui/common/LabPageOf.h"

#include <QComboBox>
#include <QFileInfo>

void showCsvChoice(QComboBox* datasets, int builtin, const QString& path) {
    const QString label = "CSV: " + QFileInfo(path).fileName();
    if (datasets->count() > builtin) {
        datasets->setItemText(builtin, label);
        datasets->setItemData(builtin, path);
    } else {
        datasets->addItem(label, path);
    }
    datasets->setCurrentIndex(builtin);
}
