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
    c.methods.clear();
    for (const auto& [m, box] : m_methods)
        if (box->isChecked())
            c.methods.push_back(m);
    c.fit.hidden.clear();
    for (const QString& units : m_hidden->currentData().toString().split(','))
        c.fit.hidden.push_back(units.toInt());
    m_fields.read(c);
    c.fit.optimiser = m_optimiser->currentData().toString() == "sgd" ? fa::OptimiserKind::Sgd
                                                                     : fa::OptimiserKind::Adam;
    c.fit.reportInit = m_init->currentData().toString() == "report";
    return c;
}

void NeuralPage::setMethods(const std::vector<fa::NeuralMethod>& methods) {
    m_quiet = true;
    for (const auto& [m, box] : m_methods)
        box->setChecked(std::find(methods.begin(), methods.end(), m) != methods.end());
    m_quiet = false;
    reset();
}

void NeuralPage::selectDataset(const QString& dataset) {
    int index = m_dataset->findData(dataset);
    if (index < 0) { // a CSV file: the fifth entry
        const QString label = "CSV: " + QFileInfo(dataset).fileName();
        if (m_dataset->count() > 4)
            m_dataset->setItemText(4, label), m_dataset->setItemData(4, dataset);
        else
            m_dataset->addItem(label, dataset);
        index = 4;
    }
    m_dataset->setCurrentIndex(index);
}

void NeuralPage::setConfig(const fa::NeuralLiveConfig& c) {
    m_quiet = true;
    selectDataset(QString::fromStdString(c.dataset));
    for (const auto& [m, box] : m_methods)
        box->setChecked(std::find(c.methods.begin(), c.methods.end(), m) != c.methods.end());
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
    m_quiet = false;
}

bool NeuralPage::openSession(const QString& path) {
    fa::io::NeuralSession s;
    try {
        s = fa::io::loadNeuralSession(path);
        s.config.loader = fa::io::datasetLoader();
        fa::NeuralLive probe(s.config); // the data and parameters, checked before any change
    } catch (const std::exception& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false;
    }
    // The fields hold every value a session may (their ranges are the session reader's,
    // core/neural/NeuralParams.h), so the run starts from exactly the saved configuration.
    setConfig(s.config);
    m_speed->setValue(static_cast<int>(s.speed));
    m_sessionPosition = s.epochs;
    start(Start::Paused);
    if (s.epochs > 0)
        runUntil(s.epochs);
    emit message(QString("Opened %1 (replaying %2 epochs)")
                     .arg(QDir::toNativeSeparators(path))
                     .arg(s.epochs),
                 8000);
    return true;
}

bool NeuralPage::saveSession(const QString& path) {
    const NeuralSnapshotPtr latest = latestSnapshot();
    if (!latest) {
        fail("Cannot save the session", "there is no run (its parameters were refused)");
        return false;
    }
    fa::io::NeuralSession s;
    s.speed = m_speed->value();
    s.epochs = latest->position;
    s.config = latest->config; // the running configuration, live changes included
    try {
        fa::io::saveNeuralSession(path, s);
    } catch (const fa::io::SessionError& e) {
        fail("Cannot save the session", QString::fromUtf8(e.what()));
        return false;
    }
    emit message("Saved " + QDir::toNativeSeparators(path), 5000);
    return true;
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
