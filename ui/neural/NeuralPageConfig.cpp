// The neural lab's fields to a fa::NeuralLiveConfig and back, its sessions, and the settings it
// keeps between launches (its session, in QSettings).
#include "ui/neural/NeuralPage.h"

#include "core/io/RegressionCsv.h"
#include "ui/session/NeuralSessionFile.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>

fa::NeuralLiveConfig NeuralPage::config() const {
    fa::NeuralLiveConfig c;
    c.dataset = m_dataset->currentData().toString().toStdString();
    c.methods = m_methods.checked();
    c.iterateMethods = m_iterateMethods.checked();
    c.fit.hidden.clear();
    for (const QString& units : m_hidden->currentData().toString().split(','))
        c.fit.hidden.push_back(units.toInt());
    m_fields.read(c);
    c.fit.optimiser = m_optimiser->currentData().toString() == "sgd" ? fa::OptimiserKind::Sgd
                                                                     : fa::OptimiserKind::Adam;
    c.fit.reportInit = m_init->currentData().toString() == "report";
    c.iterate.faStart = *fa::parseFaStart(m_faStart->currentData().toString().toStdString());
    c.loader = fa::io::datasetLoader(); // the bundled sets, or the CSV file named
    return c;
}

void NeuralPage::setMethods(const std::vector<fa::NeuralMethod>& methods) {
    m_quiet = true;
    m_methods.check(methods);
    m_quiet = false;
    reset();
}

void NeuralPage::selectDataset(const QString& dataset) {
    if (const int index = m_dataset->findData(dataset); index >= 0)
        m_dataset->setCurrentIndex(index);
    else // a CSV file: the entry after the built-in sets
        showCsvChoice(m_dataset, static_cast<int>(std::size(kNeuralDatasets)), dataset);
}

void NeuralPage::setConfig(const fa::NeuralLiveConfig& c) {
    m_quiet = true;
    selectDataset(QString::fromStdString(c.dataset));
    m_methods.check(c.methods);
    m_iterateMethods.check(c.iterateMethods);
    // Any shape a session or the CLI may give (each layer 1 to 100000 units) is kept: one
    // not offered yet becomes an entry of its own ("2 × 2000 ReLU"), never the nearest preset.
    QStringList units;
    for (const int h : c.fit.hidden)
        units << QString::number(h);
    const QString key = units.join(',');
    if (m_hidden->findData(key) < 0)
        m_hidden->addItem(units.size() > 1 && units.count(units.front()) == units.size()
                              ? QString("%1 × %2 ReLU").arg(units.size()).arg(units.front())
                              : QString("%1 ReLU").arg(units.join(" – ")),
                          key);
    m_hidden->setCurrentIndex(m_hidden->findData(key));
    m_fields.show(c);
    m_optimiser->setCurrentIndex(
        m_optimiser->findData(c.fit.optimiser == fa::OptimiserKind::Sgd ? "sgd" : "adam"));
    m_init->setCurrentIndex(m_init->findData(c.fit.reportInit ? "report" : "scaled"));
    m_faStart->setCurrentIndex(
        m_faStart->findData(QString::fromStdString(fa::faStartName(c.iterate.faStart))));
    m_quiet = false;
}

void NeuralPage::saveSettings(QSettings& settings) const {
    fa::io::NeuralSession s;
    s.config = config();
    s.speed = m_speed->value();
    settings.setValue("session", fa::io::neuralSessionToJson(s));
}

void NeuralPage::restoreSettings(QSettings& settings) {
    const QByteArray json = settings.value("session").toByteArray();
    if (json.isEmpty())
        return;
    try { // what the last launch left; a file moved or an older format is passed over
        const fa::io::NeuralSession s = fa::io::neuralSessionFromJson(json);
        if (!fa::io::isBuiltinDataset(s.config.dataset) &&
            !QFileInfo::exists(QString::fromStdString(s.config.dataset)))
            return;
        setConfig(s.config);
        m_speed->setValue(static_cast<int>(s.speed));
    } catch (const fa::io::SessionError&) {
    }
}
