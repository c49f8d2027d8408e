// The nonlinear-FA lab's fields to a fa::VaeLiveConfig and back, its choices, and its files:
// data from a CSV, sessions and curves.
#include "ui/nonlinear/NonlinearPage.h"

#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "core/vae/VaeCsv.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/MethodStyle.h"
#include "ui/nonlinear/NonlinearViews.h"
#include "ui/session/VaeSessionFile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <algorithm>

fa::VaeLiveConfig NonlinearPage::config() const {
    fa::VaeLiveConfig c;
    fa::VaeDataSpec& d = c.data;
    d.dataset = m_dataset->currentData().toString().toStdString();
    c.methods = m_methods.checked();
    m_fields.read(c); // the seed is trial 0's of `vae --seed S`
    d.images = fa::io::firstPictures(d.dataset, d.samples);
    d.trueLatent = std::min(d.trueLatent, d.dim - 1);
    c.fit.hidden.assign(static_cast<std::size_t>(m_layers->value()), m_units->value());
    c.fit.activation = fa::parseActivation(m_activation->currentData().toString().toStdString());
    c.fit.noise = fa::parseNoiseKind(m_noise->currentData().toString().toStdString());
    c.fit.encoderGradient =
        fa::parseEncoderGradient(m_encoderGradient->currentData().toString().toStdString());
    c.fit.floatProducts = m_precision->currentData() == "float";
    // The linear VAE: σ²I learned (PPCA's model) unless a session says otherwise; a fixed σ² is
    // one for every method.
    c.fit.linearNoise = c.fit.noise == fa::NoiseKind::Fixed     ? fa::NoiseKind::Fixed
                        : m_linearNoise == fa::NoiseKind::Fixed ? fa::NoiseKind::Isotropic
                                                                : m_linearNoise;
    std::tie(c.viewX, c.viewY) = m_axes.view();
    if (c.viewX < 0 || c.viewY < 0 || c.viewX == c.viewY)
        c.viewX = c.viewY = -1;
    c.colourBy = std::max(-1, m_colourBy->currentIndex() - 1);
    // The views keep showing the same method while it is chosen (at first: the VAE).
    const QString shown =
        m_viewMethod->count() > 0 ? m_viewMethod->currentData().toString() : QString("vae");
    c.viewMethod = 0;
    for (std::size_t i = 0; i < c.methods.size(); ++i)
        if (QString::fromStdString(fa::vaeMethodName(c.methods[i])) == shown)
            c.viewMethod = static_cast<int>(i);
    c.loader = fa::io::tableLoader(); // the bundled tables, or the CSV file named
    return c;
}

void NonlinearPage::setConfig(const fa::VaeLiveConfig& c) {
    m_quiet = true;
    const QString dataset = QString::fromStdString(c.data.dataset);
    if (const int index = m_dataset->findData(dataset); index >= 0)
        m_dataset->setCurrentIndex(index);
    else
        showCsvChoice(m_dataset, kBuiltinSets, dataset);
    m_methods.check(c.methods);
    m_fields.show(c);
    m_layers->setValue(static_cast<int>(c.fit.hidden.size()));
    if (!c.fit.hidden.empty())
        m_units->setValue(c.fit.hidden.front());
    m_activation->setCurrentIndex(
        m_activation->findData(QString::fromStdString(fa::activationName(c.fit.activation))));
    m_noise->setCurrentIndex(
        m_noise->findData(QString::fromStdString(fa::noiseKindName(c.fit.noise))));
    m_encoderGradient->setCurrentIndex(m_encoderGradient->findData(
        QString::fromStdString(fa::estimatorName(c.fit.encoderGradient))));
    m_precision->setCurrentIndex(m_precision->findData(
        QString::fromStdString(fa::nameIn(fa::kPrecisionNames, c.fit.floatProducts))));
    m_linearNoise = c.fit.linearNoise;
    m_noiseVariance->setEnabled(c.fit.noise == fa::NoiseKind::Fixed);
    const bool generated = fa::isGeneratedVaeSet(c.data.dataset);
    m_dim->setEnabled(generated);
    m_samples->setEnabled(generated || fa::io::isImageDataset(c.data.dataset));
    m_trueLatent->setEnabled(dataset == "synthetic" || dataset == "nonlinear-synthetic");
    m_dataNoise->setEnabled(generated && dataset != "synthetic");
    m_quiet = false;
}

void NonlinearPage::fillChoices(const fa::VaeLiveSnapshot& s) {
    m_quiet = true;
    if (m_axes.offer(s.columns)) { // new columns: colour by any of them too
        m_colourBy->clear();
        m_colourBy->addItem(s.image.isImage() ? "class" : "position along the manifold");
        for (const auto& c : s.columns)
            m_colourBy->addItem(QString::fromStdString(c));
    }
    std::vector<std::string> ids;
    for (const auto& m : s.methods)
        ids.push_back(fa::vaeMethodName(m.method));
    if (ids != m_shownMethods) {
        m_shownMethods = ids;
        m_viewMethod->clear();
        for (const auto& id : ids)
            m_viewMethod->addItem(displayName(id, fa::Lab::Nonlinear), QString::fromStdString(id));
    }
    // The combos show the run's views (a session's, or what a refusal kept).
    m_axes.select(s.xLabel, s.yLabel);
    // Without a manifold (real data, PPCA) there is no position to colour by.
    if (auto* items = qobject_cast<QStandardItemModel*>(m_colourBy->model());
        items && items->item(0))
        items->item(0)->setEnabled(s.hasPosition);
    m_colourBy->setCurrentIndex(m_axes.indexOf(s.colourLabel));
    m_viewMethod->setCurrentIndex(
        std::max(0, m_viewMethod->findData(QString::fromStdString(s.viewMethod))));
    m_quiet = false;
}

std::vector<std::pair<QString, QWidget*>> NonlinearPage::charts() const {
    const bool pictures = m_dataSlot->currentWidget() == m_pictures;
    return {{"nonlinear-elbo", m_elbo},
            {"nonlinear-gaps", m_gaps},
            {"nonlinear-latent", m_latentView},
            {pictures ? "nonlinear-mosaic" : "nonlinear-data",
             pictures ? static_cast<QWidget*>(m_pictures) : m_data}};
}

bool NonlinearPage::openCsv(const QString& path) {
    try {
        const auto table = fa::io::loadNumericCsv(path.toStdString(), false);
        if (table.values.cols() < 2)
            throw std::invalid_argument("it has fewer than two numeric columns");
    } catch (const std::exception& e) {
        fail("Cannot use this CSV file", QString::fromUtf8(e.what()));
        return false;
    }
    m_quiet = true;
    showCsvChoice(m_dataset, kBuiltinSets, path);
    m_quiet = false;
    resetView();
    dataChanged();
    return true;
}

bool NonlinearPage::exportCurves(const QString& path) {
    return exportRows(path, fa::io::writeVaeCsv);
}
