// The explorer's parameters and view, remembered between launches (QSettings).
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/ExplorerPage.h"

#include <QSettings>
#include <algorithm>

void ExplorerPage::restoreSettings(QSettings& s) {
    if (!s.contains("params/dim"))
        return;
    fa::ExplorerConfig c = m_controls->config();
    c.generator.dim = s.value("params/dim").toInt();
    c.generator.latent = s.value("params/latent").toInt();
    c.generator.spectrumLo = s.value("params/spectrumLo").toDouble();
    c.generator.spectrumHi = s.value("params/spectrumHi").toDouble();
    c.generator.kind = s.value("params/generator").toString() == "haar" ? fa::GeneratorKind::Haar
                                                                        : fa::GeneratorKind::Exact;
    c.seed = s.value("params/seed").toULongLong();
    c.fitLatent = s.value("params/fitLatent").toInt();
    c.runEm = s.value("params/em", true).toBool();
    c.runSga = s.value("params/sga", true).toBool();
    c.runBatch = s.value("params/batch", true).toBool();
    c.learningRate = s.value("params/learningRate").toDouble();
    c.warmup = s.value("params/warmup").toLongLong();
    c.totalSamples = s.value("params/totalSamples").toLongLong();
    try {
        fa::validate(c);
        m_controls->setConfig(c);
        fa::ViewOptions v;
        v.coordI = s.value("view/coordI", 0).toInt();
        v.coordJ = s.value("view/coordJ", 1).toInt();
        v.blockSize = s.value("view/blockSize", 40).toInt();
        if (v.coordI != v.coordJ && v.coordI >= 0 && v.coordJ >= 0 &&
            std::max(v.coordI, v.coordJ) < c.generator.dim) {
            m_controls->setViewOptions(v);
            m_viewRestored = s.contains("view/coordI"); // the first run keeps it
        }
        m_controls->setSpeed(std::max(0.0, s.value("view/speed", 0.0).toDouble()));
    } catch (const std::exception&) {
        // stale or edited settings: keep the defaults
    }
}

void ExplorerPage::saveSettings(QSettings& s) const {
    const fa::ExplorerConfig c = m_controls->config();
    s.setValue("params/dim", c.generator.dim);
    s.setValue("params/latent", c.generator.latent);
    s.setValue("params/spectrumLo", c.generator.spectrumLo);
    s.setValue("params/spectrumHi", c.generator.spectrumHi);
    s.setValue("params/generator", QString::fromStdString(fa::generatorName(c.generator.kind)));
    s.setValue("params/seed", QVariant::fromValue<qulonglong>(c.seed));
    s.setValue("params/fitLatent", c.fitLatent);
    s.setValue("params/em", c.runEm);
    s.setValue("params/sga", c.runSga);
    s.setValue("params/batch", c.runBatch);
    s.setValue("params/learningRate", c.learningRate);
    s.setValue("params/warmup", QVariant::fromValue<qlonglong>(c.warmup));
    s.setValue("params/totalSamples", QVariant::fromValue<qlonglong>(c.totalSamples));
    const fa::ViewOptions v = m_controls->viewOptions();
    s.setValue("view/coordI", v.coordI);
    s.setValue("view/coordJ", v.coordJ);
    s.setValue("view/blockSize", v.blockSize);
    s.setValue("view/speed", m_controls->speed());
}
