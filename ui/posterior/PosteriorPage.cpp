#include "ui/posterior/PosteriorPage.h"

#include "core/io/RegressionCsv.h"
#include "core/posterior/PosteriorCsv.h"
#include "ui/common/ContourView.h"
#include "ui/common/ModeLayout.h"
#include "ui/posterior/BoundChart.h"
#include "ui/posterior/ComparisonScatter.h"
#include "ui/posterior/GpPanel.h"
#include "ui/posterior/GradientPanel.h"
#include "ui/posterior/PosteriorControls.h"
#include "ui/posterior/PosteriorCurveChart.h"
#include "ui/session/PosteriorSessionFile.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QVBoxLayout>
#include <new>

PosteriorPage::PosteriorPage(QWidget* parent)
    : LabPageOf(parent, {.sessionKind = "posterior",
                         .curvesFileName = "posterior-curves.csv",
                         .offersCsv = true,
                         .status = StatusStyle::Unit}),
      m_controls(new PosteriorControls), m_contours(new ContourView), m_tabs(new QTabWidget) {
    m_contours->setCloudName("iterates");
    m_contours->useShortNames(true);
    m_contours->setMinimumSize(320, 300); // with the curves, fits a 1280 x 800 window
    m_contours->setToolTip(
        "Contours of the exact posterior N(m, S) and of each approximation, restricted to two "
        "parameters: 39 / 86 / 99 % probability mass. Grey points: the last 300 SGD iterates.");
    m_curves = {
        new PosteriorCurveChart("Mean: ‖ĉ − m‖ / ‖m‖", "relative distance",
                                [](const fa::PosteriorScore& s) { return s.relMeanDist; }),
        new PosteriorCurveChart("Covariance: ‖Ŝ − S‖_F / ‖S‖_F", "relative distance",
                                [](const fa::PosteriorScore& s) { return s.relCovDist; }),
        new PosteriorCurveChart("2-Wasserstein W₂", "W₂",
                                [](const fa::PosteriorScore& s) { return s.w2; }),
        new PosteriorCurveChart("Scaled W₂ / D (report Table 1)", "W₂ / D",
                                [](const fa::PosteriorScore& s) { return s.w2OverDim; }),
    };
    m_scatters = {new ComparisonScatter(ComparisonScatter::Quantity::Means),
                  new ComparisonScatter(ComparisonScatter::Quantity::Variances),
                  new ComparisonScatter(ComparisonScatter::Quantity::Covariances)};

    auto* live = new QWidget;
    auto* liveLayout = new QHBoxLayout(live);
    auto* curves = new QGridLayout;
    for (int k = 0; k < 4; ++k)
        curves->addWidget(m_curves[static_cast<std::size_t>(k)], k / 2, k % 2);
    liveLayout->addWidget(m_contours, 5);
    liveLayout->addLayout(curves, 6);
    auto* compare = new QWidget;
    auto* compareLayout = new QHBoxLayout(compare);
    for (ComparisonScatter* s : m_scatters)
        compareLayout->addWidget(s);
    m_tabs->addTab(live, "Live posterior");
    m_tabs->addTab(compare, "Compare with the exact posterior");
    m_gradients = new GradientPanel;
    m_tabs->addTab(m_gradients, "Gradient estimators");
    m_bound = new BoundChart;
    m_tabs->addTab(m_bound, "α, β through the bound");
    m_gp = new GpPanel;
    m_tabs->addTab(m_gp, "Gaussian processes");
    modeLayout(this, {m_controls}, m_tabs, &m_parameters);

    connect(m_controls, &PosteriorControls::structureChanged, this, &PosteriorPage::reset);
    connect(m_controls, &PosteriorControls::openCsvRequested, this, &PosteriorPage::openCsvDialog);
    connect(m_controls, &PosteriorControls::learningRateChanged, this, [this](double eta) {
        change([eta](fa::PosteriorLive& live) { live.setSgdLearningRate(eta); });
    });
    connect(m_controls, &PosteriorControls::lambdaChanged, this, [this](double lambda) {
        change([lambda](fa::PosteriorLive& live) { live.setLambda(lambda); });
    });
    connect(m_controls, &PosteriorControls::coordinatesChanged, this, [this](int i, int j) {
        change([i, j](fa::PosteriorLive& live) { live.setCoordinates(i, j); }, Lasting::Yes);
    });
    connect(m_controls, &PosteriorControls::speedChanged, this, [this](double v) { setSpeed(v); });
    connectLength(m_controls->lengthField(), m_controls->filling());
    reset();
}

PosteriorCurveChart* PosteriorPage::curveChart(int metric) const {
    return m_curves.at(static_cast<std::size_t>(metric));
}

ComparisonScatter* PosteriorPage::comparison(int quantity) const {
    return m_scatters.at(static_cast<std::size_t>(quantity));
}

QSpinBox* PosteriorPage::speedBox() const {
    return m_controls->speedBox();
}

std::vector<std::pair<QString, QWidget*>> PosteriorPage::charts() const {
    std::vector<std::pair<QString, QWidget*>> out{
        {"posterior-contours-2d", m_contours},  {"posterior-rel-mean", m_curves[0]},
        {"posterior-rel-cov", m_curves[1]},     {"posterior-w2", m_curves[2]},
        {"posterior-w2-over-d", m_curves[3]},   {"posterior-means", m_scatters[0]},
        {"posterior-variances", m_scatters[1]}, {"posterior-covariances", m_scatters[2]}};
    if (m_gp->lesson()) // the GP tab's charts once they show something
        for (const auto& chart : m_gp->charts())
            out.push_back(chart);
    return out;
}

fa::PosteriorLiveConfig PosteriorPage::config() const {
    fa::PosteriorLiveConfig c = m_controls->config();
    c.setup.loader = fa::io::datasetLoader(); // the bundled sets, or the CSV file named
    return c;
}

void PosteriorPage::setConfig(const fa::PosteriorLiveConfig& config) {
    fa::PosteriorLiveConfig shown = config;
    if (!shown.changes.empty()) // the rate in force at the end
        shown.run.sgd.learningRate = shown.changes.back().sgdLearningRate;
    m_controls->setConfig(shown);
}

void PosteriorPage::start(const fa::PosteriorLiveConfig& config, Start how) {
    const auto [coordI, coordJ] =
        m_openedView.value_or(std::pair{m_controls->coordI(), m_controls->coordJ()});
    m_openedView.reset();
    startRun(
        [config, coordI, coordJ](const fa::AbandonFlag& abandon) {
            auto live = std::make_unique<fa::PosteriorLive>(config, abandon);
            try {
                live->setCoordinates(coordI, coordJ);
            } catch (const std::invalid_argument&) {
                // a view from a data set with more parameters: keep the first two
            }
            return live;
        },
        how);
}

bool PosteriorPage::viewsPending() const {
    return (m_tabs->currentWidget() == m_gp && m_gp->pending()) ||
           (m_tabs->currentWidget() == m_gradients && m_gradients->pending());
}

long PosteriorPage::stepSize() const {
    return m_controls->stepEpochs();
}

void PosteriorPage::draw(const fa::PosteriorLiveSnapshot& s) {
    ContourScene scene;
    const auto name = [&](int k) {
        return QString("θ%1 (%2)")
            .arg(k + 1)
            .arg(QString::fromStdString(s.parameterNames[static_cast<std::size_t>(k)]));
    };
    scene.title = QString("%1: posterior of %2 and %3, 39 / 86 / 99 % mass")
                      .arg(QString::fromStdString(s.dataset), name(s.coordI), name(s.coordJ));
    scene.xLabel = name(s.coordI);
    scene.yLabel = name(s.coordJ);
    scene.reference = "exact";
    scene.models.push_back({"exact", true, s.exactMarginal, s.exactContours});
    if (s.laplaceContours)
        scene.models.push_back({"exact-laplace", true, s.laplaceMarginal, s.laplaceContours});
    for (const auto& a : s.approximations)
        scene.models.push_back({fa::methodName(a.method), a.valid, a.marginal, nullptr});
    scene.cloud = s.iterates;
    m_contours->showScene(scene);
    for (PosteriorCurveChart* c : m_curves)
        c->showSnapshot(s);
    for (ComparisonScatter* c : m_scatters)
        c->showSnapshot(s);
    m_gradients->showSnapshot(s);
    m_bound->showSnapshot(s);
    m_controls->showRun(s);
}

bool PosteriorPage::openCsv(const QString& path) {
    if (!regressionCsvReadable(path))
        return false;
    QString error;
    if (!m_controls->useCsv(path, &error)) {
        fail("Cannot use this CSV file", error);
        return false;
    }
    emit message("Opened " + QDir::toNativeSeparators(path) +
                     " (target: the last column; change it under 'target')",
                 8000);
    return true;
}

bool PosteriorPage::openSession(const QString& path) {
    const auto s =
        readSession<fa::io::PosteriorSession>(path, fa::io::PosteriorSessionFiles::load, false);
    if (!s)
        return false;
    try { // the data and parameters, and the view against them, before anything changes
        const fa::PosteriorLive probe(s->config);
        if (std::max(s->coordI, s->coordJ) >= probe.problem().dim())
            throw std::invalid_argument(
                "the view's parameters exceed the data set's parameter count");
    } catch (const std::exception& e) {
        fail("Cannot open the session", QString::fromUtf8(e.what()));
        return false;
    }
    m_openedView = std::pair{s->coordI, s->coordJ};
    replaySession(s->config, s->speed, s->position, speedBox(), path, "epochs");
    m_gp->setConfig(s->gp);
    m_gradients->setFamily(s->gradFamily);
    m_tabs->setCurrentIndex(s->tab);
    return true;
}

bool PosteriorPage::saveSession(const QString& path) {
    return saveSessionFile<fa::io::PosteriorSession>(
        path, fa::io::PosteriorSessionFiles::save, &fa::io::PosteriorSession::position, speedBox(),
        [this](fa::io::PosteriorSession& s) {
            s.coordI = latestSnapshot()->coordI;
            s.coordJ = latestSnapshot()->coordJ;
            s.tab = m_tabs->currentIndex();
            s.gp = m_gp->config();
            s.gradFamily = m_gradients->family();
        });
}

void PosteriorPage::saveSettings(QSettings& settings) const {
    fa::io::PosteriorSession s;
    s.config = m_controls->config();
    s.coordI = m_controls->coordI();
    s.coordJ = m_controls->coordJ();
    s.speed = m_controls->speed();
    s.tab = m_tabs->currentIndex();
    s.gp = m_gp->config();
    s.gradFamily = m_gradients->family();
    try {
        settings.setValue("session", fa::io::posteriorSessionToJson(s));
    } catch (const std::exception&) { // nothing worth keeping
    }
}

void PosteriorPage::restoreSettings(QSettings& settings) {
    const QByteArray json = settings.value("session").toByteArray();
    if (json.isEmpty())
        return;
    try { // what the last launch left; a CSV moved away or an older format is passed over
        const fa::io::PosteriorSession s = fa::io::posteriorSessionFromJson(json);
        const std::string& dataset = s.config.setup.dataset;
        if (dataset.find('/') != std::string::npos &&
            !QFileInfo::exists(QString::fromStdString(dataset)))
            return;
        m_controls->setConfig(s.config);
        m_controls->setCoordinates(s.coordI, s.coordJ);
        m_controls->setSpeed(s.speed);
        m_gp->setConfig(s.gp);
        m_gradients->setFamily(s.gradFamily);
        m_tabs->setCurrentIndex(s.tab);
    } catch (const std::exception&) {
    }
}

bool PosteriorPage::exportCurves(const QString& path) {
    return exportRows(path, fa::io::writePosteriorCsv);
}
