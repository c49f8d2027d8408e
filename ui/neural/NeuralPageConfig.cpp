// The neural lab's fields to a fa::NeuralLiveConfig.
#include "ui/neural/NeuralPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>

fa::NeuralLiveConfig NeuralPage::config() const {
    fa::NeuralLiveConfig c;
    c.dataset = m_dataset->currentData().toString().toStdString();
    c.methods.clear();
    for (const auto& [m, box] : m_methods)
        if (box->isChecked())
            c.methods.push_back(m);
    c.fit.hidden = m_hidden->currentData().toString() == "50,50" ? std::vector<int>{50, 50}
                                                                 : std::vector<int>{50};
    c.fit.latent = m_latent->value();
    c.fit.batch = m_batch->value();
    c.fit.samples = m_L->value();
    c.fit.learningRate = m_lr->value();
    c.fit.optimiser = m_optimiser->currentData().toString() == "sgd" ? fa::OptimiserKind::Sgd
                                                                     : fa::OptimiserKind::Adam;
    c.fit.reportInit = m_init->currentData().toString() == "report";
    c.hyper.priorPrecision = m_prior->value();
    c.hyper.noisePrecision = m_noise->value();
    c.hyper.sigma = m_sigma->value();
    c.split = m_split->value();
    c.seed = static_cast<std::uint64_t>(m_seed->value());
    return c;
}

void NeuralPage::setMethods(const std::vector<fa::NeuralMethod>& methods) {
    m_quiet = true;
    for (const auto& [m, box] : m_methods)
        box->setChecked(std::find(methods.begin(), methods.end(), m) != methods.end());
    m_quiet = false;
    reset();
}
