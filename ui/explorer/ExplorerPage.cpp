#include "ui/explorer/ExplorerPage.h"

#include "ui/common/BandChartView.h"
#include "ui/common/ContourView.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/ModeLayout.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/explorer/CovarianceHeatMaps.h"
#include "ui/explorer/ErrorChartView.h"
#include "ui/explorer/StepPanel.h"
#include "ui/explorer/TrialsPanel.h"

#include <QGridLayout>
#include <QTabWidget>
#include <QVBoxLayout>

ExplorerPage::ExplorerPage(QWidget* parent)
    : LabPageOf(parent, {.sessionKind = "explorer",
                         .curvesFileName = "fa-curves.csv",
                         .jobName = "trials",
                         .unitName = "sample",
                         .countsSamples = true,
                         .defaultLength = 20000,
                         .recordsOnLogScale = true}),
      m_controls(new ControlPanel),
      m_covChart(new ErrorChartView("Relative covariance distance ‖Ŝ − S‖_F / ‖S‖_F",
                                    "relative distance",
                                    [](const fa::CurvePoint& p) { return p.relCovDist; })),
      m_w2Chart(new ErrorChartView("2-Wasserstein distance / D", "W₂ / D",
                                   [](const fa::CurvePoint& p) { return p.w2OverDim; })),
      m_contours(new ContourView), m_heatMaps(new CovarianceHeatMaps), m_stepPanel(new StepPanel),
      m_trials(new TrialsPanel([this] { return m_controls->config(); })), m_tabs(new QTabWidget) {
    auto* live = new QWidget;
    auto* grid = new QGridLayout(live);
    grid->addWidget(m_covChart, 0, 0);
    grid->addWidget(m_w2Chart, 0, 1);
    grid->addWidget(m_contours, 1, 0);
    grid->addWidget(m_heatMaps, 1, 1);
    m_tabs->addTab(live, "Live run");
    m_tabs->addTab(m_trials, "Trials (mean ± SE)");
    letSpaceThrough(m_trials->trialsBox()); // Space is Play / Pause there too
    modeLayout(this, {m_controls, m_stepPanel}, m_tabs, &m_parameters);

    connect(m_controls, &ControlPanel::structureChanged, this, &ExplorerPage::reset);
    connect(m_controls, &ControlPanel::learningRateChanged, this,
            [this](double eta) { change([eta](auto& e) { e.setLearningRate(eta); }); });
    connect(m_controls, &ControlPanel::speedChanged, this, [this](double v) { setSpeed(v); });
    connect(m_controls, &ControlPanel::viewChanged, this,
            [this] { change([view = m_controls->viewOptions()](auto& e) { e.setView(view); }); });
    connect(m_trials, &TrialsPanel::message, this,
            [this](const QString& m) { emit message(m, 8000); });
}

void ExplorerPage::start(const fa::ExplorerConfig& config, bool pickView, Start how) {
    m_pending = config;
    m_pendingPick = pickView;
    setSpeed(m_controls->speed());
    startRun(
        [config, pickView,
         view = m_controls->viewOptions()](const fa::AbandonFlag& abandon) mutable {
            auto explorer = std::make_unique<fa::LiveExplorer>(config, abandon);
            if (pickView) { // a new model: the pair where its marginal shows the most structure
                const auto [i, j] = explorer->mostCorrelatedPair();
                view.coordI = static_cast<int>(i);
                view.coordJ = static_cast<int>(j);
            }
            try {
                explorer->setView(view);
            } catch (const std::invalid_argument&) {
                // coordinates from a larger D: keep the explorer's default view
            }
            return explorer;
        },
        how);
}

void ExplorerPage::reset() {
    const fa::ExplorerConfig c = config();
    const auto& a = m_applied.generator;
    const auto& g = c.generator;
    // The 2D view moves to the most correlated pair when the true model is a new one (not on
    // the first run after a launch that remembered its view, nor when a session opens).
    const bool newModel = latestLabSnapshot()
                              ? g.dim != a.dim || g.latent != a.latent ||
                                    g.spectrumLo != a.spectrumLo || g.spectrumHi != a.spectrumHi ||
                                    g.kind != a.kind || c.seed != m_applied.seed
                              : !m_viewRestored;
    start(c, newModel);
}

long ExplorerPage::stepSize() const {
    return m_controls->stepCount();
}

void ExplorerPage::runStarted() {
    m_applied = m_pending;
    m_showRunView = m_pendingPick; // the snapshots from here on are the new run's
}

fa::ExplorerConfig ExplorerPage::config() const {
    return m_controls->config();
}

void ExplorerPage::setConfig(const fa::ExplorerConfig& config) {
    fa::ExplorerConfig shown = config;
    if (!shown.learningRateChanges.empty()) // the rate in force at the end
        shown.learningRate = shown.learningRateChanges.back().second;
    m_controls->setConfig(shown);
}

void ExplorerPage::draw(const fa::ExplorerSnapshot& snap) {
    if (m_showRunView) { // the run chose the view (a new model's correlated pair): show it
        m_showRunView = false;
        fa::ViewOptions v = m_controls->viewOptions();
        v.coordI = snap.view.coordI;
        v.coordJ = snap.view.coordJ;
        m_controls->setViewOptions(v);
    }
    m_covChart->showSnapshot(snap);
    m_w2Chart->showSnapshot(snap);
    m_contours->showSnapshot(snap);
    m_heatMaps->showSnapshot(snap);
    m_stepPanel->showSnapshot(snap);
}

QStringList ExplorerPage::statusTexts() const {
    QStringList texts = LabPage::statusTexts();
    if (const SnapshotPtr s = latestSnapshot()) {
        texts[0] = QString("T = %1 / %2").arg(s->samples).arg(s->totalSamples);
        if (running())
            texts[1] = QString("%1 obs/s").arg(stats().unitsPerSecond, 0, 'f', 0);
    }
    return texts;
}

QSpinBox* ExplorerPage::speedBox() const {
    return m_controls->speedBox();
}

std::vector<std::pair<QString, QWidget*>> ExplorerPage::charts() const {
    return {{"covariance-distance", m_covChart},
            {"w2-over-d", m_w2Chart},
            {"contours-2d", m_contours},
            {"covariance-heatmaps", m_heatMaps},
            {"trials-covariance", m_trials->covarianceChart()},
            {"trials-w2", m_trials->wassersteinChart()}};
}

void ExplorerPage::runJob() {
    m_tabs->setCurrentWidget(m_trials);
    m_trials->start();
}

void ExplorerPage::cancelJob() {
    m_trials->cancel();
}
