// The latent lab's data controls: what applies to the model and data set, a picture set's count
// of pictures and classes, hidden entries (PPCA's EM alone), and which views the snapshot's
// data call for (charts of a table, or pictures: docs/maths/images.md).
#include "ui/latent/LatentPage.h"

#include "core/data/ImageData.h"
#include "core/io/ImageSets.h"
#include "ui/latent/LatentPictureViews.h"
#include "ui/latent/LatentViews.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>

namespace {
/// The count of pictures a picture set starts with: every digit (1,797), and 2,000 of
/// Fashion-MNIST's 70,000 so that an EM iteration stays live.
double picturesFor(const QString& dataset) {
    return dataset == "digits" ? 1797.0 : 2000.0;
}
} // namespace

bool LatentPage::pictures() const {
    return fa::io::isImageDataset(m_dataset->currentData().toString().toStdString());
}

void LatentPage::enableFields(fa::LatentModel model) {
    const bool synthetic = m_dataset->currentData().toString() == "synthetic";
    const bool ppca = model == fa::LatentModel::Ppca, images = pictures();
    m_components->setEnabled(model == fa::LatentModel::Mppca);
    m_prior->setEnabled(model != fa::LatentModel::Mppca);
    m_alpha->setEnabled(ppca && m_prior->currentData().toString() == "independent");
    m_hide->setEnabled(ppca);
    m_hideBlock->setEnabled(ppca && images);
    m_classes->setEnabled(images);
    for (QComboBox* axis : {m_axes.x(), m_axes.y()}) // pictures: no data plane in view
        axis->setEnabled(!images);
    for (QWidget* w : {static_cast<QWidget*>(m_dim), static_cast<QWidget*>(m_trueLatent)})
        w->setEnabled(synthetic);
    m_samples->setEnabled(synthetic || images);
    if (m_samplesLabel)
        m_samplesLabel->setText(images ? "pictures (at most)" : "rows");
    m_samples->setToolTip(
        images ? "Pictures: at most this many, the first in the files' order "
                 "(of the classes asked for); the last of them are held out."
               : QString::fromStdString(fa::paramByKey(fa::latentLiveParams(), "samples").help));
    m_missing->setEnabled(m_dataset->currentIndex() >= kBuiltinSets && ppca);
}

void LatentPage::datasetSwitched() {
    if (m_quiet)
        return;
    m_quiet = true;
    const bool images = pictures();
    if (images) { // the set's own count (the generated rows kept for later)
        if (!m_generatedRows)
            m_generatedRows = fieldValue(m_samples);
        setFieldValue(m_samples, picturesFor(m_dataset->currentData().toString()));
    } else {
        if (m_generatedRows)
            setFieldValue(m_samples, *m_generatedRows);
        m_generatedRows.reset();
        setFieldValue(m_hideBlock, 0); // a square needs pictures
    }
    m_quiet = false;
    resetView(); // another data set has other columns
    modelChanged();
}

void LatentPage::holesChanged(double amount) {
    if (m_quiet)
        return;
    if (amount > 0.0) { // only PPCA's EM fits rows with holes
        m_quiet = true;
        for (const auto& [m, box] : m_methods)
            box->setChecked(m == fa::LatentMethod::Em);
        m_quiet = false;
        emit message("Hidden entries: PPCA by EM fills them (the closed form needs complete "
                     "rows)",
                     8000);
    }
    reset();
}

void LatentPage::classesEdited() {
    if (m_quiet)
        return;
    std::vector<int> classes;
    try {
        classes = fa::parseImageClasses(m_classes->text().toStdString());
    } catch (const std::invalid_argument& e) {
        m_classes->setText(QString::fromStdString(fa::imageClassesText(m_classesShown)));
        fail("Cannot take these classes", QString::fromUtf8(e.what()));
        return;
    }
    m_classes->setText(QString::fromStdString(fa::imageClassesText(classes)));
    if (classes == m_classesShown)
        return; // the same classes (the field lost the focus)
    m_classesShown = classes;
    reset();
}

void LatentPage::showViews(const fa::LatentLiveSnapshot& s) {
    // Only the views in their places are drawn.
    if (s.pictures.layout.isImage()) {
        m_loadings->show(s);
        m_pictures->show(s);
        m_planeSlot->setCurrentWidget(m_loadings);
        m_meansSlot->setCurrentWidget(m_pictures);
    } else {
        m_plane->show(s);
        m_means->show(s);
        m_planeSlot->setCurrentWidget(m_plane);
        m_meansSlot->setCurrentWidget(m_means);
    }
    if (s.imputation.present) {
        m_imputation->show(s);
        m_traceSlot->setCurrentWidget(m_imputation);
    } else if (s.pictures.layout.isImage()) {
        m_noise->show(s);
        m_traceSlot->setCurrentWidget(m_noise);
    } else {
        m_trace->show(s);
        m_traceSlot->setCurrentWidget(m_trace);
    }
}
