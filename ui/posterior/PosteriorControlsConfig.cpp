// The posterior lab's fields to and from a fa::PosteriorLiveConfig.
#include "ui/posterior/LogSlider.h"
#include "ui/posterior/PosteriorControls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>

using namespace logslider;

fa::PosteriorLiveConfig PosteriorControls::config() const {
    fa::PosteriorLiveConfig c;
    fa::PosteriorSetup& s = c.setup;
    s.dataset = m_dataset->currentData().toString().toStdString();
    if (m_dataset->currentIndex() >= kBuiltinSets)
        s.target = m_target->currentText().toStdString();
    s.synthetic.samples = m_samples->value();
    c.length = m_length->value();
    s.trainFraction = m_trainFraction->value();
    const QString hyper = m_hyper->currentData().toString();
    if (hyper == "thesis")
        s.hyper = fa::HyperMode::Thesis;
    else if (hyper == "evidence")
        s.hyper = fa::HyperMode::Evidence;
    else if (hyper == "manual")
        s.hyper = fa::HyperMode::Manual;
    s.alpha = m_alpha->value();
    s.beta = m_beta->value();
    c.methods.clear();
    for (const auto& [method, box] : m_methods)
        if (box->isChecked())
            c.methods.push_back(method);
    fa::PosteriorRunOptions& r = c.run;
    r.latent = m_latent->value();
    r.vifa.batch = m_batch->value();
    r.vifa.samples = m_L->value();
    r.vifa.lrC = m_lrC->value();
    r.vifa.lrF = m_lrF->value();
    r.vifa.lrGamma = m_lrGamma->value();
    r.vifa.optimiser = m_optimiser->currentData().toString() == "adam" ? fa::OptimiserKind::Adam
                                                                       : fa::OptimiserKind::Sgd;
    r.vifa.maxGradNorm = m_maxNorm->value();
    r.vippcaSigma = m_sigma->value();
    r.compareEstimators = m_compare->isChecked();
    r.estimator = fa::parseEstimator(m_estimator->currentData().toString().toStdString())
                      .value_or(fa::GradientEstimator::Reparam);
    r.sgd.batch = m_sgdBatch->value();
    r.sgd.learningRate = fromSlider(m_lrSlider->value());
    r.warmupEpochs = m_warmupEpochs->value();
    c.seed = static_cast<std::uint64_t>(m_seed->value());
    return c;
}

void PosteriorControls::setConfig(const fa::PosteriorLiveConfig& c) {
    m_quiet = true;
    const QString dataset = QString::fromStdString(c.setup.dataset);
    const int builtin = m_dataset->findData(dataset);
    if (builtin >= 0 && builtin < kBuiltinSets) {
        m_dataset->setCurrentIndex(builtin);
    } else {
        showCsv(dataset, nullptr); // the caller checked the file; this fills the target list
        m_quiet = true;
        const int t = m_target->findText(QString::fromStdString(c.setup.target));
        if (t >= 0)
            m_target->setCurrentIndex(t);
    }
    m_samples->setValue(c.setup.synthetic.samples);
    m_trainFraction->setValue(c.setup.trainFraction);
    const char* hyper = !c.setup.hyper                              ? "auto"
                        : *c.setup.hyper == fa::HyperMode::Thesis   ? "thesis"
                        : *c.setup.hyper == fa::HyperMode::Evidence ? "evidence"
                                                                    : "manual";
    m_hyper->setCurrentIndex(m_hyper->findData(hyper));
    if (c.setup.alpha > 0.0)
        m_alpha->setValue(c.setup.alpha);
    if (c.setup.beta > 0.0)
        m_beta->setValue(c.setup.beta);
    for (const auto& [method, box] : m_methods)
        box->setChecked(std::find(c.methods.begin(), c.methods.end(), method) != c.methods.end());
    m_latent->setValue(c.run.latent);
    m_batch->setValue(c.run.vifa.batch);
    m_L->setValue(c.run.vifa.samples);
    m_lrC->setValue(c.run.vifa.lrC);
    m_lrF->setValue(c.run.vifa.lrF);
    m_lrGamma->setValue(c.run.vifa.lrGamma);
    m_optimiser->setCurrentIndex(c.run.vifa.optimiser == fa::OptimiserKind::Adam ? 1 : 0);
    m_maxNorm->setValue(c.run.vifa.maxGradNorm);
    m_sigma->setValue(c.run.vippcaSigma);
    m_compare->setChecked(c.run.compareEstimators);
    m_estimator->setCurrentIndex(std::max(
        0, m_estimator->findData(QString::fromStdString(fa::estimatorName(c.run.estimator)))));
    m_sgdBatch->setValue(c.run.sgd.batch);
    m_lrSlider->setValue(toSlider(c.run.sgd.learningRate, kLrLo, kLrHi));
    m_warmupEpochs->setValue(c.run.warmupEpochs);
    m_seed->setValue(static_cast<double>(c.seed));
    m_length->setValue(static_cast<int>(c.length));
    updateEnabled();
    m_quiet = false;
}
