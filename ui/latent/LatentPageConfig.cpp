// The latent lab's fields to a fa::LatentLiveConfig and back.
#include "ui/latent/LatentPage.h"

#include "core/io/ImageSets.h"
#include "core/io/RegressionCsv.h"
#include "core/math/Rng.h"
#include "ui/common/FormWidgets.h"
#include "ui/latent/LatentPictureViews.h"
#include "ui/latent/LatentViews.h"
#include "ui/session/LatentSessionFile.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QStackedWidget>
#include <algorithm>

fa::LatentLiveConfig LatentPage::config() const {
    fa::LatentLiveConfig c;
    fa::LatentDataSpec& d = c.data;
    d.dataset = m_dataset->currentData().toString().toStdString();
    d.model = fa::parseLatentModel(m_model->currentData().toString().toStdString());
    c.methods = m_methods.checked([&d](fa::LatentMethod m) { return fa::modelOffers(d.model, m); });
    m_fields.read(c);
    // The same numbers as trial 0 of `faexplorer-cli latent --seed S` with these settings.
    d.splitSeed = fa::deriveSeed(d.modelSeed, fa::SeedStream::FirstTrial);
    c.fit.seed = d.modelSeed;
    c.fit.prior = fa::parseFaPrior(m_prior->currentData().toString().toStdString());
    d.allowMissing = m_missing->isEnabled() && m_missing->isChecked();
    d.synthetic.components = c.fit.components;
    d.images = fa::io::firstPictures(d.dataset, d.synthetic.samples, m_classesShown);
    std::tie(c.viewX, c.viewY) = m_axes.view();
    if (c.viewX < 0 || c.viewY < 0 || c.viewX == c.viewY)
        c.viewX = c.viewY = -1;
    c.traceEntry = std::max(0, m_traceEntry->currentIndex());
    c.loader = fa::io::tableLoader(); // the bundled tables, or the CSV file named
    return c;
}

void LatentPage::setConfig(const fa::LatentLiveConfig& c) {
    m_quiet = true;
    m_mixtureSizes.reset(); // the sizes are the configuration's own now
    const QString dataset = QString::fromStdString(c.data.dataset);
    if (const int index = m_dataset->findData(dataset); index >= 0)
        m_dataset->setCurrentIndex(index);
    else
        showCsvChoice(m_dataset, kBuiltinSets, dataset);
    m_model->setCurrentIndex(
        m_model->findData(QString::fromStdString(fa::latentModelName(c.data.model))));
    m_methods.check(c.methods);
    m_fields.show(c);
    // FA's "independent" runs as the first entry does (EM keeps maximum likelihood).
    fillPriors(c.data.model, c.fit.prior);
    m_missing->setChecked(c.data.allowMissing);
    m_classesShown = c.data.images.classes;
    m_classes->setText(QString::fromStdString(fa::imageClassesText(m_classesShown)));
    m_generatedRows.reset();
    m_quiet = false;
    for (const auto& [m, box] : m_methods)
        box->setEnabled(fa::modelOffers(c.data.model, m));
    enableFields(c.data.model);
}

std::vector<std::pair<QString, QWidget*>> LatentPage::charts() const {
    // The view in each place (pictures: the loadings, the rows and Ψ as pictures).
    using Chart = std::pair<QString, QWidget*>;
    const QWidget* trace = m_traceSlot->currentWidget();
    const bool images = m_planeSlot->currentWidget() == m_loadings;
    return {{"latent-loglik", m_loglik},
            images ? Chart{"latent-loadings", m_loadings} : Chart{"latent-data", m_plane},
            trace == m_imputation ? Chart{"latent-imputation", m_imputation}
            : trace == m_noise    ? Chart{"latent-noise", m_noise}
                                  : Chart{"latent-trace", m_trace},
            images ? Chart{"latent-pictures", m_pictures} : Chart{"latent-means", m_means}};
}
