// The posterior lab's fields to and from a fa::PosteriorLiveConfig.
#include "ui/posterior/PosteriorControls.h"

#include <QCheckBox>
#include <QComboBox>
#include <algorithm>

fa::PosteriorLiveConfig PosteriorControls::config() const {
    fa::PosteriorLiveConfig c;
    m_fields.read(c); // the numbers (core/posterior/PosteriorParams.h)
    fa::PosteriorSetup& s = c.setup;
    s.dataset = m_dataset->currentData().toString().toStdString();
    if (m_dataset->currentIndex() >= kBuiltinSets)
        s.target = m_target->currentText().toStdString();
    s.hyper = fa::parseHyperMode(m_hyper->currentData().toString().toStdString()); // auto: none
    c.methods = m_methods.checked();
    fa::PosteriorRunOptions& r = c.run;
    r.vifa.optimiser = m_optimiser->currentData().toString() == "adam" ? fa::OptimiserKind::Adam
                                                                       : fa::OptimiserKind::Sgd;
    r.compareEstimators = m_compare->isChecked();
    r.estimator = fa::parseEstimator(m_estimator->currentData().toString().toStdString())
                      .value_or(fa::GradientEstimator::Reparam);
    r.sgd.learningRate = m_sgdLearningRate;
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
    m_fields.show(c);
    const std::string hyper = c.setup.hyper ? fa::hyperModeName(*c.setup.hyper) : "auto";
    m_hyper->setCurrentIndex(m_hyper->findData(QString::fromStdString(hyper)));
    m_methods.check(c.methods);
    m_optimiser->setCurrentIndex(c.run.vifa.optimiser == fa::OptimiserKind::Adam ? 1 : 0);
    m_compare->setChecked(c.run.compareEstimators);
    m_estimator->setCurrentIndex(std::max(
        0, m_estimator->findData(QString::fromStdString(fa::estimatorName(c.run.estimator)))));
    // The slider's range is the rate's (core/posterior/PosteriorParams.h): beyond it, its bound.
    const fa::ParamInfo& rate = fa::paramByFlag(fa::posteriorLiveParams(), "sgd-lr");
    showLearningRate(std::clamp(c.run.sgd.learningRate, rate.lo, rate.hi));
    updateEnabled();
    m_quiet = false;
}
